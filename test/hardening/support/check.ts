/**
 * What every answer to a hostile request must look like, per area of the emulator:
 *
 * - experience API: the JSON errors, `{error, message, details?}` with the status of the
 *   `EXPERIENCE_ERRORS` table (spec §4.2), `Retry-After` on 429;
 * - reporting API: spec §7, `{error, details?}` with the status of `REPORTING_ERRORS`, or of the
 *   shared HTTP errors (bad JSON, too large, not JSON) it keeps;
 * - control plane and console API: the experience shape, with the plane's own codes;
 * - pages: an HTML page with the page headers (pages/http.ts), or the JSON 404 every unknown
 *   route answers.
 *
 * Everywhere: no 5xx, no stack trace or source path, no CORS header (spec §1), no unescaped fuzz
 * markup in HTML, no redirect off the service except to the approved callback.
 */
import { expect } from 'vitest';
import { z } from 'zod';
import { EXPERIENCE_ERRORS } from '../../../emulator/experience/errors.js';
import { REPORTING_ERRORS } from '../../../emulator/reporting/errors.js';
import { CALLBACK } from '../../journey/support.js';
import { XSS_ATTRIBUTE, XSS_TAG } from './hostile.js';
import type { FuzzAnswer, FuzzRequest } from './request.js';

type Area = 'experience' | 'reporting' | 'control' | 'pages';

/** Express matches mount paths case-insensitively. */
function areaOf(path: string): Area {
  const pathname = path.split('?')[0]!.toLowerCase();
  if (/^\/api\/experience\/v1(\/|$)/.test(pathname)) return 'experience';
  if (/^\/api\/v1(\/|$)/.test(pathname)) return 'reporting';
  if (/^\/_emulator(\/|$)/.test(pathname)) return 'control';
  return 'pages';
}

const details = z.record(z.string(), z.array(z.string())).optional();
const ExperienceError = z.strictObject({ error: z.enum(Object.keys(EXPERIENCE_ERRORS) as [keyof typeof EXPERIENCE_ERRORS]), message: z.string().min(1), details });
const SHARED_CODES = ['invalid_request', 'not_found', 'payload_too_large', 'request_timeout', 'unsupported_media_type'] as const;
const ReportingError = z.strictObject({ error: z.enum([...(Object.keys(REPORTING_ERRORS) as [keyof typeof REPORTING_ERRORS]), ...SHARED_CODES]), details });
const ControlError = z.strictObject({ error: z.string().regex(/^[a-z_]+$/), message: z.string().min(1), details });

const LEAKS: Array<[string, RegExp]> = [
  ['a stack frame', /\n\s+at [^\n]*(?:\.[cm]?[jt]s:\d+|node:|<anonymous>)/],
  ['a source path', new RegExp(`${escapeRegExp(process.cwd())}|node_modules|emulator/[\\w/-]+\\.[jt]s`)],
  ['an error class', /\b(?:Type|Reference|Range|Syntax|Sqlite|Zod)Error\b|SQLITE_[A-Z]/],
];

export function checkAnswer(request: FuzzRequest, answer: FuzzAnswer): void {
  const where = `${request.method} ${request.path.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, `5xx: ${where}`).toBeLessThan(500);
  expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-')), `CORS header: ${where}`).toEqual([]);
  for (const [leak, pattern] of LEAKS) expect(pattern.test(answer.text), `${leak} in the body: ${where}`).toBe(false);
  if (isHtml(answer)) {
    expect(answer.text.includes(XSS_TAG) || answer.text.includes(XSS_ATTRIBUTE), `unescaped fuzz markup: ${where}`).toBe(false);
  }
  if (answer.status >= 300 && answer.status < 400 && answer.headers.location !== undefined) {
    expect(safeLocation(answer.headers.location), `redirect off the service: ${answer.headers.location} for ${where}`).toBe(true);
  }
  if (answer.status === 429) expect(answer.headers['retry-after'], `429 without Retry-After: ${where}`).toMatch(/^\d+$/);
  if (answer.status >= 400 && request.method !== 'HEAD' && !refusedByParser(answer)) checkErrorShape(areaOf(request.path), answer, where);
}

/** Node's HTTP parser refuses oversized or malformed requests itself, before the app, with an empty body. */
function refusedByParser(answer: FuzzAnswer): boolean {
  return (answer.status === 400 || answer.status === 431) && answer.text === '' && answer.headers['content-type'] === undefined;
}

/**
 * A raw exchange of malformed HTTP: every status line the server wrote (pipelining may give
 * several, a refused connection none) is below 500, nothing leaks, and nothing was stored.
 */
export function checkRawAnswer(request: string, answer: string, changed: string[]): void {
  const where = `${JSON.stringify(request.slice(0, 300))} → ${JSON.stringify(answer.slice(0, 300))}`;
  for (const [, status] of answer.matchAll(/^HTTP\/1\.[01] (\d{3})/gm)) expect(Number(status), `5xx: ${where}`).toBeLessThan(500);
  expect(/^access-control-/im.test(answer), `CORS header: ${where}`).toBe(false);
  for (const [leak, pattern] of LEAKS) expect(pattern.test(answer), `${leak} in the answer: ${where}`).toBe(false);
  expect(changed.filter((table) => !ALWAYS_WRITTEN.has(table)), `malformed HTTP changed stored state: ${where}`).toEqual([]);
}

function checkErrorShape(area: Area, answer: FuzzAnswer, where: string): void {
  if (area === 'pages' && isHtml(answer)) return checkPage(answer, where);
  expect(answer.headers['content-type'], `error not JSON: ${where}`).toMatch(/^application\/json; charset=utf-8$/);
  const body = parseJson(answer.text, where);
  switch (area) {
    case 'experience':
    case 'pages': {
      const error = ExperienceError.safeParse(body);
      expect(error.success, `not the experience error shape: ${where}`).toBe(true);
      const code = error.data!.error;
      if (area === 'pages') expect(code, `a page route answered a JSON error: ${where}`).toBe('not_found');
      const statuses: number[] = code === 'unavailable' ? [409, 410] : [EXPERIENCE_ERRORS[code].status];
      expect(statuses, `status does not match ${code}: ${where}`).toContain(answer.status);
      return;
    }
    case 'reporting': {
      const error = ReportingError.safeParse(body);
      expect(error.success, `not the reporting error shape: ${where}`).toBe(true);
      const code = error.data!.error;
      const status = code in REPORTING_ERRORS ? REPORTING_ERRORS[code as keyof typeof REPORTING_ERRORS].status : EXPERIENCE_ERRORS[code as (typeof SHARED_CODES)[number]].status;
      expect(answer.status, `status does not match ${code}: ${where}`).toBe(status);
      return;
    }
    case 'control':
      expect(ControlError.safeParse(body).success, `not the control plane's error shape: ${where}`).toBe(true);
  }
}

