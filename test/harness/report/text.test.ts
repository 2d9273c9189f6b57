import { Writable } from 'node:stream';
import { expect, test } from 'vitest';
import type { CheckReport } from '../../../harness/checks/evaluate.js';
import { textReporter } from '../../../harness/report/text.js';
import type { Report } from '../../../harness/report/types.js';

function captured(): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write(chunk, _encoding, done) { text += String(chunk); done(); } });
  return { stream, text: () => text };
}

const BLOCKED = `the brand could not approve the integration (Not approved yet. Missing: ${'a sandbox session for every scenario, '.repeat(12)}), so no scan reaches the agency`;

test('a reason every skipped scenario shares is printed in full once; the lines after it point back to it (issue 26 item 2)', async () => {
  const stdout = captured();
  const stderr = captured();
  const reporter = textReporter({ outDir: '/tmp/report', stdout: stdout.stream, stderr: stderr.stream, color: false });
  const scenarios = ['production-won', 'production-lost-replay', 'state-tampered'].map((id) => ({ id, title: id, status: 'skipped' as const, durationMs: 0, error: BLOCKED }));
  for (const outcome of scenarios) reporter.onScenarioEnd!(outcome);
  const check = (id: string): CheckReport => ({ id, title: id, group: 'journey', spec: '§4.3', status: 'inconclusive', reason: `its scenarios did not run: ${BLOCKED}`, evidence: [] });
  const report: Report = {
    run: { harness_version: '0', started_at: '', finished_at: '', duration_ms: 0, chromium: '', tells: [], emulator: '', callback: '', preview: null, promotion: { id: 1, slug: 'p', name: 'P', mechanic: 'instant_win' }, only: null, out_dir: '/tmp/report', notes: [], allowances: [], max_seconds: 600 },
    summary: { pass: 0, fail: 0, warn: 0, manual: 0, inconclusive: 2 },
    checks: [check('journey.a'), check('journey.b')],
    scenarios,
  };
  await reporter.onEnd!(report);
  expect(stderr.text().split(BLOCKED).length - 1).toBe(1);
  expect(stderr.text()).toContain('[harness] [3/0] state-tampered skipped 0.0 s: the same as production-won, above');
  expect(stdout.text().split(BLOCKED).length - 1).toBe(1);
  expect(stdout.text()).toContain('its scenarios did not run: the same as journey.a, above');
});
