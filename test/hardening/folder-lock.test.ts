/**
 * Round three, item 1 (and issue 26 item 5): one emulator per data folder. Two `emulator start`
 * at once on one folder both reported success and both served it; `stop` then ended one while
 * `status` said "not running" of the other; a busy emulator counted as stopped after 1 s; `stop`
 * said "stopped" of a process that lived on. Now the serving process holds the folder's lock
 * (released by the kernel, also on kill -9), a second is refused in one line naming the first, and
 * every liveness check waits while the folder's process is there but silent, and says so.
 * Item 10: a folder on a read-only file system is said to be read-only.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, type TestContext } from 'vitest';
import { type EmulatorProcess, freePort, mountable, runCli, scratchFolder, spawnCli, startEmulator } from './processes.js';

// Each test has its own folder, ports and processes. The stop that waits out SIGTERM's grace (10 s
// of a silent process) runs beside the others, which run one after another: all six at once took
// a loaded machine past an emulator's 15 s to answer.

/** What a test leaves behind, undone in reverse once it has finished. */
function cleanups({ onTestFinished }: TestContext): Array<() => unknown> {
  const steps: Array<() => unknown> = [];
  onTestFinished(async () => {
    for (const step of steps.reverse()) await step();
  });
  return steps;
}

function scratch(cleanup: Array<() => unknown>) {
  const folder = scratchFolder((fixture) => ({ ...fixture, history: { scans: 0 } }));
  cleanup.push(folder.remove);
  return folder;
}

async function started(cleanup: Array<() => unknown>, options: Parameters<typeof startEmulator>[0]): Promise<EmulatorProcess> {
  const emulator = await startEmulator(options);
  cleanup.push(() => emulator.stop('SIGKILL'));
  return emulator;
}

/** Ended and reaped, or a zombie: nothing left that runs. */
function ended(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.startsWith('Z');
}

async function answers(port: number): Promise<number | undefined> {
  try {
    const health = (await (await fetch(`http://127.0.0.1:${port}/_emulator/health`, { signal: AbortSignal.timeout(5000) })).json()) as { pid: number };
    return health.pid;
  } catch {
    return undefined;
  }
}

test.concurrent('stop returns once the process is gone, also when it is silent and needs SIGKILL', { timeout: 60_000 }, async (context) => {
  const cleanup = cleanups(context);
  const { data, fixture } = scratch(cleanup);
  const answering = await started(cleanup, { data, fixture });
  const stopped = await runCli('stop', '--data', data);
  expect(stopped.stdout).toContain(`stopped the emulator at ${answering.baseUrl}`);
  expect(ended(answering.child.pid!)).toBe(true);

  const silent = await started(cleanup, { data, fixture });
  process.kill(silent.child.pid!, 'SIGSTOP');
  const killed = await runCli('stop', '--data', data);
  expect(killed.stdout).toContain(`killed the emulator at ${silent.baseUrl} (pid ${silent.child.pid})`);
  expect(ended(silent.child.pid!)).toBe(true);
  expect((await runCli('status', '--data', data)).code).toBe(1);
});

