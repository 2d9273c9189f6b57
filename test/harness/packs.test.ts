/**
 * Which pack a journey gets: the first outcome of its `pack` preferences that the promotion's draw
 * gives. A code unlock (decision 008) draws no `lost` pack, so `["lost", "won"]` takes a winning
 * one there and a losing one in an instant win; a scenario asking only for `lost` cannot start
 * against the code unlock, and the checks only it feeds are inconclusive with that reason, not failed.
 */
import type { Browser } from 'playwright-core';
import { expect, test } from 'vitest';
import { evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { ConfigSchema } from '../../harness/config.js';
import type { EmulatorClient, Env, Pack, PackKind } from '../../harness/emulator-client/client.js';
import { NoPackKind, PackPool } from '../../harness/emulator-client/packs.js';
import { Capturer } from '../../harness/run/capture.js';
import { RunFacts } from '../../harness/run/facts.js';
import { runScenarios } from '../../harness/run/runner.js';
import { ScenarioSchema } from '../../harness/scenarios/schema.js';

/** What GET /_emulator/packs answers for a promotion of these outcomes, two packs of each. */
function poolOf(outcomes: PackKind[]): PackPool {
  const data: Pack[] = outcomes.flatMap((kind, index) => [1, 2].map((serial) => ({ code: `P-${index}-${serial}`, ...kind })));
  const client = { packs: async () => ({ data, outcomes }) } as unknown as EmulatorClient;
  return new PackPool(client, {} as Env, 'nordkakao-cafe-codes (code_unlock)');
}

const CODE_UNLOCK: PackKind[] = [{ outcome: 'won' }, { outcome: 'pending', settles_as: 'won' }];
const INSTANT_WIN: PackKind[] = [{ outcome: 'won' }, { outcome: 'lost' }, { outcome: 'pending', settles_as: 'won' }, { outcome: 'pending', settles_as: 'failed' }];

test('["lost", "won"]: a lost pack where the draw gives one, else a won one', async () => {
  const instantWin = poolOf(INSTANT_WIN);
  await instantWin.load();
  expect((await instantWin.take(['lost', 'won'])).outcome).toBe('lost');
  const codeUnlock = poolOf(CODE_UNLOCK);
  await codeUnlock.load();
  expect((await codeUnlock.take(['lost', 'won'])).outcome).toBe('won');
  expect((await codeUnlock.take(['pending'])).settles_as).toBe('won');
});

test('an outcome the promotion never draws is NoPackKind, naming the promotion and what it draws, without minting packs', async () => {
  const codeUnlock = poolOf(CODE_UNLOCK);
  await codeUnlock.load();
  await expect(codeUnlock.take(['lost'])).rejects.toThrow(NoPackKind);
  await expect(codeUnlock.take(['lost', 'pending_failed'])).rejects.toThrow('the promotion nordkakao-cafe-codes (code_unlock) draws no "lost" or "pending_failed" pack (its draw gives won, pending)');
});

test('a scenario asking only for lost cannot start against the code unlock: skipped with the reason, and the checks it alone feeds are inconclusive, not failed', async () => {
  const scenario = ScenarioSchema.parse({
    id: 'mine-lost', title: 'needs a lost pack', world: { journeys: { main: { pack: 'lost' } } }, steps: [{ do: 'scan' }], feeds: ['state.replay_rejected'],
  });
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  const packs = poolOf(CODE_UNLOCK);
  await packs.load();
  const env = {
    browser: {} as Browser, facts, client: {} as EmulatorClient, config: ConfigSchema.parse({}), packs,
    capturer: new Capturer(facts, { axe: false, screenshots: false }), baseline: { calls: 0, session: 0 },
  };
  const ended: string[] = [];
  await runScenarios([scenario], env, 1, { onScenarioEnd: (outcome) => ended.push(`${outcome.id} ${outcome.status}`) });
  expect(ended).toEqual(['mine-lost skipped']);
  expect(facts.journeys).toEqual([]);
  const [check] = evaluateChecks(facts, CHECKS.filter((candidate) => candidate.id === 'state.replay_rejected'), [scenario]);
  expect(check).toMatchObject({ status: 'inconclusive', reason: 'its scenarios did not run: the promotion nordkakao-cafe-codes (code_unlock) draws no "lost" pack (its draw gives won, pending)' });
});

test('scenario files: pack takes one outcome or a list in order of preference (default ["lost", "won"]), and expect takes the state "drawn"', () => {
  const base = { id: 'mine', title: 'mine', steps: [{ do: 'scan' }, { do: 'expect', state: 'drawn' }], feeds: ['state.format'] };
  expect(ScenarioSchema.parse({ ...base, world: { journeys: { main: { pack: 'won' } } } }).world.journeys.main!.pack).toEqual(['won']);
  expect(ScenarioSchema.parse({ ...base, world: { journeys: { main: { pack: ['pending', 'won'] } } } }).world.journeys.main!.pack).toEqual(['pending', 'won']);
  expect(ScenarioSchema.parse({ ...base, world: { journeys: { main: {} } } }).world.journeys.main!.pack).toEqual(['lost', 'won']);
  expect(ScenarioSchema.safeParse({ ...base, world: { journeys: { main: { pack: ['lost', 'jackpot'] } } } }).success).toBe(false);
  expect(ScenarioSchema.safeParse({ ...base, world: { journeys: { main: { pack: [] } } } }).success).toBe(false);
});
