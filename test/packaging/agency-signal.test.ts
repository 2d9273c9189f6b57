/**
 * `npm run agency`, which the reference agency's README gives, stops when npm is stopped (issue 40
 * item 6): npm passes SIGTERM to the script's process, which must be the agency itself, not a shell
 * that would end and leave it serving. Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { ROOT } from './support.js';

test('SIGTERM to `npm run agency` reaches the agency, which stops serving', { timeout: 60_000 }, async () => {
  const env = { ...process.env, PROMO_SANDBOX_KEY: 'pk_sandbox_test', PROMO_PRODUCTION_KEY: 'pk_live_test' };
  const npm = spawn('npm', ['run', 'agency', '--', '--port', '0', '--emulator', 'http://127.0.0.1:9'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((resolve) => npm.once('exit', resolve));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    npm.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const listening = /\[agency\] listening on (http:\/\/\S+)/.exec(output);
      if (listening) resolve(listening[1]!);
    });
    npm.once('exit', () => reject(new Error(`npm ended before the agency listened:\n${output}`)));
  });
  expect((await fetch(`${url}/styles.css`)).status).toBe(200);

  npm.kill('SIGTERM');
  // npm ends once the process it ran has ended: then nothing may answer at the agency's address.
  await exited;
  await expect(fetch(`${url}/styles.css`)).rejects.toThrow();
});
