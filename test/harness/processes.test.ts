/**
 * Chromium's processes below the harness (harness/browser/processes.ts), as the memory guard and
 * the bench's meter read them: a reading lists /proc and reads only the processes it has not seen
 * and those below the root, so what it remembers must not hide a process: one started after an
 * earlier reading is found at any depth, one that ended is gone, another program is left out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, expect, test } from 'vitest';
import { chromiumProcesses } from '../../harness/browser/processes.js';

/** A process whose command line names a Chromium renderer (it is Node, idle), which starts `children` more like it. */
const LIKE_RENDERER = `
  const { spawn } = require('node:child_process');
  for (let i = 0; i < Number(process.argv[1]); i++) spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', '--', '--chromium-like', '--type=' + 'renderer'], { stdio: 'ignore' });
  setInterval(() => {}, 1000);`;
const started: ChildProcess[] = [];
/** Every process the test saw below it, ended after each test (a child's children outlive it). */
const below = new Set<number>();
const start = async (args: string[]) => {
  const child = spawn(process.execPath, ['-e', LIKE_RENDERER, '--', ...args], { stdio: 'ignore', detached: false });
  started.push(child);
  await once(child, 'spawn');
  return child.pid!;
};
/** Readings until `ready` holds (a child's own children start a moment after it, and show their parent's command line until they run their own). */
const readUntil = async (ready: (found: Map<number, { type: string }>) => boolean) => {
  for (let tries = 0; tries < 100; tries++) {
    const found = chromiumProcesses();
    for (const pid of found.keys()) below.add(pid);
    if (ready(found)) return found;
    await new Promise((done) => setTimeout(done, 50));
  }
  return chromiumProcesses();
};

afterEach(() => {
  for (const child of started.splice(0)) child.kill('SIGKILL');
  for (const pid of below) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It ended already.
    }
  }
  below.clear();
});

test('a process started after a reading is found below the root at any depth, with its type; another program and an ended process are not', async () => {
  chromiumProcesses();
  const parent = await start(['2', '--chromium-like', '--type=zygote']);
  const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  started.push(other);
  const renderers = (now: Map<number, { type: string }>) => [...now.values()].filter((proc) => proc.type === 'renderer');
  const found = await readUntil((now) => now.has(parent) && renderers(now).length === 2);
  expect(found.get(parent)?.type).toBe('zygote');
  expect(renderers(found)).toHaveLength(2);
  expect(found.has(other.pid!)).toBe(false);
  const child = started[0]!;
  child.kill('SIGKILL');
  await once(child, 'exit');
  const after = await readUntil((now) => !now.has(parent));
  expect(after.has(parent)).toBe(false);
});
