/**
 * Control-plane reads at 5,000,000 pack codes (issue 27, item 4: `/_emulator/env` took 21 to 30 s
 * after four 1M-code batches, and froze every other call meanwhile). The built `emulator start
 * --foreground` on a fresh data folder, five 1,000,000-code batches through the reporting API, then
 * each read of the control plane one request at a time: p50, p99 and max (target p99 < 50 ms).
 * Run alone: `npm run build && node dist/bench/control-reads.js`.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { CLI_PATH } from './paths.js';
import { freePort } from './reporting-reads.js';
import { endInOneLine } from './one-line.js';

const BATCHES = 5;
const CODES_PER_BATCH = 1_000_000;

export interface ControlRead {
  read: string;
  codes: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export async function benchControlReads({ samples = 50 } = {}): Promise<ControlRead[]> {
  const data = mkdtempSync(join(tmpdir(), 'bench-control-reads-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CLI_PATH, 'start', '--foreground', '--port', String(port), '--data', data], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await until(async () => (await fetch(`${base}/_emulator/health`)).ok);
    const env = (await call(`${base}/_emulator/env`)) as { reporting_token: string; brand_slug: string };
    const auth = { authorization: `Bearer ${env.reporting_token}` };
    for (let batch = 0; batch < BATCHES; batch++) {
      const made = (await call(`${base}/api/v1/brands/${env.brand_slug}/skus/1/batches`, auth, { quantity: CODES_PER_BATCH, purpose: 'bench' })) as { download_url: string };
      const download = made.download_url.replace(/^https?:\/\/[^/]+/, base);
      await until(async () => {
        const res = await fetch(download, { headers: auth });
        await res.body?.cancel();
        return res.status === 200;
      });
    }
    const codes = BATCHES * CODES_PER_BATCH;
    const reads = ['/health', '/env', '/env?promotion=2', '/promotions', '/clock', '/packs', '/interactions', '/console', '/console/keys', '/console/checklist', '/webhooks', '/sinks', '/deliveries'];
    const figures: ControlRead[] = [];
    for (const read of reads) {
      const latencies: number[] = [];
      for (let i = 0; i < samples + 5; i++) {
        const started = performance.now();
        await call(`${base}/_emulator${read}`);
        if (i >= 5) latencies.push(performance.now() - started);
      }
      latencies.sort((a, b) => a - b);
      const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))]!;
      figures.push({ read: `GET /_emulator${read}`, codes, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: latencies.at(-1)! });
    }
    return figures;
  } finally {
    child.kill('SIGTERM');
    await new Promise((exited) => (child.exitCode === null ? child.once('exit', exited) : exited(undefined)));
    rmSync(data, { recursive: true, force: true });
  }
}

async function call(url: string, headers: Record<string, string> = {}, body?: unknown): Promise<unknown> {
  const res = await fetch(url, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`[bench] ${url} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
  return res.json();
}

/** Polls until `check` holds; a failed connection counts as not yet. */
async function until(check: () => Promise<boolean>): Promise<void> {
  const deadline = performance.now() + 600_000;
  while (performance.now() < deadline) {
    if (await check().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error('[bench] control reads: the emulator did not get there within 10 min');
}


if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await endInOneLine(async () => console.log(JSON.stringify(await benchControlReads(), null, 2)));
}
