/**
 * What must hold before a run can mean anything: the emulator answers (and has the harness's
 * control endpoints) and has the promotion to verify, the agency's URLs answer, Chromium is there.
 * `harness doctor` runs only this; `harness verify` runs it first. The first problem is a
 * HarnessError: exit 2, one line.
 */
import { findChromium, type InstallPolicy } from './browser/chromium.js';
import type { EmulatorClient, Promotion } from './emulator/client.js';
import { choosePromotion, describePromotion } from './emulator/promotion.js';
import { HarnessError } from './errors.js';

export interface PreflightTarget {
  client: EmulatorClient;
  callback: string;
  preview?: string;
  /** The promotion to verify (id or slug); without it, found from the callback URL (emulator/promotion.ts). */
  promotion?: string;
  install: InstallPolicy;
  /** An already running browser: no need to find one. */
  browserGiven: boolean;
  /** Hears the slow steps as they start (installing a browser), so a long wait is not silent. */
  progress?: (line: string) => void;
}

export interface PreflightResult {
  chromium: string;
  /** The promotion every console and control call of the run acts on. */
  promotion: Promotion;
  lines: string[];
  notes: string[];
}

export async function preflight(target: PreflightTarget, log: (line: string) => void = () => undefined): Promise<PreflightResult> {
  const lines: string[] = [];
  const notes: string[] = [];
  const ok = (line: string) => {
    lines.push(line);
    log(`[harness] ok  ${line}`);
  };

  const health = await target.client.health();
  ok(`emulator at ${target.client.origin} (${health.status})`);
  if (!(await target.client.hasFaults())) {
    throw new HarnessError(`the emulator at ${target.client.origin} has no /_emulator/faults: it is older than this harness; rebuild and restart it (npm run build && npx emulator start)`);
  }
  ok('the emulator lets the harness inject faults and read its observed calls');
  const { promotion, how } = await choosePromotion(target.client, target.promotion, target.callback);
  ok(`promotion ${describePromotion(promotion)}: ${how}`);
  if (!promotion.live) notes.push(`the promotion ${promotion.slug} is not live, so it cannot be approved: production journeys cannot run and their checks will be inconclusive`);

  await reachable(target.callback, 'callback');
  ok(`agency callback ${target.callback}`);
  for (const [name, url] of [['callback', target.callback], ['preview', target.preview]] as const) {
    if (url && new URL(url).protocol === 'http:') notes.push(`the ${name} URL uses plain http on ${new URL(url).hostname}: accepted for local development only; deployed, it must be https`);
  }
  if (target.preview) {
    await reachable(target.preview, 'preview');
    ok(`agency preview ${target.preview}`);
  } else {
    notes.push('no --preview URL: the six sandbox scenarios cannot be run through the agency, so a new approval is not possible');
  }

  const chromium = target.browserGiven ? 'given' : await findChromium({ install: target.install, log: target.progress ?? log });
  ok(`Chromium ${chromium}`);
  return { chromium, promotion, lines, notes };
}

async function reachable(url: string, name: string): Promise<void> {
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
  } catch {
    throw new HarnessError(`the agency's ${name} URL ${url} is not reachable: start the agency, or check --${name}`);
  }
}
