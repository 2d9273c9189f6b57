/**
 * The agency's own entry endpoint (spec §4.3: protected against CSRF and rate-limited), found
 * without configuration: the consent form is filled in as a customer would and sent, and the
 * request it sends (a form post or a `fetch`) is caught before it leaves the browser. Then, from
 * the journey's own browser (its cookies): that request as a cross-site page could send it, its
 * CSRF token missing, then forged, then as a plain cross-site form post (no token, none of the
 * page's own headers); then as it was, in a row, until the agency answers 429.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Request, Route } from 'playwright-core';
import type { BrowserSession } from './browser-session.js';
import { consentPageOf } from '../pages/agency.js';
import { personOf } from '../pages/person.js';
import { confirmStepOf, reachConsent, standingBeside } from './consent-steps.js';
import type { EndpointProbe } from './endpoint-probe-facts.js';
import type { JourneyFacts } from './facts.js';
import { termsOf } from './terms.js';
import { BACKEND_LATENCY_MS } from './polling.js';
import type { ScenarioRun } from './scenario-run.js';
import { isEntryCall, waitForCall } from './step-support.js';

/** Names that carry a CSRF token, in a header or a field. */
const TOKEN_NAME = /csrf|xsrf|token|nonce|authenticity/i;
/** Headers the browser sets itself, or that a cross-site page cannot choose: never replayed as caught. */
const BROWSER_HEADERS = /^(cookie|host|content-length|connection|origin|referer|user-agent|accept(-.*)?|sec-.*|priority|cache-control|pragma|upgrade-insecure-requests)$/i;
/** Top-level domains a forged request's site is drawn under. */
const ATTACKER_TLDS = ['com', 'net', 'org', 'de', 'at', 'ch', 'nl', 'pl', 'fr', 'es', 'it', 'eu', 'shop', 'io'];

/**
 * A cross-site page, where a forged request comes from: another each time, so an agency that
 * refuses one site it knows (a probe's fixed origin) and takes every other is found out.
 */
export function attackerOrigin(): string {
  const letters = Array.from({ length: randomInt(5, 12) }, () => 'abcdefghijklmnopqrstuvwxyz'[randomInt(26)]).join('');
  return `https://${letters}.${ATTACKER_TLDS[randomInt(ATTACKER_TLDS.length)]}`;
}

interface Caught {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string;
}

export async function probeEntryEndpoint(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession): Promise<void> {
  const { facts, config } = run.env;
  const record: EndpointProbe = { scenario: run.scenario.id, journey: journey.journey, pack: journey.pack.code, csrf: [], burst: [] };
  facts.endpoint.push(record);
  await reachConsent(run, session, { timeoutMs: 5000 });
  const consent = consentPageOf(session.page, config, termsOf(facts, journey.country)?.minimum_age);
  await consent.open((click) => session.act(click));
  const form = await consent.read();
  if (!form.hasForm) {
    record.missed = 'no consent form to send: no form on the page has a box that accepts the terms (markers.entry_form names the form, markers.consent_boxes.terms its box)';
    return;
  }
  await consent.fill(personOf(facts.runId, journey.country));
  await consent.tick(form.boxes, { terms: true, age: true });
  const consentUrl = session.page.url();
  const submit = await consent.submit();
  if (!submit) {
    record.missed = 'no button sends the consent form: none is a submit button or named like one (vocabulary.submit adds a word)';
    return;
  }
  const wanted = (request: Request) => request.method() !== 'GET' && facts.isAgency(request.url()) && (!config.entry_endpoint.path || new URL(request.url()).pathname === config.entry_endpoint.path);
  const standing = await standingBeside(run, session);
  let caught = await catchSubmission(session, submit, wanted);
  if (!caught) {
    // A page that draws a summary beside the form it keeps, instead of sending it: its one button sends the entry.
    const step = await confirmStepOf(run, session, standing).catch(() => undefined);
    if (step) caught = await catchSubmission(session, session.page.locator(step.submit), wanted);
  }
  if (!caught) {
    record.missed = `the consent form sent no request to the agency${config.entry_endpoint.path ? ` at ${config.entry_endpoint.path}` : ''} within 5 s (entry_endpoint.path picks it)`;
    return;
  }
  const send = await forge(run, session, record, caught, new Set(form.hidden.map(([name]) => name)));
  // From the page's own origin, as the browser sent it: an agency whose API is on another origin than its pages allows only theirs.
  const own = { headers: { ...replayable(caught.headers), origin: caught.headers.origin ?? new URL(consentUrl).origin, referer: consentUrl }, body: caught.body };
  for (let attempt = 0; attempt < config.entry_endpoint.max_attempts; attempt += 1) {
    const { status } = await send(own);
    record.burst.push(status);
    if (status === 429) break;
  }
  const entered = await waitForCall(run, (call) => isEntryCall(call) && call.seq > record.burstAfter!, { pack: journey.pack.code, timeoutMs: BACKEND_LATENCY_MS });
  if (!entered) await probeConfirm(run, journey, session, consentUrl);
}

