/**
 * decisions/013's walk of a production POST /session/entry names the modules the entry enters: one
 * entry runs under V8's precise coverage (call counts, reset just before it), and the emulator's
 * modules with a function called are compared with those the walk names. The walk's order is the
 * reader's; what the test holds is that no module is missing from it and none is named in vain.
 */
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { consentFor, productionSession, testWorld } from './world.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The modules the numbered list after "**The walk.**" names, from the package root. */
function walked(): string[] {
  const text = readFileSync(new URL('../decisions/013-the-request-path.md', import.meta.url), 'utf8');
  const walk = text.slice(text.indexOf('**The walk.**')).split('\n\n').slice(1).find((block) => /^1\. /.test(block)) ?? '';
  return [...new Set([...walk.matchAll(/`([\w/-]+\.ts)`/g)].map(([, path]) => `emulator/${path}`))].sort();
}

it('decisions/013 walks exactly the modules a production entry enters', async () => {
  const t = testWorld();
  const [first, second] = t.env.packs.filter((pack) => pack.outcome === 'won');
  const enter = (token: string) => t.experience('post', '/session/entry', t.env.production_key, token).send(consentFor({ version: 'de-2026-03' }));
  // The first entry loads the experience API (built on its first request); the second is walked.
  expect((await enter(await productionSession(t, { packCode: first!.code }))).status).toBe(200);
  const token = await productionSession(t, { packCode: second!.code });
  const inspector = new Session();
  inspector.connect();
  try {
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    await inspector.post('Profiler.takePreciseCoverage');
    const res = await enter(token);
    expect([res.status, res.body.entry.state]).toEqual([200, 'won']);
    // The call's row is recorded as the response closes and written at the end of a turn after it.
    for (let turn = 0; turn < 3; turn++) await nextTurn();
    const { result } = await inspector.post('Profiler.takePreciseCoverage');
    const entered = result
      .filter((script) => script.functions.some((fn) => fn.ranges[0]!.count > 0))
      .map((script) => relative(ROOT, script.url.startsWith('file:') ? fileURLToPath(script.url) : script.url))
      .filter((path) => path.startsWith('emulator/'));
    expect([...new Set(entered)].sort()).toEqual(walked());
  } finally {
    await inspector.post('Profiler.stopPreciseCoverage');
    inspector.disconnect();
  }
});
