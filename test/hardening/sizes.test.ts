/**
 * Round four, item 5: sizes. A fixture's texts have documented limits (docs/limits.md), refused at
 * load in one line: a 5 MB brand name was accepted and sent on every page. `emulator.log` rotates
 * at its bound, and a refusal repeated on a route is summarised: 8,000 calls with an invalid key
 * added 2.7 MB.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { FIXTURE_TEXT_LIMITS, type Fixture, parseFixture } from '../../emulator/fixture.js';
import type { Request, Response } from 'express';
import { MAX_LOG_BYTES, createLogger, logFile } from '../../emulator/logger.js';
import { requestLog } from '../../emulator/request-log.js';
import { runCli, scratchFolder } from './processes.js';
import { DEFAULT_FIXTURE, testWorld } from '../world.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The default fixture with one change, as text, and what parsing it says (undefined when it loads). */
function refusal(change: (fixture: Fixture) => void): string | undefined {
  const fixture = structuredClone(DEFAULT_FIXTURE);
  change(fixture);
  try {
    parseFixture(JSON.stringify(fixture), 'world.json');
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

test('each kind of fixture text is refused one character over its limit, in one line naming the path', () => {
  const { name, copy, terms, url, email } = FIXTURE_TEXT_LIMITS;
  const cases: Array<[string, number, (fixture: Fixture, text: string) => void, string]> = [
    ['brand name', name, (f, text) => void (f.brands[0]!.name = text), 'brands.0.name'],
    ['company name', name, (f, text) => void (f.company.name = text), 'company.name'],
    ['promotion name', name, (f, text) => void (f.promotion.name = text), 'promotion.name'],
    ['prize tier', name, (f, text) => void (f.promotion.prizes[0]!.tier = text), 'promotion.prizes.0.tier'],
    ['headline', name, (f, text) => void (f.promotion.copy.headline = text), 'promotion.copy.headline'],
    ['copy body', copy, (f, text) => void (f.promotion.copy.body = text), 'promotion.copy.body'],
    ['terms text', terms, (f, text) => void (f.promotion.terms.default.text = text), 'promotion.terms.default.text'],
    ['terms url', url, (f, text) => void (f.promotion.terms.default.url = `https://terms.example/${text.slice(22)}`), 'promotion.terms.default.url'],
    ['collector email', email, (f, text) => void (f.collectors[0]!.email = `${text.slice(0, 64)}@${'d'.repeat(63)}.${'e'.repeat(text.length - 129)}`), 'collectors.0.email'],
  ];
  for (const [what, limit, set, path] of cases) {
    expect(refusal((fixture) => set(fixture, 'a'.repeat(limit))), what).toBeUndefined();
    const message = refusal((fixture) => set(fixture, 'a'.repeat(limit + 1)));
    expect(message, what).toBe(`[emulator] invalid fixture world.json: ${path}: must be at most ${limit} characters`);
  }
});

test('a field name from the file is cut in the one line: a long country key, an unknown long field', () => {
  const key = 'X'.repeat(5000);
  const countryKey = refusal((fixture) => void (fixture.promotion.terms.by_country[key] = fixture.promotion.terms.default));
  expect(countryKey).toMatch(/^\[emulator\] invalid fixture world\.json: promotion\.terms\.by_country\.X{40}…: /);
  const unknown = refusal((fixture) => void Object.assign(fixture.promotion, { [`${key}\nline`]: 1 }));
  for (const message of [countryKey!, unknown!]) {
    expect(message.length, message).toBeLessThan(500);
    expect(message).not.toContain('\n');
  }
});

test('a 5 MB brand name stops `emulator start` with one line, and the terms edit of the control plane keeps the limit', async () => {
  const scratch = scratchFolder((fixture) => ({ ...fixture, brands: [{ ...fixture.brands[0]!, name: 'B'.repeat(5 * 1024 * 1024) }, ...fixture.brands.slice(1)] }));
  folders.push(scratch.dir);
  const run = await runCli('start', '--data', scratch.data, '--fixture', scratch.fixture, '--port', '0');
  expect(run.code).toBe(1);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toContain(`invalid fixture ${scratch.fixture}: brands.0.name: must be at most ${FIXTURE_TEXT_LIMITS.name} characters;`);

  const t = testWorld();
  const edit = await t.api.post('/_emulator/terms').send({ country: null, terms: { text: 'T'.repeat(FIXTURE_TEXT_LIMITS.terms + 1) } });
  expect(edit.status).toBe(400);
  expect(edit.body.details).toEqual({ 'terms.text': [`must be at most ${FIXTURE_TEXT_LIMITS.terms} characters`] });
});

test('docs/limits.md states every limit the code holds', () => {
  const doc = readFileSync(new URL('../../docs/limits.md', import.meta.url), 'utf8');
  for (const limit of Object.values(FIXTURE_TEXT_LIMITS)) expect(doc).toContain(`| ${limit.toLocaleString('en')} characters |`);
  expect(doc).toContain(`at most ${MAX_LOG_BYTES / 1024 / 1024} MB`);
});

test('the log file rotates at its bound, keeping one rotated file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'emulator-log-'));
  folders.push(dir);
  const path = join(dir, 'emulator.log');
  writeFileSync(path, 'x'.repeat(900) + '\n');
  const file = logFile(path, 1000);
  const line = (n: number) => `${JSON.stringify({ n, msg: 'y'.repeat(80) })}\n`;
  for (let n = 0; n < 100; n++) file.write(line(n));
  file.close();
  expect(statSync(path).size).toBeLessThanOrEqual(1000);
  expect(statSync(`${path}.1`).size).toBeLessThanOrEqual(1000);
  // The newest lines are in the file, the ones just before in the rotated one; nothing is cut in half.
  expect(readFileSync(path, 'utf8').trim().split('\n').at(-1)).toBe(line(99).trim());
  for (const kept of [path, `${path}.1`]) for (const text of readFileSync(kept, 'utf8').trim().split('\n')) expect(() => JSON.parse(text)).not.toThrow();
});

test('a refusal repeated on a route is logged at its 1st, 10th and 100th time; another answer starts the count over', async () => {
  const t = testWorld();
  const refusedLines = () => t.logLines.map((text) => JSON.parse(text) as { msg: string; request?: { status: number; times?: number } }).filter((line) => line.request?.status === 401);
  for (let n = 0; n < 120; n++) await t.experience('get', '/campaign', 'pk_sandbox_not-a-key-at-all-0000').expect(401);
  expect(refusedLines().map((line) => line.request!.times)).toEqual([undefined, 10, 100]);
  expect(refusedLines()[1]!.msg).toBe('GET /api/experience/v1/campaign 401 invalid_key (this refusal 10 times on this route since it last succeeded; logged at 10, 100, 1000, ...)');
  await t.experience('get', '/campaign').expect(200);
  await t.experience('get', '/campaign', 'pk_sandbox_not-a-key-at-all-0000').expect(401);
  expect(refusedLines()).toHaveLength(4);
});

test('two kinds of refusal alternating on one route are each summarised: 8,000 calls make a handful of lines', () => {
  const written: string[] = [];
  const log = requestLog(createLogger('emulator', {}, { write: (line: string) => void written.push(line) }));
  /** One request through the log's middleware, answered with this refusal. */
  const answer = (status: number, errorCode: string) => {
    const res = Object.assign(new EventEmitter(), { statusCode: status, locals: { errorCode } });
    log({ method: 'GET', originalUrl: '/api/experience/v1/campaign' } as Request, res as unknown as Response, () => {});
    res.emit('finish');
  };
  for (let n = 0; n < 4000; n++) {
    answer(401, 'invalid_key');
    answer(401, 'key_revoked');
  }
  const lines = written.map((text) => (JSON.parse(text) as { request: { error: string; times?: number } }).request);
  expect(lines.map(({ error, times }) => [error, times])).toEqual([
    ['invalid_key', undefined], ['key_revoked', undefined], ['invalid_key', 10], ['key_revoked', 10],
    ['invalid_key', 100], ['key_revoked', 100], ['invalid_key', 1000], ['key_revoked', 1000],
  ]);
  // A success on the route starts both counts over.
  written.length = 0;
  answer(200, '');
  answer(401, 'invalid_key');
  answer(401, 'key_revoked');
  expect(written.map((text) => JSON.parse(text).request.times)).toEqual([undefined, undefined, undefined]);
});
