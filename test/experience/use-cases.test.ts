/**
 * Each experience endpoint is one use case: input in, a result or a refusal out, as data. The
 * route words a refusal (experience/refusals.ts); the use case itself never throws one.
 */
import { describe, expect, it } from 'vitest';
import { findKeyBySecret } from '../../emulator/store/keys.js';
import { readCampaign } from '../../emulator/use-cases/campaign-read.js';
import { createSessionEntry } from '../../emulator/use-cases/session-entry.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { exchangeCode, openSandboxSession } from '../../emulator/use-cases/session-open.js';
import { readSession } from '../../emulator/use-cases/session-read.js';
import { testWorld } from '../world.js';

describe('the experience use cases', () => {
  it('open a sandbox session, read it and enter it, each answering its result', () => {
    const t = testWorld();
    const key = findKeyBySecret(t.world.db, t.env.sandbox_key!)!;
    expect(readCampaign(t.world, key).promotion.id).toBe(key.promotion_id);
    const opened = openSandboxSession(t.world, key, { scenario: 'won' });
    if (isRefused(opened)) throw new Error('refused');
    expect(readSession(t.world, opened.view.session)).toMatchObject({ admission: { kind: 'open' }, entry: undefined });
    expect(createSessionEntry(t.world, opened.view.session, undefined)).toMatchObject({ entry: { state: 'won' } });
  });

  it('answer a refusal as data: an entry the scenario refuses, a code nobody issued', () => {
    const t = testWorld();
    const sandbox = findKeyBySecret(t.world.db, t.env.sandbox_key!)!;
    const opened = openSandboxSession(t.world, sandbox, { scenario: 'ineligible' });
    if (isRefused(opened)) throw new Error('refused');
    expect(createSessionEntry(t.world, opened.view.session, undefined)).toEqual({ refused: { kind: 'ineligible', reason: 'country_restricted' } });
    const production = findKeyBySecret(t.world.db, t.env.production_key!)!;
    expect(exchangeCode(t.world, production, { authorization_code: 'sc_unknown', code_verifier: 'v'.repeat(43) })).toEqual({ refused: 'unknown_code' });
  });
});
