/**
 * The `callback` step: the held callback opened as issued, or a probe of it. A probe proves
 * something only on a transaction that was alive when the agency refused it: an agency that
 * consumes the transaction on the first mismatched callback (as it may) refuses every later probe
 * of it for a missing transaction, whatever its state comparison. So each tampered state runs on a
 * journey of its own (a fresh browser, scan, authorize, the probe as its first callback), and each
 * probe is followed by its control, the same transaction opened as issued (harness/checks/pkce.ts
 * judges both).
 */
import { randomBytes } from 'node:crypto';
import type { BrowserSession } from './browser-session.js';
import type { Step } from '../scenarios/schema.js';
import { type JourneyFacts, type ProbeKind, redactUrl, sha256 } from './facts.js';
import { continueOnAuthorize, openAsIssued, scanPack } from './journey-start.js';
import type { ScenarioRun } from './scenario-run.js';

type CallbackStep = Extract<Step, { do: 'callback' }>;

/**
 * The ways a wrong state can look like the right one to a careless comparison: the last character
 * changed, one dropped, one added, only its first half, its letters' case swapped, or nothing.
 * Each catches a different mistake (a comparison by prefix, by length, without case...).
 */
const TAMPERINGS: Array<[variant: string, tamper: (state: string) => string]> = [
  ['last character changed', (state) => state.slice(0, -1) + (state.at(-1) === 'A' ? 'B' : 'A')],
  ['truncated', (state) => state.slice(0, -1)],
  ['extended', (state) => `${state}A`],
  ['first half only', (state) => state.slice(0, Math.ceil(state.length / 2))],
  ['case swapped', (state) => {
    const swapped = [...state].map((char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())).join('');
    return swapped === state ? `${state}a` : swapped;
  }],
  ['empty', () => ''],
];

/** Tampered journeys side by side: each is a browser with a few page loads, and the scenarios run beside them. */
const TAMPERED_AT_ONCE = 3;

export function tamperings(state: string): Array<[variant: string, tampered: string]> {
  return TAMPERINGS.map(([variant, tamper]) => [variant, tamper(state)]);
}

export async function callbackStep(run: ScenarioRun, step: CallbackStep): Promise<void> {
  const journey = run.journey(step.journey);
  if (step.variant === 'as_issued') return openAsIssued(run, journey, await run.session(step.journey));
  const issued = journey.issuedCallback;
  if (!issued) throw new Error('no callback URL held: run "authorize" with "hold": true first');
  if (step.variant === 'tampered_state') {
    const variants = TAMPERINGS.map(([variant, tamper], index) => () => tamperedOnItsOwn(run, journey, `${step.journey}-tampered-${index + 1}`, variant, tamper));
    // Every variant runs to its end before the step fails: a probe the agency accepted is evidence even if another variant's journey broke off.
    const failed = (await inParallel(variants, TAMPERED_AT_ONCE)).find((result) => result.status === 'rejected');
    if (failed) throw failed.reason;
    return;
  }
  if (step.variant === 'replay') {
    if (!journey.completion) throw new Error('nothing to replay: open the callback "as_issued" first');
    await probe(run, 'replay', 'the same URL again', journey, await run.session(step.journey), issued, false);
    return;
  }
  // Another browser opens the journey's callback before the journey's own browser does: its first callback.
  const fresh = !journey.completion && !run.facts.probes.some((earlier) => earlier.scenario === journey.scenario && earlier.journey === journey.journey);
  const session = await run.fresh(`${step.journey}-${step.variant}`);
  if (step.variant === 'other_browser') return probe(run, 'other_browser', 'a browser without the cookie', journey, session, issued, fresh);
  const unsolicited = new URL(issued);
  unsolicited.searchParams.set('state', randomBytes(32).toString('base64url'));
  await probe(run, 'unsolicited', 'a state nobody issued, in a fresh browser', journey, session, unsolicited.href, fresh);
}

/** One tampered state on a journey of its own: scanned and authorized in a fresh browser, the probe its first callback, then its control. */
async function tamperedOnItsOwn(run: ScenarioRun, parent: JourneyFacts, name: string, variant: string, tamper: (state: string) => string): Promise<void> {
  const journey: JourneyFacts = { scenario: parent.scenario, journey: name, pack: parent.pack, country: parent.country, email: parent.email, consent: [], submissions: [] };
  run.facts.journeys.push(journey);
  const session = await run.fresh(name);
  await scanPack(run, journey, session, false);
  await continueOnAuthorize(run, journey, session, true);
  const tampered = new URL(journey.issuedCallback!);
  tampered.searchParams.set('state', tamper(tampered.searchParams.get('state') ?? ''));
  await probe(run, 'tampered_state', variant, journey, session, tampered.href, true);
  await openAsIssued(run, journey, session);
}

/** Opens a probe's callback URL in `session` and records what it led to; `fresh`: the first callback opened on the journey's transaction. */
async function probe(run: ScenarioRun, kind: ProbeKind, variant: string, journey: JourneyFacts, session: BrowserSession, url: string, fresh: boolean): Promise<void> {
  const code = new URL(url).searchParams.get('service_code') ?? '';
  const at = Date.now();
  const status = await session.goto(url);
  // A single-page app may exchange from the page: what the callback set off is waited for.
  await session.act(async () => undefined);
  const seen = await run.observe(session);
  run.facts.probes.push({
    kind, variant, scenario: run.scenario.id, journey: journey.journey, at, fresh, codeSha: sha256(code), url: redactUrl(url),
    page: { status, url: session.page.url(), shows: seen?.shows ?? [], title: seen?.title ?? '' },
  });
}

/** Runs the tasks, at most `limit` at a time, each to its end. */
async function inParallel(tasks: Array<() => Promise<void>>, limit: number): Promise<Array<PromiseSettledResult<void>>> {
  const results: Array<PromiseSettledResult<void>> = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!().then((value) => ({ status: 'fulfilled' as const, value }), (reason: unknown) => ({ status: 'rejected' as const, reason }));
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}
