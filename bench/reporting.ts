/**
 * Reporting at scale, against an emulator in a child process (so its RSS is its own):
 * - the scan list with 1,000,000 scans seeded: p50/p99 of a 100-row page with `since` (target p99 < 20 ms);
 * - a 1,000,000-code batch: from POST to a downloadable CSV (target < 15 s);
 * - its CSV download: the emulator's peak RSS while streaming it (target < 150 MB).
 * Run alone: `node dist/bench/reporting.js` prints the figures as JSON.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { envValues } from '../emulator/use-cases/control/env-values.js';
import { loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { startServer } from '../emulator/server.js';
import { DEFAULT_FIXTURE_PATH } from './paths.js';
import { endInOneLine } from './one-line.js';

const CHILD_FLAG = '--reporting-child';
const FROZEN_AT = Date.parse('2026-11-21T10:00:00.000Z');
const DAY_MS = 86_400_000;

export interface ReportingFigures {
  scans: number;
  seedSeconds: number;
  scanListP50Ms: number;
  scanListP99Ms: number;
  batchCodes: number;
  batchReadySeconds: number;
  csvMegabytes: number;
  csvSeconds: number;
  rssBeforeDownloadMb: number;
  rssPeakDuringDownloadMb: number;
}

export interface ReportingOptions {
  scans?: number;
  codes?: number;
  queries?: number;
}

type ChildMessage = { type: 'listening'; port: number; token: string } | { type: 'rss'; nowMb: number; peakMb: number };

export async function benchReporting({ scans = 1_000_000, codes = 1_000_000, queries = 1000 }: ReportingOptions = {}): Promise<ReportingFigures> {
  const data = mkdtempSync(join(tmpdir(), 'bench-reporting-'));
  const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, data], { stdio: 'inherit' });
  try {
    const { port, token } = await next(child, 'listening');
    const base = `http://127.0.0.1:${port}`;
    const auth = { Authorization: `Bearer ${token}` };

    const seeded = (await post(`${base}/_emulator/seed`, { scans }, {})) as { milliseconds: number };
    const total = scans + (loadFixture(DEFAULT_FIXTURE_PATH).history?.scans ?? 0);

    const since = new Date(FROZEN_AT - 30 * DAY_MS).toISOString();
    const page = `${base}/api/v1/brands/alpenmilch/scans?since=${since}&limit=100`;
    const latencies: number[] = [];
    for (let i = 0; i < queries + 100; i++) {
      const started = performance.now();
      const res = await fetch(page, { headers: auth });
      const body = (await res.json()) as { data: unknown[] };
      if (body.data.length !== 100) throw new Error(`[bench] the scan page held ${body.data.length} rows, not 100`);
      if (i >= 100) latencies.push(performance.now() - started);
    }
    latencies.sort((a, b) => a - b);

    const batchStarted = performance.now();
    const batch = (await post(`${base}/api/v1/brands/alpenmilch/skus/1/batches`, { quantity: codes, purpose: 'bench' }, auth)) as { download_url: string };
    const download = batch.download_url.replace(/^https?:\/\/[^/]+/, base);
    for (;;) {
      const res = await fetch(download, { method: 'GET', headers: auth });
      await res.body?.cancel();
      if (res.status === 200) break;
      await sleep(100);
    }
    const batchReadySeconds = (performance.now() - batchStarted) / 1000;

    child.send('reset-peak');
    const before = await next(child, 'rss');
    const csvStarted = performance.now();
    const res = await fetch(download, { headers: auth });
    let bytes = 0;
    for await (const chunk of res.body!) bytes += chunk.length;
    const csvSeconds = (performance.now() - csvStarted) / 1000;
    child.send('report-peak');
    const after = await next(child, 'rss');

    return {
      scans: total,
      seedSeconds: round(seeded.milliseconds / 1000),
      scanListP50Ms: round(latencies[Math.floor(latencies.length * 0.5)]!),
      scanListP99Ms: round(latencies[Math.floor(latencies.length * 0.99)]!),
      batchCodes: codes,
      batchReadySeconds: round(batchReadySeconds),
      csvMegabytes: round(bytes / 1e6),
      csvSeconds: round(csvSeconds),
      rssBeforeDownloadMb: round(before.nowMb),
      rssPeakDuringDownloadMb: round(after.peakMb),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((exited) => child.once('exit', exited));
    rmSync(data, { recursive: true, force: true });
  }
}

function next<T extends ChildMessage['type']>(child: ChildProcess, type: T): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: ChildMessage) => {
      if (message.type !== type) return;
      child.off('message', onMessage).off('exit', onExit);
      resolve(message as Extract<ChildMessage, { type: T }>);
    };
    const onExit = (code: number | null) => reject(new Error(`[bench] the emulator child exited (${code}) before sending ${type}`));
    child.on('message', onMessage).once('exit', onExit);
  });
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(600_000) });
  if (!res.ok) throw new Error(`[bench] POST ${url} answered ${res.status}: ${await res.text()}`);
  return res.json();
}

const round = (value: number) => Math.round(value * 100) / 100;
const rssMb = () => process.memoryUsage.rss() / 1048576;

/** The child: an emulator on a frozen clock that samples its own RSS for the parent. */
async function serveChild(data: string): Promise<void> {
  const running = await startServer({
    fixture: loadFixture(DEFAULT_FIXTURE_PATH), data, host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }),
  });
  let peak = rssMb();
  setInterval(() => (peak = Math.max(peak, rssMb())), 10).unref();
  process.on('message', (command) => {
    if (command === 'reset-peak') peak = rssMb();
    process.send!({ type: 'rss', nowMb: rssMb(), peakMb: Math.max(peak, rssMb()) } satisfies ChildMessage);
  });
  process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
  const port = new URL(running.baseUrl).port;
  process.send!({ type: 'listening', port: Number(port), token: envValues(running.world).reporting_token } satisfies ChildMessage);
}

if (process.argv[2] === CHILD_FLAG) {
  await serveChild(process.argv[3]!);
} else if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await endInOneLine(async () => console.log(JSON.stringify(await benchReporting(), null, 2)));
}
