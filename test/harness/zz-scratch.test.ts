import { expect, test } from 'vitest';
import { useChromium } from '../support/chromium.js';
import { harnessWorld } from './world.js';
const browser = useChromium();
test.concurrent.for([['reference', false], ['spa', true]] as const)('%s full', { timeout: 600_000 }, async ([kind, unconfigured], { onTestFinished }) => {
  const world = await harnessWorld({ kind, unconfigured, config: { trace: 'off' } });
  onTestFinished(() => world.close());
  const started = Date.now();
  const report = await world.verify({ browser: browser() });
  console.log(kind, Date.now() - started, JSON.stringify(report.summary), report.run.notes);
  expect(report.checks.filter((c) => c.status === 'fail' || c.status === 'inconclusive').map((c) => `${c.id}: ${c.status} ${c.reason}`)).toEqual([]);
});
