/** Whether a process the harness marked as its own (a run's pid and host) is gone: only known on the machine it ran on. */
import { hostname } from 'node:os';

export function processGone(owner: { pid: number; host: string }): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
