/**
 * What must hold before a run can mean anything: the emulator answers (and has the harness's
 * control endpoints) and has the promotion to verify, the agency's URLs answer HTTP and have a page
 * (judging how is the checks' work), Chromium is there.
 * `harness doctor` runs only this; `harness verify` runs it first. The first problem is a
 * HarnessError: exit 2, one line.
 */
import { LOOPBACK_HOSTS } from '../emulator/wire-contract.js';
import { findChromium, type InstallPolicy } from './browser/chromium.js';
import type { EmulatorClient, Promotion } from './emulator-client/client.js';
import { choosePromotion, describePromotion } from './emulator-client/promotion.js';
import { HarnessError } from './errors.js';

export interface PreflightTarget {
  client: EmulatorClient;
  /** Without it (`doctor` before the agency is known) everything else is checked. */
  callback: string | undefined;
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

  if (target.callback) {
    // A URL answering 404 is refused only when nothing else of the agency answers: a callback without a page while the
    // preview answers is an agency whose landing page is missing, which journey.landing_page fails.
    const callbackAnswer = await answersLikeAgency(target.callback, 'callback', target.client.origin);
    const previewAnswer = target.preview ? await answersLikeAgency(target.preview, 'preview', target.client.origin) : undefined;
    if (callbackAnswer.missing && (!previewAnswer || previewAnswer.missing)) throw refusal(target.callback, 'callback', NOT_FOUND);
    for (const [answer, url, name, other] of [[callbackAnswer, target.callback, 'callback', 'preview'], [previewAnswer, target.preview, 'preview', 'callback']] as const) {
      if (answer?.missing) notes.push(`the ${name} URL ${url} ${NOT_FOUND} while the ${other} URL answers: the journeys judge it`);
      else if (answer?.note) notes.push(answer.note);
    }
    ok(`agency callback ${target.callback}`);
  }
  for (const [name, url] of [['callback', target.callback], ['preview', target.preview]] as const) {
    if (url && new URL(url).protocol === 'http:') notes.push(`the ${name} URL uses plain http on ${new URL(url).hostname}: accepted for local development only; deployed, it must be https`);
  }
  if (target.preview) ok(`agency preview ${target.preview}`);
  else notes.push('no --preview URL: the six sandbox scenarios cannot be run through the agency, so a new approval is not possible');

  const chromium = target.browserGiven ? 'given' : await findChromium({ install: target.install, log: target.progress ?? log });
  ok(`Chromium ${chromium}`);
  return { chromium, promotion, lines, notes };
}

/**
 * Refuses, before the run registers anything, only a URL that cannot be the agency: nothing
 * listening, no HTTP there, the emulator itself. A 404 (no page there) comes back as `missing`, which
 * the caller refuses when nothing else of the agency answers either. Anything else is an agency
 * answering, however badly: a callback opened without its parameters may well answer 400 in plain
 * text, or fail, and still run every journey; the checks judge it (journey.landing_page). What it
 * answered is then a `note`, so the brand reads it beside the checks.
 */
async function answersLikeAgency(url: string, name: 'callback' | 'preview', emulator: string): Promise<{ note?: string; missing?: true }> {
  const refuse = (why: string) => refusal(url, name, why);
  if (sameServer(new URL(url), new URL(emulator))) throw refuse(`is the emulator itself (${emulator}), not the agency`);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const code = cause?.code;
    if (code && NOT_HTTP.has(code)) throw refuse(`does not answer HTTP (${code})`);
    // HTTP that a strict parser refuses (a control character in a header) is still an agency a browser reads.
    if (code?.startsWith('HPE_')) return { note: `the ${name} URL ${url} answered HTTP that a strict parser refuses (${code}): the journeys judge it` };
    // Headers past Node's limit (16 KB) are an agency answering: a browser reads far larger ones.
    if (code === 'UND_ERR_HEADERS_OVERFLOW') return { note: `the ${name} URL ${url} answered with headers larger than the harness's own HTTP client reads (${code}): the journeys, in the browser, judge it` };
    const why = code ?? cause?.message ?? (error as Error).message;
    throw new HarnessError(`the agency's ${name} URL ${url} is not reachable${why ? ` (${why})` : ''}: start the agency, or check --${name}`);
  }
  if (response.status === 404) return { missing: true };
  if (response.status >= 300 && response.status < 400) return {};
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() || 'no content type';
  if (response.status < 300 && type === 'text/html') return {};
  return { note: `the ${name} URL ${url}, opened without parameters, answered ${response.status} with ${type}: the journeys judge it` };
}

const NOT_FOUND = 'answers 404 (no page there)';

function refusal(url: string, name: 'callback' | 'preview', why: string): HarnessError {
  return new HarnessError(`the agency's ${name} URL ${url} ${why}: check --${name}`);
}

/** What the parser says when the answer does not even begin as HTTP. */
const NOT_HTTP = new Set(['HPE_INVALID_CONSTANT', 'HPE_INVALID_VERSION', 'HPE_INVALID_STATUS']);

/** The same host and port, counting every loopback name as one. */
function sameServer(a: URL, b: URL): boolean {
  const host = (url: URL) => (LOOPBACK_HOSTS.has(url.hostname) ? 'loopback' : url.hostname);
  const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80');
  return host(a) === host(b) && port(a) === port(b);
}
