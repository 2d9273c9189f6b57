/** The built `harness` command spawned from outside, and its output made comparable: what the CLI's process tests share. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { HarnessWorld } from './world.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli.js', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Each run in a folder of its own: a run without --out writes (or removes) ./harness-report, which
 * must never be another file's, running beside it.
 */
export function harness(args: string[], env: NodeJS.ProcessEnv = {}, onStart?: (child: ChildProcess) => void): Promise<Run> {
  const cwd = mkdtempSync(join(tmpdir(), 'harness-cli-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    onStart?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => {
      rmSync(cwd, { recursive: true, force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

export const targetArgs = (world: HarnessWorld) => ['--callback', world.target.callback, '--preview', world.target.preview, '--emulator', world.target.emulator, '--config', world.target.config, '--out', world.target.out];

/** Durations, ports and temporary folders vary from run to run. */
export function normalize(text: string, world: HarnessWorld): string {
  return text
    .replaceAll(world.folder, '<tmp>')
    .replaceAll(world.agency.url, '<agency>')
    .replaceAll(world.emulator.baseUrl, '<emulator>')
    .replace(/\d+\.\d s/g, '<t> s');
}

/** The report prints these lines together, in this order. */
export function expectPrinted(run: { stdout: string }, world: HarnessWorld, lines: string[]): void {
  expect(normalize(run.stdout, world)).toContain(lines.join('\n'));
}
