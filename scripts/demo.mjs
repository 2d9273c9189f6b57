// `npm run demo`: start the emulator and the reference agency, run `harness verify` against the
// agency, print the checklist, stop both. Works on a fresh machine after `npm ci` (which builds
// dist/); the harness finds Chromium, or tries to install one (harness/README.md says where it looks).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const root = new URL('..', import.meta.url).pathname;
const dist = (path) => join(root, 'dist', path);
if (!existsSync(dist('harness/cli.js'))) {
  console.error('[demo] dist/ is missing: run `npm run build` (or `npm ci`, which builds), then `npm run demo` again');
  process.exit(2);
}

const folder = mkdtempSync(join(tmpdir(), 'promo-demo-'));
const data = join(folder, 'emulator');
const agencyLog = join(folder, 'agency.log');
const emulator = (...args) => execFileSync(process.execPath, [dist('emulator/cli.js'), ...args, '--data', data], { encoding: 'utf8' });

let agency;
let status = 2;
try {
  console.log('[demo] starting the emulator');
  emulator('start', '--port', '0');
  const { base_url: emulatorUrl } = JSON.parse(emulator('env', '--json'));
  console.log(`[demo] emulator at ${emulatorUrl}`);

  writeFileSync(agencyLog, '');
  agency = spawn(process.execPath, [dist('fixtures/agency-reference/cli.js'), '--port', '0', '--emulator', emulatorUrl], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  agency.stdout.on('data', (chunk) => {
    output += chunk;
    writeFileSync(agencyLog, chunk, { flag: 'a' });
  });
  agency.stderr.on('data', (chunk) => (output += chunk));
  const agencyUrl = await listening(() => output, agency);
  console.log(`[demo] reference agency at ${agencyUrl} (its log: ${agencyLog})`);

  const config = join(folder, 'harness.config.json');
  writeFileSync(config, JSON.stringify({ entry_endpoint: { path: '/entry' }, agency_log: agencyLog }, null, 2));
  console.log('[demo] running `harness verify` against it\n');
  const args = [
    dist('harness/cli.js'), 'verify', '--callback', `${agencyUrl}/callback`, '--preview', `${agencyUrl}/preview`, '--emulator', emulatorUrl,
    '--config', config, '--format', 'json,junit,html', '--out', join(root, 'harness-report'), '--install-browser',
  ];
  status = await new Promise((resolve) => spawn(process.execPath, args, { stdio: 'inherit' }).on('close', (code) => resolve(code ?? 2)));
  console.log(`\n[demo] harness verify exited ${status}; the brand's report is harness-report/report.html`);
} catch (error) {
  console.error(`[demo] ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (agency && agency.exitCode === null) agency.kill('SIGTERM');
  try {
    process.stdout.write(emulator('stop'));
  } catch {
    // not started
  }
  rmSync(folder, { recursive: true, force: true });
}
process.exit(status);

/** The agency prints "[agency] listening on URL" once it listens. */
async function listening(output, child) {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const match = /\[agency\] listening on (http:\/\/\S+)/.exec(output());
    if (match) return match[1];
    if (child.exitCode !== null) throw new Error(`the reference agency stopped: ${output().trim().split('\n').at(-1)}`);
    await sleep(100);
  }
  throw new Error('the reference agency did not start within 15 s');
}
