/** The built `harness` command spawned from outside, the world it runs against, and its output made comparable: what the CLI's process tests share. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { HarnessWorld } from './world.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface Spawn {
  /** Added to the test process's environment. */
  env?: NodeJS.ProcessEnv;
  /** Told of the process once started, to signal it mid-run. */
  onStart?: (child: ChildProcess) => void;
  /**
   * `node` (default): the built CLI, in a folder of its own, so a run without --out writes (or
   * removes) a ./harness-report that is never another file's, running beside it. `npx`: `npx
   * harness` in the package root (where npx finds the command; give --out), in a process group of
   * its own as a terminal starts a command, so that a signal to `-pid` reaches the whole group.
   */
  via?: 'node' | 'npx';
}

/** A run still going this long after it started is ended (its whole group under npx): the longest test gives it 300 s, and a test that times out would leave it running. */
const BOUND_MS = 280_000;

export function harness(args: string[], { env = {}, onStart, via = 'node' }: Spawn = {}): Promise<Run> {
  const cwd = via === 'node' ? mkdtempSync(join(tmpdir(), 'harness-cli-')) : ROOT;
  return new Promise((resolve) => {
    const [command, first] = via === 'node' ? ([process.execPath, CLI] as const) : (['npx', 'harness'] as const);
    const child = spawn(command, [first, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: via === 'npx' });
    onStart?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const bound = setTimeout(() => (via === 'npx' ? process.kill(-child.pid!, 'SIGTERM') : child.kill('SIGTERM')), BOUND_MS);
    child.on('close', (code) => {
      clearTimeout(bound);
      if (via === 'node') rmSync(cwd, { recursive: true, force: true });
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
