/**
 * The README's first command: after the install (`npm ci`, which the suite's own setup did), `npm run
 * demo` as written starts the emulator and the reference agency, verifies the agency, prints the
 * checklist and the verdict, writes the brand's report to harness-report/, and stops both.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('npm run demo: exit 0, every check passed, the report written, the emulator stopped', { timeout: 600_000 }, async () => {
  expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('npm ci && npm run demo');
  const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn('npm', ['run', 'demo'], { cwd: ROOT, env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
  });
  expect(code, `${stdout}\n${stderr}`.slice(-4000)).toBe(0);
  expect(stdout).toContain('exit 0: every check passed on positive evidence');
  expect(stdout).toContain('[demo] harness verify exited 0');
  expect(stdout).toContain('[emulator] stopped the emulator');
  expect(`${stdout}${stderr}`).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n/);
  const report = JSON.parse(readFileSync(join(ROOT, 'harness-report', 'report.json'), 'utf8')) as { checks: Array<{ status: string }> };
  expect(report.checks.filter((check) => !['pass', 'warn', 'manual'].includes(check.status))).toEqual([]);
  expect(existsSync(join(ROOT, 'harness-report', 'report.html'))).toBe(true);
});
