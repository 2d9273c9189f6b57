/**
 * Concurrency proofs over HTTP. One Node process serves one request at a time, so 50 parallel
 * requests to one emulator would be serialized by its event loop and prove little about the store.
 * Here every batch is split between two emulator processes serving one data folder, so the
 * one-entry-per-pack and single-use rules must hold in SQLite's transactions, not in an event
 * loop. (No experience or journey handler awaits between its read and its write.) Checked: with
 * the entry transaction deferred instead of immediate, a race answers 500 and a test fails on
 * every run.
 * @see spec §2.5, §4.1 rule 5, §4.3 step 5, §5 rule 4
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { EnvValues } from '../../emulator/use-cases/control/env-values.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { authCodesForPack, issueAuthCode } from '../../emulator/store/codes.js';
import { type Db, getMeta } from '../../emulator/store/db.js';
import { entriesOnPacks } from '../../emulator/store/entries.js';
import { listPromotions } from '../../emulator/store/promotions.js';
import { sessionsOnPack } from '../../emulator/store/sessions.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import { CALLBACK, csrfOf } from '../journey/support.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { VERIFIER } from '../world.js';
import { type EmulatorProcess, experienceCall, openData, scratchFolder, signInBrowser, startEmulator, startSecondServer, withCollectors } from './processes.js';

const N = 50;
const CONSENT = { consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } };
const STATE = 'S'.repeat(20) + '_state-0123456789abcdef';

let scratch: ReturnType<typeof scratchFolder>;
let emulators: EmulatorProcess[] = [];
let db: Db;
let env: EnvValues;
let seed: string;

beforeAll(async () => {
  scratch = scratchFolder((fixture) => ({ ...withCollectors(N, 'concurrency.test')(fixture), history: { scans: 0 } }));
  const cli = await startEmulator({ data: scratch.data, fixture: scratch.fixture });
  emulators = [cli, await startSecondServer({ data: scratch.data, fixture: scratch.fixture })];
  db = openData(scratch.data);
  env = (await (await fetch(`${cli.baseUrl}/_emulator/env`)).json()) as EnvValues;
  seed = getMeta(db, 'seed')!;
});

afterAll(async () => {
  db?.close();
  await Promise.all(emulators.map((emulator) => emulator.stop()));
  scratch?.remove();
});

/** Request i goes to one emulator, request i + 1 to the other. */
const served = (i: number) => emulators[i % 2]!.baseUrl;
const experience = (i: number, method: 'GET' | 'POST', path: string, options: { session?: string; body?: object } = {}) =>
  experienceCall(served(i), env.production_key!, method, path, options);
const packOf = (outcome: string, index = 0) => env.packs.filter((pack) => pack.outcome === outcome)[index]!.code;
const unitOf = (code: string) => findUnitByCode(db, code)!.id;
const collectors = () => env.collectors.filter((collector) => collector.email.endsWith('@concurrency.test'));

async function answered(res: Promise<Response>): Promise<{ status: number; text: string }> {
  const done = await res;
  return { status: done.status, text: await done.text() };
}

/** What the journey hands the agency: a code for this collector and pack, bound to VERIFIER's challenge. */
function codeFor(collectorId: number, pack: string): string {
  // Both emulators run on the real clock.
  return issueAuthCode(db, seed, { promotionId: env.promotion_id, collectorId, unitId: unitOf(pack), country: 'DE', codeChallenge: s256(VERIFIER), now: Date.now() });
}

