/**
 * Which browsers run their timers on Playwright's clock (harness/run/scenario-run.ts): only a
 * journey whose polling a step runs ahead in virtual time. A schedule's watch keeps the browser's
 * own timers: on Playwright's clock a timer set when an answer arrives is timed from the clock's
 * last tick, so it fires early by the answer's latency, and an agency that times its polls on its
 * server then answers "not yet" and is polled a second late.
 */
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { type RunEnv, ScenarioRun } from '../../harness/run/scenario-run.js';
import { ScenarioSchema } from '../../harness/scenarios/schema.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Wynik</title><p>Oczekuje</p>'));
beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Whether the page of the scenario's main journey has the browser's own setTimeout. */
async function nativeTimers(mode: 'schedule' | 'stops'): Promise<boolean> {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = ConfigSchema.parse({ trace: 'off' });
  const facts = new RunFacts(config, { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, '/tmp');
  const scenario = ScenarioSchema.parse({
    id: `watch-${mode}`, title: 'A pending prize is polled', spec: '§8', world: { journeys: { main: { pack: 'pending', country: 'PL' } } },
    steps: [{ do: 'scan' }, { do: 'watch_polling', mode, seconds: 20 }], feeds: ['behaviour.polling_intervals'],
  });
  const run = new ScenarioRun(scenario, { browser: browser(), facts, config } as unknown as RunEnv);
  try {
    const { page } = await run.session('main');
    await page.goto(origin);
    return await page.evaluate(() => String(setTimeout).includes('[native code]'));
  } finally {
    await run.close();
  }
}

test("a schedule's watch keeps the browser's own timers; a watch of polling that stops runs them on Playwright's clock", async () => {
  expect(await nativeTimers('schedule')).toBe(true);
  expect(await nativeTimers('stops')).toBe(false);
}, 60_000);