function checkPage(answer: FuzzAnswer, where: string): void {
  expect(answer.headers['content-type'], where).toBe('text/html; charset=utf-8');
  expect(answer.headers['cache-control'], where).toBe('no-store');
  expect(answer.headers['x-content-type-options'], where).toBe('nosniff');
  expect(answer.headers['content-security-policy'], where).toContain("default-src 'none'");
  expect(answer.text.startsWith('<!doctype html>'), `not an HTML page: ${where}`).toBe(true);
}

function isHtml(answer: FuzzAnswer): boolean {
  return (answer.headers['content-type'] ?? '').startsWith('text/html');
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error(`error body is not JSON: ${where}`);
  }
}

/** The service itself, or the callback the fuzz worlds approve (journey/support.ts). */
function safeLocation(location: string): boolean {
  if (location.startsWith(`${CALLBACK}?`)) return true;
  return /^\/(?![/\\])/.test(location);
}

/**
 * Tables a request may write whatever it answers: the interaction log records every experience
 * call, refused ones included (the control plane).
 */
const ALWAYS_WRITTEN = new Set(['interactions']);

/** Refusals with consequences the spec asks for, and the tables they may write. */
const CONSEQUENTIAL_REFUSALS: Array<{ method: string; path: RegExp; errors?: string[]; tables: string[] }> = [
  // The checklist counts the sandbox entry call whatever it answers (spec §1 lifecycle, step 6).
  { method: 'POST', path: /^\/api\/experience\/v1\/session\/entry\/?$/i, errors: ['ineligible', 'already_entered'], tables: ['sandbox_coverage'] },
  // A presented code is spent even when the exchange fails, and a reused code revokes its session (spec §5 rule 4, §7).
  { method: 'POST', path: /^\/api\/experience\/v1\/sessions\/?$/i, errors: ['invalid_grant'], tables: ['auth_codes', 'sessions'] },
  // The built-in sink keeps every delivery it receives, verified or not, to show the brand why one failed.
  { method: 'POST', path: /^\/_emulator\/sink\/[^/]+\/?$/i, tables: ['sink_events'] },
];

/** A refused request (4xx) leaves the stored state as it was. */
export function checkUnchanged(request: FuzzRequest, answer: FuzzAnswer, changed: string[]): void {
  if (answer.status < 400) return;
  const pathname = request.path.split('?')[0]!;
  const error = errorCodeOf(answer);
  const allowed = new Set(ALWAYS_WRITTEN);
  for (const refusal of CONSEQUENTIAL_REFUSALS) {
    if (refusal.method === request.method && refusal.path.test(pathname) && (!refusal.errors || refusal.errors.includes(error ?? ''))) {
      for (const table of refusal.tables) allowed.add(table);
    }
  }
  const where = `${request.method} ${request.path.slice(0, 300)} → ${answer.status} ${answer.text.slice(0, 200)}`;
  expect(changed.filter((table) => !allowed.has(table)), `a refused request changed stored state: ${where}`).toEqual([]);
}

function errorCodeOf(answer: FuzzAnswer): string | undefined {
  try {
    return (JSON.parse(answer.text) as { error?: string }).error;
  } catch {
    return undefined;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
