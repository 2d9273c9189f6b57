/**
 * A full journey against a listening emulator logging at its most verbose level, then every log
 * line searched for every secret the journey issued or presented: agency keys (seeded and created
 * in the console), consumer session tokens, the request token, the authorization code, state and
 * verifier, the browser's cookies, the reporting token, the control token and the webhook secret.
 * The interaction log and the console's live log are searched too. (test/logs.test.ts checks the
 * experience API alone, in memory.)
 * @see spec §2.1, §2.3, §4.3 (callback page rules); secrets never reach logs
 */
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { afterEach, expect, test, vi } from 'vitest';
import type { EnvValues } from '../../emulator/use-cases/control/env-values.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { CALLBACK, csrfOf } from '../journey/support.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import { experienceCall, signInBrowser } from './processes.js';

const CONTROL_TOKEN = randomBytes(32).toString('base64url');

interface SessionAnswer {
  session_token: string;
  terms: { version: string };
  entry: { state: string };
  delivery: { state: string };
}

let emulator: Running | undefined;
afterEach(() => emulator?.close());

test('no secret issued or presented during a full journey appears in any log line', async () => {
  const lines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });
  emulator = await startServer({
    fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'trace' }, sink), config: { controlToken: CONTROL_TOKEN },
  });
  const base = emulator.baseUrl;
  const secrets: Record<string, string> = { control_token: CONTROL_TOKEN };
  const control = async (method: 'GET' | 'POST', path: string, body?: object) => {
    const res = await fetch(`${base}/_emulator${path}`, {
      method, headers: { authorization: `Bearer ${CONTROL_TOKEN}`, 'content-type': 'application/json', accept: 'application/json' }, body: body && JSON.stringify(body),
    });
    expect(res.ok, `${method} ${path}: ${res.status}`).toBe(true);
    return res.json() as Promise<Record<string, unknown>>;
  };

  // The brand: keys, a webhook sink, the callback, the six sandbox calls, approval.
  const env = (await control('GET', '/env')) as unknown as EnvValues;
  Object.assign(secrets, { sandbox_key: env.sandbox_key!, production_key: env.production_key!, reporting_token: env.reporting_token });
  secrets.console_key = (await control('POST', '/console/keys', { environment: 'production' })).secret as string;
  secrets.webhook_secret = ((await control('POST', '/sinks', { name: 'crm' })).endpoint as { secret: string }).secret;
  await control('POST', '/console/callbacks', { production: CALLBACK });
  const sandboxPost = fetchPost(base, env.sandbox_key!);
  await coverSandbox(async (path, body, session) => {
    const answer = await sandboxPost(path, body, session);
    if (answer.body.session_token) secrets[`sandbox_session_${(body as { scenario: string }).scenario}`] = answer.body.session_token;
    return answer;
  });
  await control('POST', '/console/approve', {});

  // The collector signs in and scans; the service routes the browser to the agency with service_request.
  const anna = env.collectors.find((collector) => collector.email === 'anna.weber@example.test')!;
  const browser = await signInBrowser(base, anna.id);
  const pack = env.packs.find((candidate) => candidate.outcome === 'pending' && candidate.settles_as === 'won')!.code;
  const scan = await fetch(`${base}/q/${pack}`, { redirect: 'manual', headers: { cookie: browser.header } });
  secrets.service_request = new URL(scan.headers.get('location')!).searchParams.get('service_request')!;

  // The agency's backend: state and verifier, then the authorize page and Continue.
  secrets.state = randomBytes(32).toString('base64url');
  secrets.code_verifier = randomBytes(48).toString('base64url');
  const query = { request_token: secrets.service_request, state: secrets.state, code_challenge: s256(secrets.code_verifier), code_challenge_method: 'S256' };
  const page = await browser.keep(await fetch(`${base}/authorize?${new URLSearchParams(query)}`, { headers: { cookie: browser.header } })).text();
  const continued = await fetch(`${base}/authorize`, {
    method: 'POST', redirect: 'manual',
    headers: { cookie: browser.header, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf: csrfOf(page), ...query }),
  });
  expect(continued.status).toBe(303);
  secrets.service_code = new URL(continued.headers.get('location')!).searchParams.get('service_code')!;
  browser.values().forEach((value, i) => (secrets[`cookie_${i}`] = value));

  // Exchange, entry, polling until delivery settles on the virtual clock.
  const experience = async (method: 'GET' | 'POST', path: string, session?: string, body?: object) => {
    const res = await experienceCall(base, env.production_key!, method, path, { session, body });
    return { status: res.status, body: (await res.json()) as SessionAnswer };
  };
  const exchanged = await experience('POST', '/sessions', undefined, { authorization_code: secrets.service_code, code_verifier: secrets.code_verifier });
  expect(exchanged.status).toBe(201);
  secrets.session_token = exchanged.body.session_token;
  const terms = (await experience('GET', '/session', secrets.session_token)).body.terms;
  const entered = await experience('POST', '/session/entry', secrets.session_token, { consent: { accepted: true, age_confirmed: true, terms_version: terms.version } });
  expect(entered.body.entry.state).toBe('pending');
  await control('POST', '/clock', { advance: '31s' });
  expect((await experience('GET', '/session', secrets.session_token)).body.delivery.state).toBe('delivered');

  // Mistakes an agency makes, which land on error paths: a replayed code, secrets in a query string, a broken body.
  expect((await experience('POST', '/sessions', undefined, { authorization_code: secrets.service_code, code_verifier: secrets.code_verifier })).status).toBe(400);
  await fetch(`${base}/api/experience/v1/campaign?${new URLSearchParams({ service_request: secrets.service_request, service_code: secrets.service_code, state: secrets.state })}`, {
    headers: { authorization: `Bearer ${env.production_key}` },
  });
  await fetch(`${base}/api/experience/v1/sessions`, {
    method: 'POST', headers: { authorization: `Bearer ${env.production_key}`, 'content-type': 'application/json' }, body: `{"code_verifier": "${secrets.code_verifier}", `,
  });

  // The brand's side afterwards: reporting, the delivered webhooks, the secrets the harness reads.
  for (const path of ['/brands', `/brands/${env.brand_slug}/scans?limit=5`, `/brands/${env.brand_slug}/collectors/${anna.id}`]) {
    expect((await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${env.reporting_token}` } })).status, path).toBe(200);
  }
  await vi.waitFor(async () => expect(((await control('GET', '/sink/crm')).data as unknown[]).length).toBeGreaterThanOrEqual(2), { timeout: 5000, interval: 25 });
  await control('GET', '/secrets?after_session=0');

  const interactions = JSON.stringify(await control('GET', '/interactions?limit=1000'));
  const consoleLog = JSON.stringify(await control('GET', '/console/log?limit=200'));
  const logged = lines.join('\n');
  for (const shown of ['"path":"/authorize"', '"path":"/api/experience/v1/session/entry"', '"path":"/_emulator/sink/crm"', '"path":"/api/v1/brands"', '"msg":"webhook attempt"']) {
    expect(logged).toContain(shown);
  }
  for (const [name, value] of Object.entries(secrets)) expect(value.length, name).toBeGreaterThanOrEqual(16);

  const leaks = lines.flatMap((line) => Object.entries(secrets).filter(([, value]) => line.includes(value)).map(([name]) => ({ name, line })));
  expect(leaks).toEqual([]);
  const elsewhere = Object.entries(secrets).filter(([, value]) => interactions.includes(value) || consoleLog.includes(value)).map(([name]) => name);
  expect(elsewhere).toEqual([]);
});
