/**
 * A sandbox session's eligibility is what its entry then meets, for every scenario: the session
 * read, the entry's answer and the read after it say the same, and a refused entry is refused with
 * the error its eligibility's reason stands for. (The production rule's twin is admission.property.test.ts.)
 * @see spec §2.3 eligibility, §4.1 rule 4, §4.2
 */
import { expect, it } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../emulator/use-cases/sandbox.js';
import { testWorld } from '../world.js';

const ELIGIBLE = { eligible: true, reason: null, country: null };
const EXPECTED = {
  won: { eligibility: ELIGIBLE, entry: 200 },
  lost: { eligibility: ELIGIBLE, entry: 200 },
  pending: { eligibility: ELIGIBLE, entry: 200 },
  failed: { eligibility: ELIGIBLE, entry: 200 },
  ineligible: { eligibility: { eligible: false, reason: 'country_restricted', country: null }, entry: 'ineligible' },
  already_entered: { eligibility: { eligible: false, reason: 'already_entered', country: null }, entry: 'already_entered' },
} as const;

it('every sandbox scenario reads the eligibility its entry answers with, before the entry and after it', async () => {
  const t = testWorld();
  for (const scenario of SANDBOX_SCENARIOS) {
    const opened = await t.experience('post', '/sessions').send({ scenario });
    const token = opened.body.session_token as string;
    const read = async () => (await t.experience('get', '/session', t.env.sandbox_key, token)).body.eligibility as unknown;
    const before = await read();
    expect({ opened: opened.body.eligibility, read: before }, scenario).toEqual({ opened: EXPECTED[scenario].eligibility, read: EXPECTED[scenario].eligibility });

    const entry = await t.experience('post', '/session/entry', t.env.sandbox_key, token).send({});
    const answer = entry.status === 200 ? { status: 200, eligibility: entry.body.eligibility as unknown } : { status: entry.body.error as string, eligibility: before };
    expect(answer, scenario).toEqual({ status: EXPECTED[scenario].entry, eligibility: before });
    expect(await read(), scenario).toEqual(before);
  }
});
