/**
 * For `npm run bench`: the most memory the harness's process tree (this process and its Chromium)
 * holds against pages built to exhaust it: one that floods its console, fills 512 MB of typed
 * arrays and starts six workers of 440 MB each, then one 100,000 px tall canvas of noise that is
 * screenshotted. The harness's bounds (browser/chromium.ts, run/browser-session.ts, run/capture.ts)
 * end the first and cut the second; the peak is read from /proc every 100 ms.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launchChromium } from '../harness/browser/chromium.js';
import { chromiumProcesses } from '../harness/browser/processes.js';
import { BrowserSession } from '../harness/run/browser-session.js';
import { ConfigSchema } from '../harness/config.js';
import { Capturer } from '../harness/run/capture.js';
import { RunFacts } from '../harness/run/facts.js';

/** The bound the peak must stay under: the harness's own share, Chromium's browser and helper processes, and one renderer at its limit with the guard's reaction time. */
export const HOSTILE_PEAK_BOUND_MB = 3072;

export interface HostileMeasurement {
  peakMb: number;
  nodePeakMb: number;
  chromiumPeakMb: number;
  /** What the run's notes said of the pages: each bound that was hit. */
  notes: string[];
}

const WORKER = 'const kept = []; for (let i = 0; i < 55; i += 1) kept.push(new Uint8Array(8 * 1024 * 1024).fill(7)); setInterval(() => kept.length, 1000);';
const HOARD = `<!doctype html><title>Gewinn</title><script>
  const kept = []; for (let i = 0; i < 64; i += 1) kept.push(new Uint8Array(8 * 1024 * 1024).fill(1));
  const url = URL.createObjectURL(new Blob([${JSON.stringify(WORKER)}], { type: 'text/javascript' }));
  for (let i = 0; i < 6; i += 1) new Worker(url);
  const flood = () => { for (let i = 0; i < 1000; i += 1) console.log('pending '.repeat(125)); setTimeout(flood, 0); };
  flood();
</script>`;
const CANVAS = '<!doctype html><meta name="viewport" content="width=device-width"><title>Los</title><canvas id="c" width="400" height="100000"></canvas><script>const c=document.getElementById("c").getContext("2d");const d=c.createImageData(400,2000);for(let i=0;i<d.data.length;i++)d.data[i]=Math.random()*256;for(let y=0;y<100000;y+=2000)c.putImageData(d,0,y);</script>';

export async function measureHostilePage(): Promise<HostileMeasurement> {
  const server = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/canvas' ? CANVAS : HOARD));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const out = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
  const peak = { total: 0, node: 0, chromium: 0 };
  const sample = () => {
    const node = process.memoryUsage.rss();
    const chromium = [...chromiumProcesses().values()].reduce((sum, proc) => sum + proc.rssBytes, 0);
    Object.assign(peak, { total: Math.max(peak.total, node + chromium), node: Math.max(peak.node, node), chromium: Math.max(peak.chromium, chromium) });
  };
  const timer = setInterval(sample, 100);
  const browser = await launchChromium({ install: 'never' });
  const facts = new RunFacts(ConfigSchema.parse({ trace: 'off' }), { agency: origin, emulator: 'http://127.0.0.1:1', callback: `${origin}/callback` }, out);
  try {
    const hoard = await BrowserSession.open(browser, facts, 'hoard', 'main', { trace: 'off', recorded: [] });
    await hoard.goto(`${origin}/`).catch(() => undefined);
    for (let waited = 0; waited < 30_000 && !hoard.page.isClosed() && !facts.notes.some((note) => note.includes('crashed or was ended')); waited += 250) await new Promise((resolve) => setTimeout(resolve, 250));
    await hoard.close();
    const canvas = await BrowserSession.open(browser, facts, 'canvas', 'main', { trace: 'off', recorded: [] });
    await canvas.goto(`${origin}/canvas`);
    await new Capturer(facts, { axe: false, screenshots: true }).capture(canvas, { scenario: 'canvas', journey: 'main', environment: 'production', at: 0, url: `${origin}/canvas`, status: 200, shows: ['state:lost'], links: [], title: 'Los', text: '' });
    await canvas.close();
  } finally {
    sample();
    clearInterval(timer);
    await browser.close();
    server.close();
    rmSync(out, { recursive: true, force: true });
  }
  const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
  return { peakMb: mb(peak.total), nodePeakMb: mb(peak.node), chromiumPeakMb: mb(peak.chromium), notes: facts.notes };
}
