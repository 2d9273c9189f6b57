import { describe, expect, it } from 'vitest';
import { type TestWorld, VERIFIER, consentFor, issueCodeFor, testWorld } from './world.js';

/** The same request sequence, recorded as raw status and body bytes. */
async function run(t: TestWorld): Promise<string[]> {
  const out: string[] = [];
  const record = (res: { status: number; text: string }) => out.push(`${res.status} ${res.text}`);
  record(await t.experience('get', '/campaign'));
  for (const scenario of ['won', 'pending', 'ineligible']) {
    const created = await t.experience('post', '/sessions').send({ scenario });
    record(created);
    record(await t.experience('post', '/session/entry', t.env.sandbox_key, created.body.session_token).send({}));
  }
  for (const pack of t.env.packs.slice(0, 6)) {
    const exchanged = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: issueCodeFor(t, { packCode: pack.code }), code_verifier: VERIFIER });
    record(exchanged);
    record(await t.experience('post', '/session/entry', t.env.production_key, exchanged.body.session_token).send(consentFor(exchanged.body.terms)));
  }
  return out;
}

describe('determinism', () => {
  it('two fresh instances with the same fixture and seed answer the same sequence byte for byte', async () => {
    const first = testWorld();
    const second = testWorld();
    expect(second.env).toEqual(first.env);
    expect(await run(second)).toEqual(await run(first));
  });

  it('another seed gives other keys, pack codes and secrets', () => {
    const first = testWorld();
    const other = testWorld({ seed: 'another-seed' });
    expect(other.env.sandbox_key).not.toBe(first.env.sandbox_key);
    expect(other.env.reporting_token).not.toBe(first.env.reporting_token);
    expect(other.env.packs[0]!.code).not.toBe(first.env.packs[0]!.code);
  });

  it('env lists known packs with at least one of each outcome, and pending ones of each settlement', () => {
    const packs = testWorld().env.packs;
    expect([...new Set(packs.map((pack) => pack.outcome))].sort()).toEqual(['failed', 'lost', 'pending', 'won']);
    expect([...new Set(packs.filter((pack) => pack.outcome === 'pending').map((pack) => pack.settles_as))].sort()).toEqual(['failed', 'won']);
  });
});