describe.concurrent('beside that stop, one after another', () => {
  test.sequential('two starts at once on one fresh folder: one serves, the other is refused naming it, or reports it', { timeout: 120_000 }, async (context) => {
    const cleanup = cleanups(context);
    const { data, fixture } = scratch(cleanup);
    const ports = [await freePort(), await freePort()];
    cleanup.push(() => runCli('stop', '--data', data));
    const runs = await Promise.all(ports.map((port) => runCli('start', '--data', data, '--fixture', fixture, '--port', String(port))));
    const serving = (await Promise.all(ports.map(answers))).filter((pid) => pid !== undefined);
    expect(serving, JSON.stringify(runs)).toHaveLength(1);
    const pid = serving[0]!;
    for (const run of runs) {
      expect(run.stdout + run.stderr).not.toMatch(/UNIQUE|SQLITE|remove the folder|at .*\.js:\d+/);
      if (run.code === 0) expect(run.stdout).toContain(`(pid ${pid})`);
      else expect(run.stderr.trim()).toMatch(new RegExp(`^\\[emulator\\] data folder .* is in use by .*pid ${pid}`));
    }
    expect(runs.filter((run) => run.code === 0).length).toBeGreaterThanOrEqual(1);
    const stop = await runCli('stop', '--data', data);
    expect(stop.stdout).toContain(`(pid ${pid})`);
    expect(ended(pid)).toBe(true);
    expect((await runCli('status', '--data', data)).code).toBe(1);
  });

  test.sequential('a second server on a folder in use reports the first, which serves on', { timeout: 60_000 }, async (context) => {
    const cleanup = cleanups(context);
    const { data, fixture } = scratch(cleanup);
    const first = await started(cleanup, { data, fixture });
    const instance = readFileSync(join(data, 'instance.json'), 'utf8');
    const second = await runCli('start', '--foreground', '--data', data, '--fixture', fixture, '--port', String(await freePort()));
    expect(second.code).toBe(0);
    expect(second.stdout.trim().split('\n')).toEqual([expect.stringContaining(`already running at ${first.baseUrl} (pid ${first.child.pid})`)]);
    expect(readFileSync(join(data, 'instance.json'), 'utf8')).toBe(instance);
    expect(await answers(first.port)).toBe(first.child.pid);
  });

  test.sequential('kill -9 frees the folder: the kernel drops the lock, and the next start serves', { timeout: 60_000 }, async (context) => {
    const cleanup = cleanups(context);
    const { data, fixture } = scratch(cleanup);
    const first = await started(cleanup, { data, fixture });
    await first.stop('SIGKILL');
    expect((await runCli('status', '--data', data)).code).toBe(1);
    const next = await started(cleanup, { data, fixture });
    expect(await answers(next.port)).toBe(next.child.pid);
  });

  test.sequential('a silent emulator is "still starting or busy", never "not running": commands wait for it', { timeout: 60_000 }, async (context) => {
    const cleanup = cleanups(context);
    const { data, fixture } = scratch(cleanup);
    const emulator = await started(cleanup, { data, fixture });
    const pid = emulator.child.pid!;
    process.kill(pid, 'SIGSTOP');
    const commands = [spawnCli({}, 'status', '--data', data), spawnCli({}, 'env', '--data', data, '--json')];
    // Resumed once both said they wait for it: on a busy machine a command may take longer to get that far than any fixed pause.
    await Promise.all(commands.map(({ child }) => new Promise<void>((said) => {
      let stderr = '';
      child.stderr!.on('data', (chunk) => (stderr += chunk).includes('still starting or busy') && said());
      child.on('close', () => said());
    })));
    process.kill(pid, 'SIGCONT');
    const [status, env] = await Promise.all(commands.map(({ ran }) => ran));
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`(pid ${pid})`);
    expect(status.stderr).toContain('still starting or busy');
    expect(env.code, env.stderr).toBe(0);
    expect(JSON.parse(env.stdout).base_url).toBe(emulator.baseUrl);
  });


  test.skipIf(!mountable).sequential('a data folder on a read-only file system is said to be read-only (round three, item 10)', async (context) => {
    const cleanup = cleanups(context);
    const { dir } = scratch(cleanup);
    const mountPoint = join(dir, 'read-only');
    mkdirSync(mountPoint);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', mountPoint]);
    cleanup.push(() => rmSync(mountPoint, { recursive: true, force: true }), () => execFileSync('umount', [mountPoint]));
    for (const data of [mountPoint, join(mountPoint, 'data'), join(mountPoint, 'deeper', 'data')]) {
      const run = await runCli('start', '--data', data, '--port', '0');
      expect(run.code, data).toBe(1);
      expect(run.stderr.trim(), data).toBe(`[emulator] cannot use data folder ${data}: read-only file system; pick a writable folder with --data`);
    }
  });
});
