/** Runs a reference agency's built command from outside, as the defects tests do for both agencies. */
import { type ChildProcess, spawn } from 'node:child_process';

export interface AgencyCommand {
  /** The built script, e.g. dist/fixtures/agency-reference/cli.js. */
  cli: string;
  /** The prefix of its lines, e.g. `agency` for `[agency] listening on …`. */
  prefix: string;
  /** Variables removed from the inherited environment unless the test gives them. */
  cleared: readonly string[];
}

/** Spawns the command; `listening` is the URL it prints, `output` what it printed by the time it exited. */
export function spawnAgency(command: AgencyCommand, args: string[], env: NodeJS.ProcessEnv = {}) {
  const clean = { ...process.env, ...env };
  for (const name of command.cleared) if (!env[name]) delete clean[name];
  const child: ChildProcess = spawn(process.execPath, [command.cli, ...args], { env: clean, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const announced = new RegExp(`\\[${command.prefix}\\] listening on (\\S+)`);
  const listening = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const found = announced.exec(stdout);
      if (found) resolve(found[1]!);
    });
    child.on('close', () => reject(new Error(`the agency exited: ${stderr}`)));
  });
  listening.catch(() => undefined);
  const output = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, listening, output };
}
