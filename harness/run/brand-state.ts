/**
 * The brand's emulator as the run found it. The run opens itself on the promotion, and the
 * emulator keeps the callback URLs, checklist and approval the brand had; the run's end puts them
 * back and clears the faults it armed. A run killed before its end (SIGKILL, a lost machine) is
 * found by the next one: its lease lapses, or its process is gone from this machine, and the next
 * run puts its snapshot back first and says so.
 */
import { hostname } from 'node:os';
import type { EmulatorClient } from '../emulator-client/client.js';
import { HarnessError } from '../errors.js';
import { processGone } from '../process-gone.js';

/** How often the run tells the emulator it is alive: well within the emulator's lease (20 s). */
const RENEW_MS = 5_000;

export interface OpenedRun {
  /** What the run found and undid of an earlier one, for the terminal and the report. */
  recovered: string | undefined;
  /** Puts back what the run found; whether all of it was, and the note that says so. */
  restore(): Promise<{ restored: boolean; note: string }>;
}

export async function openRun(client: EmulatorClient): Promise<OpenedRun> {
  const holder = { pid: process.pid, host: hostname() };
  let start = await client.startRun(holder);
  if ('active' in start) {
    if (!processGone(start.active)) throw new HarnessError(`${start.active.message ?? 'another harness run is under way on this promotion'} Wait for it to end, or stop it.`);
    start = await client.startRun({ ...holder, replaces: start.active.id });
    if ('active' in start) throw new HarnessError(start.active.message ?? 'another harness run is under way on this promotion');
  }
  const { id, recovered } = start;
  if (recovered) await client.clearFaults();
  const renewal = setInterval(() => void client.renewRun(id).catch(() => undefined), RENEW_MS);
  renewal.unref();
  return {
    recovered: recovered ? `an earlier run (pid ${recovered.pid} on ${recovered.host}, started ${recovered.started_at ?? 'earlier'}) ended without restoring the emulator: its callback URLs, checklist and approval are put back as it found them, and its faults cleared` : undefined,
    async restore() {
      clearInterval(renewal);
      const cleared = await client.clearFaults().then(() => true, () => false);
      const restored = await client.endRun(id).catch(() => false);
      if (restored && cleared) return { restored: true, note: "the emulator's callback URLs, checklist and approval are as the run found them, and the faults it armed are cleared" };
      return { restored: false, note: `the run could not ${[restored ? '' : 'put back the callback URLs, checklist and approval it found', cleared ? '' : 'clear the faults it armed'].filter(Boolean).join(' nor ')}: check them in the brand's console (a later run against this emulator puts them back)` };
    },
  };
}
