// `npm run demo`: until the harness and the reference agency land, start the emulator, show its
// connection values and one sandbox call, then stop it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = new URL('../dist/emulator/cli.js', import.meta.url).pathname;
const data = mkdtempSync(join(tmpdir(), 'promo-demo-'));
const emulator = (...args) => execFileSync(process.execPath, [cli, ...args, '--data', data], { encoding: 'utf8' });

console.log('[demo] the harness and reference agency are not built yet; showing the emulator alone.\n');
try {
  process.stdout.write(emulator('start', '--port', '0'));
  const env = JSON.parse(emulator('env', '--json'));
  const campaign = await fetch(`${env.base_url}/api/experience/v1/campaign`, { headers: { Authorization: `Bearer ${env.sandbox_key}` } });
  console.log(`\n[demo] GET /api/experience/v1/campaign → ${campaign.status}`);
  console.log(JSON.stringify(await campaign.json(), null, 2));
} finally {
  try {
    process.stdout.write(emulator('stop'));
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
}