async function sessionFor(i: number, collectorId: number, pack: string): Promise<string> {
  const res = await experience(i, 'POST', '/sessions', { body: { authorization_code: codeFor(collectorId, pack), code_verifier: VERIFIER } });
  if (res.status !== 201) throw new Error(`exchange failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { session_token: string }).session_token;
}

const statuses = (answers: Array<{ status: number }>) => answers.map((answer) => answer.status).sort();
const productionEntries = (pack: string) =>
  entriesOnPacks(db, listPromotions(db).map((promotion) => promotion.id), [unitOf(pack)]).map(({ collector_id }) => ({ collector_id }));

// Each outcome writes differently (stock and budget for a prize, delivery states), so each gets a race.
test.each(['won', 'lost', 'pending', 'failed'])(`${N} collectors entering one %s pack at once: exactly one entry, ${N - 1} already_entered`, async (outcome) => {
  const pack = packOf(outcome);
  const people = collectors();
  const tokens = await Promise.all(people.map((collector, i) => sessionFor(i, collector.id, pack)));

  const answers = await Promise.all(tokens.map((token, i) => answered(experience(i, 'POST', '/session/entry', { session: token, body: CONSENT }))));

  expect(statuses(answers)).toEqual([200, ...Array<number>(N - 1).fill(409)]);
  for (const refused of answers.filter((answer) => answer.status === 409)) {
    expect(JSON.parse(refused.text)).toEqual({ error: 'already_entered', message: 'This pack cannot be entered again.' });
  }
  const winner = answers.findIndex((answer) => answer.status === 200);
  expect(JSON.parse(answers[winner]!.text).entry.state).toBe(outcome);
  expect(productionEntries(pack)).toEqual([{ collector_id: people[winner]!.id }]);
  const read = await answered(experience(winner + 1, 'GET', '/session', { session: tokens[winner] }));
  expect(JSON.parse(read.text).entry).toEqual(JSON.parse(answers[winner]!.text).entry);
});

test(`${N} concurrent retries by one collector: one entry and ${N} identical answers`, async () => {
  const pack = packOf('won', 1);
  const token = await sessionFor(0, collectors()[0]!.id, pack);

  const answers = await Promise.all(Array.from({ length: N }, (_, i) => answered(experience(i, 'POST', '/session/entry', { session: token, body: CONSENT }))));

  expect(statuses(answers)).toEqual(Array<number>(N).fill(200));
  expect(new Set(answers.map((answer) => answer.text)).size).toBe(1);
  expect(JSON.parse(answers[0]!.text).entry.state).toBe('won');
  expect(productionEntries(pack)).toHaveLength(1);
});

test(`${N} concurrent exchanges of one code: one session, ${N - 1} invalid_grant`, async () => {
  const pack = packOf('lost', 1);
  const code = codeFor(collectors()[1]!.id, pack);

  const answers = await Promise.all(
    Array.from({ length: N }, (_, i) => answered(experience(i, 'POST', '/sessions', { body: { authorization_code: code, code_verifier: VERIFIER } }))),
  );

  expect(statuses(answers)).toEqual([201, ...Array<number>(N - 1).fill(400)]);
  for (const refused of answers.filter((answer) => answer.status === 400)) expect(JSON.parse(refused.text).error).toBe('invalid_grant');
  const sessions = sessionsOnPack(db, unitOf(pack)).map((session) => session.id);
  expect(sessions).toHaveLength(1);
  expect(authCodesForPack(db, unitOf(pack)).map((code) => code.session_id)).toEqual(sessions);
});

test(`${N} concurrent Continues of one request token on the authorize page: one code, ${N - 1} refusals`, async () => {
  const console = (path: string, body: object) =>
    fetch(`${served(0)}/_emulator/console${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect((await console('/callbacks', { production: CALLBACK })).status).toBe(200);
  await coverSandbox(fetchPost(served(0), env.sandbox_key!));
  expect((await console('/approve', {})).status).toBe(200);
  const pack = packOf('lost', 2);
  const browser = await signInBrowser(served(0), collectors()[2]!.id);
  const scan = await fetch(`${served(0)}/q/${pack}`, { redirect: 'manual', headers: { cookie: browser.header } });
  const requestToken = new URL(scan.headers.get('location')!).searchParams.get('service_request')!;
  const query = { request_token: requestToken, state: STATE, code_challenge: s256(VERIFIER), code_challenge_method: 'S256' };
  const page = await browser.keep(await fetch(`${served(1)}/authorize?${new URLSearchParams(query)}`, { headers: { cookie: browser.header } })).text();
  const form = new URLSearchParams({ csrf: csrfOf(page), ...query }).toString();

  const answers = await Promise.all(
    Array.from({ length: N }, (_, i) =>
      fetch(`${served(i)}/authorize`, { method: 'POST', redirect: 'manual', headers: { cookie: browser.header, 'content-type': 'application/x-www-form-urlencoded' }, body: form }),
    ),
  );

  expect(statuses(answers)).toEqual([303, ...Array<number>(N - 1).fill(410)]);
  const location = new URL(answers.find((answer) => answer.status === 303)!.headers.get('location')!);
  expect(location.origin + location.pathname).toBe(CALLBACK);
  expect(authCodesForPack(db, unitOf(pack))).toHaveLength(1);
  const exchanged = await experience(0, 'POST', '/sessions', { body: { authorization_code: location.searchParams.get('service_code'), code_verifier: VERIFIER } });
  expect(exchanged.status).toBe(201);
});