/**
 * A site that asks to confirm the consent form once sent (a summary with one button) enters only
 * from that page, which the requests above led to: its request is caught and forged the same way,
 * then sent once as it was (the control).
 */
async function probeConfirm(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession, consentUrl: string): Promise<void> {
  await session.goto(consentUrl);
  const step = await confirmStepOf(run, session).catch(() => undefined);
  if (!step) return;
  const caught = await catchSubmission(session, session.page.locator(step.submit), (request) => request.method() !== 'GET' && run.env.facts.isAgency(request.url()));
  if (!caught) return;
  const record: EndpointProbe = { scenario: run.scenario.id, journey: journey.journey, pack: journey.pack.code, csrf: [], burst: [], confirms: true };
  run.env.facts.endpoint.push(record);
  const send = await forge(run, session, record, caught, new Set());
  const pageUrl = session.page.url();
  record.burst.push((await send({ headers: { ...replayable(caught.headers), origin: caught.headers.origin ?? new URL(pageUrl).origin, referer: pageUrl }, body: caught.body })).status);
}

/**
 * The caught request sent from another site, its token missing, forged, then as a plain form post
 * (`record.csrf`); returns how to send it from the journey's browser, `record.burstAfter` set for what follows.
 */
async function forge(run: ScenarioRun, session: BrowserSession, record: EndpointProbe, caught: Caught, hidden: ReadonlySet<string>) {
  const parts = tokenParts(caught, hidden);
  record.caught = { method: caught.method, path: new URL(caught.url).pathname, tokenParts: [...parts.headers.map((name) => `header ${name}`), ...parts.fields.map((name) => `field ${name}`)] };
  const send = async (request: { headers: Record<string, string>; body: string }) => {
    const answer = await session.context.request.fetch(caught.url, { method: caught.method, headers: request.headers, data: request.body, maxRedirects: 0, failOnStatusCode: false });
    await answer.dispose();
    return { status: answer.status(), readableBy: readableBy(answer.headers(), request.headers.origin) };
  };
  // Each request is placed among the calls the emulator observed by their sequence numbers, not by clocks.
  const attacker = attackerOrigin();
  for (const variant of ['missing', 'forged', PLAIN_FORM_POST] as const) {
    const after = await run.env.client.lastObserved();
    record.csrf.push({ variant, after, ...(await send(variant === PLAIN_FORM_POST ? plainFormPost(caught, parts, attacker) : forgery(caught, parts, variant, attacker))) });
  }
  // An agency that took a forgery (answered below 400) may call the service after answering: its entry is waited for, so it is not counted as the own requests'.
  const taken = record.csrf.find((attempt) => attempt.status < 400);
  if (taken) await waitForCall(run, (call) => isEntryCall(call) && call.seq > taken.after, { pack: record.pack, timeoutMs: BACKEND_LATENCY_MS });
  record.burstAfter = await run.env.client.lastObserved();
  return send;
}

