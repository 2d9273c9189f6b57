/**
 * The trace a failed check points to: actions, network and console by default, and the DOM at each
 * action only with `trace: "on-failure-with-snapshots"` (config.ts), which costs a verify about a
 * tenth of its CPU.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema, type TraceMode } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';
import { zipEntries } from '../support/zip-entries.js';

const browser = useChromium();
const folder = mkdtempSync(join(tmpdir(), 'harness-trace-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function traceOf(mode: TraceMode): Promise<string> {
  const facts = new RunFacts(ConfigSchema.parse({ trace: mode }), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, folder);
  const session = await BrowserSession.open(browser(), facts, 'traced', 'main', { trace: mode, recorded: [] });
  await session.page.setContent('<form><button type="button" onclick="console.log(\'clicked\')">Enter</button></form>');
  await session.page.click('button');
  const path = join(folder, `${mode}.zip`);
  await session.close(path);
  return zipEntries(path).get('trace.trace')!.toString('utf8');
}

test('by default the trace holds the actions and the console, without the DOM at each action', async () => {
  const trace = await traceOf('on-failure');
  expect(trace).toContain('"method":"click"');
  expect(trace).toContain('clicked');
  expect(trace).not.toContain('"type":"frame-snapshot"');
});

test('with snapshots it holds the DOM at each action too', async () => {
  const trace = await traceOf('on-failure-with-snapshots');
  expect(trace).toContain('"method":"click"');
  expect(trace).toContain('"type":"frame-snapshot"');
});
