import { beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../emulator/use-cases/sandbox.js';
import type { Fixture } from '../../emulator/fixture.js';
import { EXPERIENCE_API } from '../../emulator/openapi/experience.js';
import { VERIFIER, consentFor, issueCodeFor, productionSession, testWorld } from '../world.js';
import { checkAgainstDocument } from './check.js';
import { type OpenApiDoc, OVERSIZED, type Recording, recorder } from './support.js';

const ROOT = EXPERIENCE_API.root;
const withPromotion = (change: Partial<Fixture['promotion']>) => (f: Fixture) => ({ ...f, promotion: { ...f.promotion, ...change } });

/** Calls every endpoint into every documented status, across the worlds that status needs. */
async function recordExperience(): Promise<Recording[]> {
  const recordings: Recording[] = [];
  const t = testWorld();
  const call = recorder(t, ROOT, recordings);
  const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
  const sandbox = bearer(t.env.sandbox_key!);
  const production = bearer(t.env.production_key!);

  await call('get', '/campaign', { headers: sandbox });
  await call('get', '/campaign', { headers: production });
  await call('get', '/campaign');
  await call('post', '/sessions', { headers: bearer('pk_unknown'), body: { scenario: 'won' } });

  for (const scenario of SANDBOX_SCENARIOS) {
    const created = await call('post', '/sessions', { headers: sandbox, body: { scenario } });
    const session = { ...sandbox, 'X-Service-Session': created.body.session_token as string };
    await call('post', '/session/entry', { headers: session, body: {} });
    await call('get', '/session', { headers: session });
  }

  const exchanged = await call('post', '/sessions', { headers: production, body: { authorization_code: issueCodeFor(t), code_verifier: VERIFIER } });
  const session = { ...production, 'X-Service-Session': exchanged.body.session_token as string };
  await call('post', '/session/entry', { headers: session, body: {} });
  await call('post', '/session/entry', { headers: session, body: { ...consentFor(exchanged.body.terms), country: 'DE' } });
  await call('post', '/session/entry', { headers: session, body: consentFor(exchanged.body.terms) });
  await call('get', '/session', { headers: session });
  await call('post', '/session/entry', { headers: production, body: {} });
  await call('get', '/session', { headers: { ...production, 'X-Service-Session': 'not-a-session' } });

  await call('post', '/sessions', { headers: production, body: { authorization_code: 'unknown', code_verifier: VERIFIER } });
  for (const [route, headers] of [['/sessions', sandbox], ['/session/entry', session]] as const) {
    await call('post', route, { headers, raw: { type: 'application/json', text: '{"scenario":' } });
    await call('post', route, { headers, raw: { type: 'text/plain', text: 'scenario=won' } });
    await call('post', route, { headers, body: OVERSIZED });
  }

  for (const fixture of [withPromotion({ status: 'draft' }), withPromotion({ dates: { start: '2026-01-01T00:00:00Z', end: '2026-11-01T00:00:00Z' } })]) {
    const closed = testWorld({ fixture });
    const token = await productionSession(closed);
    await recorder(closed, ROOT, recordings)('post', '/session/entry', {
      headers: { ...bearer(closed.env.production_key!), 'X-Service-Session': token }, body: consentFor({ version: 'de-2026-03' }),
    });
  }

  const limited = testWorld({ config: { limits: { perKey: 1, perSession: 60, windowMs: 60_000 } } });
  const callLimited = recorder(limited, ROOT, recordings);
  const limitedKey = bearer(limited.env.sandbox_key!);
  const first = await callLimited('post', '/sessions', { headers: limitedKey, body: { scenario: 'won' } });
  const limitedSession = { ...limitedKey, 'X-Service-Session': first.body.session_token as string };
  await callLimited('get', '/campaign', { headers: limitedKey });
  await callLimited('post', '/sessions', { headers: limitedKey, body: { scenario: 'won' } });
  await callLimited('post', '/session/entry', { headers: limitedSession, body: {} });
  await callLimited('get', '/session', { headers: limitedSession });
  return recordings;
}

describe('the experience API answers as its OpenAPI document says', () => {
  let recordings: Recording[];
  let doc: OpenApiDoc;
  beforeAll(async () => {
    recordings = await recordExperience();
    doc = (await testWorld().api.get(`${ROOT}/openapi.json`)).body as OpenApiDoc;
  });

  checkAgainstDocument(EXPERIENCE_API, () => ({ recordings, doc }));

  it('records entries in every state, and the session read of a delivered prize with its codes', () => {
    const entries = recordings.filter((r) => r.route === '/session/entry' && r.status === 200).map((r) => (r.body as { entry: { state: string } }).entry.state);
    expect(new Set(entries)).toEqual(new Set(['won', 'lost', 'pending', 'failed']));
    const delivered = recordings.filter((r) => r.route === '/session' && r.status === 200).map((r) => r.body as { entry: { codes: string[] } | null; delivery: { state: string } });
    expect(delivered.some((read) => read.delivery.state === 'delivered' && read.entry!.codes.length > 0)).toBe(true);
  });
});