/** Clicks `submit` and catches the first request that `wanted` picks, answering it 204 itself so it never reaches the agency. */
async function catchSubmission(session: BrowserSession, submit: import('playwright-core').Locator, wanted: (request: Request) => boolean): Promise<Caught | undefined> {
  let caught: Caught | undefined;
  const handler = async (route: Route) => {
    const request = route.request();
    if (caught || !wanted(request)) return route.fallback();
    caught = { method: request.method(), url: request.url(), headers: await request.allHeaders(), body: request.postData() ?? '' };
    // Answered here, so it never reaches the agency: an empty page, as a navigation must end on one, that says nothing of who answered.
    await route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html>' });
  };
  await session.page.route('**/*', handler);
  try {
    await submit.click();
    for (let waited = 0; !caught && waited < 5000; waited += 100) await sleep(100);
  } finally {
    await session.page.unroute('**/*', handler);
  }
  return caught;
}

/**
 * The origin another site's page could read the answer from with the collector's cookies: a CORS
 * answer that allows the forging request's origin (or any, `*`) with credentials. Undefined when
 * the answer lets no other site read it.
 */
function readableBy(headers: Record<string, string>, origin: string | undefined): string | undefined {
  const allowed = headers['access-control-allow-origin']?.trim();
  if (!origin || headers['access-control-allow-credentials']?.trim().toLowerCase() !== 'true') return undefined;
  return allowed === origin || allowed === '*' ? allowed : undefined;
}

/** Where the caught request carries its token: headers named like one or the page's own (`x-…`), fields named like one or hidden in the form. */
function tokenParts(caught: Caught, hidden: ReadonlySet<string>): { headers: string[]; fields: string[] } {
  const headers = Object.keys(caught.headers).filter((name) => !BROWSER_HEADERS.test(name) && (TOKEN_NAME.test(name) || name.toLowerCase().startsWith('x-')));
  const fields = Object.keys(fieldsOf(caught) ?? {}).filter((name) => hidden.has(name) || TOKEN_NAME.test(name));
  return { headers, fields };
}

/** The body's fields: a form's, or a JSON object's top level; undefined for anything else. */
function fieldsOf(caught: Caught): Record<string, unknown> | undefined {
  const type = caught.headers['content-type'] ?? '';
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(caught.body));
  if (type.includes('json')) {
    try {
      const parsed = JSON.parse(caught.body) as unknown;
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The caught request as a page on another site could send it: from there, its token left out or made up. */
function forgery(caught: Caught, parts: { headers: string[]; fields: string[] }, variant: 'missing' | 'forged', attacker: string): { headers: Record<string, string>; body: string } {
  const made = (value: string) => randomBytes(Math.max(16, value.length)).toString('base64url').slice(0, Math.max(16, value.length));
  const headers: Record<string, string> = { ...replayable(caught.headers), origin: attacker, referer: `${attacker}/` };
  for (const name of parts.headers) {
    if (variant === 'missing') delete headers[name];
    else headers[name] = made(caught.headers[name] ?? '');
  }
  const fields = fieldsOf(caught);
  if (!fields || parts.fields.length === 0) return { headers, body: caught.body };
  const changed: Record<string, unknown> = { ...fields };
  for (const name of parts.fields) {
    if (variant === 'missing') delete changed[name];
    else changed[name] = made(String(fields[name] ?? ''));
  }
  const json = (caught.headers['content-type'] ?? '').includes('json');
  return { headers, body: json ? JSON.stringify(changed) : new URLSearchParams(Object.entries(changed).map(([name, value]): [string, string] => [name, String(value)])).toString() };
}

const PLAIN_FORM_POST = 'missing, as a plain form post';

/**
 * The caught request as any other site can send it without a script's help: a plain HTML form's
 * post (application/x-www-form-urlencoded), from there, with none of the page's own headers (an
 * `HX-Request` or `X-Requested-With` a framework adds) and no token. An agency that checks its token
 * only on requests that carry such a header takes this one.
 */
function plainFormPost(caught: Caught, parts: { fields: string[] }, attacker: string): { headers: Record<string, string>; body: string } {
  const sent = fieldsOf(caught);
  const fields = Object.entries(sent ?? {}).filter(([name]) => !parts.fields.includes(name));
  const body = sent ? new URLSearchParams(fields.map(([name, value]): [string, string] => [name, typeof value === 'object' ? JSON.stringify(value) : String(value)])).toString() : caught.body;
  return { headers: { 'content-type': 'application/x-www-form-urlencoded', origin: attacker, referer: `${attacker}/` }, body };
}

function replayable(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !BROWSER_HEADERS.test(name) && !name.startsWith(':')));
}
