/**
 * The seed's use case (emulator/use-cases/control/seed.ts) on its own, without a response: it stops
 * between chunks when its caller goes or the world is reset, whichever came first, and adds
 * nothing for a caller that has gone before it starts.
 */
import { expect, test } from 'vitest';
import { announceReset } from '../emulator/events.js';
import { countScans } from '../emulator/store/scans.js';
import { seedHistory } from '../emulator/use-cases/control/seed.js';
import { testWorld } from './world.js';

test('a caller gone before the seed starts: no chunk runs, no scan is added, and the seed says it was cancelled', async () => {
  const { world } = testWorld();
  const before = countScans(world.db);
  const chunks: number[] = [];
  const seeded = await seedHistory(world, { scans: 40_000, webhooks: false }, { cancel: AbortSignal.abort(), chunkDone: (added) => chunks.push(added) });
  expect(seeded).toEqual({ stopped: 'cancelled', added: 0, total: 40_000 });
  expect([chunks, countScans(world.db)]).toEqual([[], before]);
});

test('a reset during a chunk stops the seed after it, said as a reset even when the caller goes next', async () => {
  const { world } = testWorld();
  const cancel = new AbortController();
  const chunks: number[] = [];
  const seeded = await seedHistory(world, { scans: 60_000, webhooks: false }, {
    cancel: cancel.signal,
    chunkDone: (added) => {
      chunks.push(added);
      announceReset(world);
      cancel.abort();
    },
  });
  expect([seeded, chunks]).toEqual([{ stopped: 'reset', added: 20_000, total: 60_000 }, [20_000]]);
});
