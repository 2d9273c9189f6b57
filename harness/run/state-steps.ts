/**
 * The steps about result states. `open_previews` opens the preview's six sandbox scenarios, each
 * a state the harness knows, and gives each page's features to the run's StateBook, which learns
 * what tells them apart (harness/pages/states.ts). `expect` then waits until a page shows a state:
 * by its marker (which wins when it matches), by the signature learned from the preview, or, for
 * the states the preview cannot show, by inference: the service answered that state, and the
 * page is distinct from every learned state and from the page the journey showed before its entry.
 */
import type { Fingerprint } from '../browser/in-page.js';
import type { BrowserSession } from './browser-session.js';
import { INFERRED_STATES, STATE_ANSWERS, type ResultState, type ServiceAnswer, type Shown, type StateName, showsState, statesShown } from '../journey-states.js';
import type { AgencyPage, PageReading } from '../pages/agency.js';
import type { PageSeen } from '../browser/seen.js';
import { PreviewPage } from '../pages/preview.js';
import { untilSettled } from '../pages/settle.js';
import { samePage, statesCarried } from '../pages/states.js';
import type { Step } from '../scenarios/schema.js';
import { type Expectation, type JourneyFacts, redactUrl } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';
import { reachConsent } from './consent-steps.js';
import { answerOf, answerSinceEntry, answersSinceEntry, lastEntryAnswer, sandboxEntry, waitForCall } from './step-support.js';

/** How long a preview scenario may take to make its calls and show its state (a slow single-page app on a loaded machine). */
export const PREVIEW_WAIT_MS = 15_000;
/**
 * How long a page may still be drawing: a wait goes on this long once the page settled on something
 * other than what it waits for, and a state is inferred only from a page that read the same this
 * long (the single-page agency draws 600 ms after its data arrived, on an old phone; two readings a
 * quarter of a second apart took its form, still sending the entry, for the result).
 */
export const SETTLED_GRACE_MS = 1500;

/** Something else the page shows that means it settled: another state, or an error page. */
export const settledElsewhere = (wanted: StateName) => (shown: Shown[]) => statesShown(shown).some((state) => state !== wanted) || shown.includes('page:error');

/** The sandbox scenario the harness makes fail once, to see the agency's generic failure page. */
const FAILING_PREVIEW = 'won';

/** `open_previews`: each scenario in its own browser, side by side, and the agency's failure page once the real won preview has made its entry. */
export async function openPreviews(run: ScenarioRun, scenarios: readonly StateName[]): Promise<void> {
  const preview = run.facts.origins.preview;
  if (!preview) throw new Error('no preview URL: pass --preview or set "preview" in the config');
  const failing = scenarios.includes(FAILING_PREVIEW);
  run.facts.states.expect(failing ? [...scenarios, 'error'] : scenarios);
  // The production journeys wait for the brand's approval, which waits for all six calls.
  await Promise.all([
    ...scenarios.map(async (scenario, index) => openPreview(run, index === 0 ? await run.session('preview') : await run.fresh(`preview-${index}`), preview, scenario)),
    ...(failing ? [openFailingPreview(run, preview)] : []),
  ]);
}

/** One sandbox scenario through the preview: its link, the sandbox entry the service saw, the page it settles on (learned), and whether that page shows its state. */
async function openPreview(run: ScenarioRun, session: BrowserSession, preview: string, scenario: StateName): Promise<void> {
  const { states } = run.facts;
  const expectation: Expectation = { scenario: run.scenario.id, journey: 'preview', environment: 'sandbox', wanted: 'result', state: scenario, met: false, page: undefined };
  let learned: Fingerprint | undefined;
  try {
    await session.goto(preview);
    const link = await new PreviewPage(session.page, run.env.config.markers).link(scenario, PREVIEW_WAIT_MS);
    if (!link) {
      expectation.page = await run.observe(session);
      run.facts.expectations.push(expectation);
      return;
    }
    const view = run.view(session);
    const index = (await view.read(true)).features!;
    await session.act(() => link.click());
    run.facts.previewed.push(scenario);
    // The concrete signal: the service saw the preview's entry (or, without one, the page settles on its own).
    expectation.answer = answerOf(await sandboxEntry(run, scenario, PREVIEW_WAIT_MS));
    learned = await settledPage(session, view, index, scenario);
  } finally {
    states.report(scenario, learned);
  }
  await states.ready(PREVIEW_WAIT_MS);
  const reading = await run.view(session).read().catch(() => undefined);
  expectation.met = Boolean(reading && showsState(reading.shown, scenario));
  if (reading) expectation.how = howShown(run, reading, scenario);
  expectation.page = await run.observe(session);
  run.facts.expectations.push(expectation);
}

/**
 * The preview's won scenario once more, its sandbox entry answered 500 by a fault: the page the
 * agency shows when the service fails is learned as `error`, so a production page that is that
 * page is never taken for a state the preview cannot show. It starts once the real won preview's
 * entry reached the service, so the fault meets only this one.
 */
async function openFailingPreview(run: ScenarioRun, preview: string): Promise<void> {
  let learned: Fingerprint | undefined;
  try {
    if (!(await sandboxEntry(run, FAILING_PREVIEW, PREVIEW_WAIT_MS))) return;
    const session = await run.fresh('preview-failing');
    await session.goto(preview);
    const link = await new PreviewPage(session.page, run.env.config.markers).link(FAILING_PREVIEW, PREVIEW_WAIT_MS);
    if (!link) return;
    const view = run.view(session);
    const index = (await view.read(true)).features!;
    await run.env.client.arm({ path: '/session/entry', method: 'POST', status: 500, match: { environment: 'sandbox', scenario: FAILING_PREVIEW } });
    await session.act(() => link.click());
    const failed = await waitForCall(run, (call) => call.path === '/session/entry' && call.environment === 'sandbox' && call.scenario === FAILING_PREVIEW && call.fault !== undefined, { timeoutMs: PREVIEW_WAIT_MS });
    if (failed) learned = await settledPage(session, view, index, 'error');
  } finally {
    run.facts.states.report('error', learned);
  }
}

/**
 * The features of the page a preview scenario settles on: once its marker shows `state`, or once
 * it is no longer the preview's own page and stays the same for a moment (a single-page app draws
 * after its fetches). Undefined when it settles on another state's marker, or never settles.
 */
async function settledPage(session: BrowserSession, view: AgencyPage, index: Fingerprint, state: StateName): Promise<Fingerprint | undefined> {
  const unchanged = settling();
  const settled = await view.waitFor((shown, { features }) => {
    if (showsState(shown, state)) return true;
    if (!features || samePage(features, index)) return false;
    return unchanged(features);
  }, { timeoutMs: PREVIEW_WAIT_MS, other: settledElsewhere(state), graceMs: SETTLED_GRACE_MS, withFeatures: true });
  if (!settled.met) return undefined;
  await untilSettled(session);
  return (await view.read(true)).features;
}

/** Told a page's features at each reading: true once they have read the same for SETTLED_GRACE_MS. */
function settling(): (features: Fingerprint) => boolean {
  let last: { features: Fingerprint; since: number } | undefined;
  return (features) => {
    if (!last || !samePage(last.features, features)) last = { features, since: Date.now() };
    return Date.now() - last.since >= SETTLED_GRACE_MS;
  };
}

/** `expect`: waits until the page shows a kind of page or a state, and records it with the service's answer it is about. */
export async function expectStep(run: ScenarioRun, step: Extract<Step, { do: 'expect' }>): Promise<void> {
  const journey = run.journey(step.journey);
  const session = await run.session(step.journey);
  const timeoutMs = step.timeout_s * 1000;
  let met: boolean;
  let how: string | undefined;
  let shownFor: ShownFor | undefined;
  const state = step.state === 'drawn' ? journey.pack.outcome : step.state;
  if (state) ({ met, how, shown: shownFor } = await showsResult(run, session, journey, state, timeoutMs));
  else {
    const wanted: Shown = step.shows === 'consent_form' ? 'page:consent' : `page:${step.shows!}`;
    // The consent form may be behind step pages (an age question): a person takes them.
    if (wanted === 'page:consent') await reachConsent(run, session, { timeoutMs });
    met = (await run.view(session).waitFor((shown) => shown.includes(wanted), { timeoutMs })).met;
  }
  const seen = await run.observe(session);
  // A state's page is paired with the answer it was shown for: a page may leave it by itself (a wait page that retries, a pending page polled into won) before the reading settles.
  const answer = shownFor ? shownFor.answer : await lastEntryAnswer(run, journey);
  let page = !shownFor?.reading || stillShown(seen, state!, shownFor.reading) ? seen : shownFor.page;
  if (page !== seen) how = `${how}; then the page left it by itself (it shows ${seen?.shows.join(', ') || 'nothing recognised'} now)${page ? '' : ', before it could be read whole'}`;
  // A page read as a state the service's answer rules out is not counted as showing it: the check cannot tell, so it is inconclusive.
  if (!met && seen?.learned && seen.features && ruledOut(seen, answer)) {
    how = `read as ${seen.learned} from what the preview taught (${run.facts.states.matched(seen.features, seen.learned)}), which the service's answer ${answer!.status} rules out: no entry exists, so the reading is not counted`;
    page = { ...seen, shows: seen.shows.filter((shown) => shown !== `state:${seen.learned}`) };
  } else if (!met && seen?.learned && seen.features) how = `read as ${seen.learned} from what the preview taught: ${run.facts.states.matched(seen.features, seen.learned)}`;
  const expectation: Expectation = {
    scenario: run.scenario.id, journey: step.journey, environment: 'production', wanted: state ? 'result' : step.shows!, ...(state ? { state } : {}), met, page,
    answer, ...(how ? { how } : {}),
  };
  run.facts.expectations.push(expectation);
  if (!met) {
    const wanted = state ? `state "${state}"` : `${step.shows!.replace('_', ' ')}`;
    throw new Error(`expected ${wanted}; the page shows ${page?.shows.join(', ') || 'nothing recognised'}${how ? ` (${how})` : ''} (${redactUrl(session.page.url())})`);
  }
}

/** A state's page as it was read (`reading`, and the page then, when it still showed it), with the service's answer current then. */
interface ShownFor {
  reading?: PageReading;
  page?: PageSeen;
  answer?: ServiceAnswer;
}

/** Whether a page read later is still the one `state` was read on: it still shows the state, or (an inferred one) it is the same page. */
function stillShown(page: Pick<PageSeen, 'shows' | 'features'> | undefined, state: StateName, reading: PageReading): boolean {
  if (!page) return false;
  if (showsState(page.shows, state)) return true;
  return statesShown(page.shows).length === 0 && Boolean(page.features && reading.features && samePage(page.features, reading.features));
}

/**
 * Waits until the page shows `state`: its marker, its learned signature, the won codes, a state
 * shown since the last action, or inferred. Once it does, the page as read then and the service's
 * answer current then: what the page was shown for, whatever the page does next.
 */
export async function showsResult(
  run: ScenarioRun, session: BrowserSession, journey: JourneyFacts, state: StateName, timeoutMs: number,
): Promise<{ met: boolean; how?: string; shown?: ShownFor }> {
  await run.facts.states.ready(PREVIEW_WAIT_MS);
  const view = run.view(session);
  const codes = state === 'won' ? ((await run.observed(journey.pack.code)).filter((call) => call.answer?.entry_state === 'won').at(-1)?.answer?.codes ?? []) : [];
  const inferred = INFERRED_STATES.includes(state as ResultState) ? inference(run, journey, state as ResultState) : undefined;
  let how: string | undefined;
  let answer: ServiceAnswer | undefined;
  let read: PageReading | undefined;
  const { met } = await view.waitFor(async (shown, reading) => {
    read = reading;
    if (showsState(shown, state)) {
      how = howShown(run, reading, state);
      answer = await lastEntryAnswer(run, journey);
      return true;
    }
    answer = inferred ? await inferred(shown, reading) : undefined;
    if (answer) how = inferredHow(run, state as ResultState, reading.features);
    return how !== undefined;
  }, { timeoutMs, other: settledElsewhere(state), graceMs: 3000, withFeatures: inferred !== undefined });
  if (met) {
    const page = await session.snapshot(view, 'production');
    return { met, how, shown: { reading: read!, answer, ...(stillShown(page, state, read!) ? { page } : {}) } };
  }
  // A state the page showed only for a while since the last action (a wait page that retried by itself) counts too, with the answer that state shows.
  if (showsState(await view.shownSince(session.lastMark), state)) return { met: true, how: 'marker, shown since the last action', shown: { answer: await answerSinceEntry(run, journey, state) } };
  const shownBefore = inferred ? await inferredAfterEntry(run, journey, state as ResultState) : undefined;
  if (shownBefore) return { met: true, how: `${inferredHow(run, state as ResultState, shownBefore.page?.features)}; on the page shown right after the entry`, shown: shownBefore };
  // A won page also shows itself by the codes the service delivered, whatever its markers.
  const text = codes.length > 0 ? await view.text() : '';
  return codes.length > 0 && text.includes(codes[0]!) ? { met: true, how: 'the delivered code is on the page' } : { met: false };
}

function howShown(run: ScenarioRun, reading: PageReading, state: StateName): string {
  return reading.learned === state && reading.features ? `learned from the preview: ${run.facts.states.matched(reading.features, state)}` : 'marker';
}

/** The states that need an entry: a service answer other than 200 rules them out (no entry exists). */
const ENTRY_STATES: ReadonlySet<StateName> = new Set(['won', 'lost', 'pending', 'failed']);

/** A state read from what the preview taught (not a marker) that the service's answer rules out: a misreading, never the agency's claim. */
export function ruledOut(reading: Pick<PageReading, 'learned'>, answer: ServiceAnswer | undefined): boolean {
  return reading.learned !== undefined && ENTRY_STATES.has(reading.learned) && answer !== undefined && answer.status !== 200;
}

/**
 * For a state the preview cannot show: the service answered it; nothing recognised shows another
 * state or an error; the page carries no learned state's signature and differs from the page the
 * journey showed before its entry; and it read the same for SETTLED_GRACE_MS (not a page still
 * drawing: a form still sending the entry, its button disabled, differs from the form before it).
 * Without anything learned there is nothing to tell the page apart from: no inference. Resolves
 * with the service's answer when the page is that state's.
 */
function inference(run: ScenarioRun, journey: JourneyFacts, state: ResultState): (shown: Shown[], reading: PageReading) => Promise<ServiceAnswer | undefined> {
  const { facts } = run;
  const unchanged = settling();
  return async (shown, { features }) => {
    if (!features) return undefined;
    const stable = unchanged(features);
    if (!facts.states.learned || !stable || statesShown(shown).length > 0 || shown.includes('page:error') || shown.includes('page:landing')) return undefined;
    if (facts.states.carried(features).length > 0) return undefined;
    const before = pageBeforeEntry(run, journey);
    if (!before || samePage(before, features)) return undefined;
    const answer = await lastEntryAnswer(run, journey);
    return answer && STATE_ANSWERS[state].is(answer) ? answer : undefined;
  };
}

/**
 * How a state was inferred, naming what the page shares with a learned state whose signature it
 * carries (a `role="status"` paragraph) and what of that state's own words it lacks.
 */
function inferredHow(run: ScenarioRun, state: ResultState, features: Fingerprint | undefined): string {
  const { states } = run.facts;
  const how = `inferred: the service answered ${STATE_ANSWERS[state].label} and the page is none of the states learned from the preview, nor the page before the entry`;
  const near = features && states.learned ? statesCarried(states.learned, features) : [];
  return near.reduce((text, other) => `${text}; it shares ${other}'s ${states.matched(features!, other)}, not that page as a whole`, how);
}

/**
 * A state the page showed only for a while (a wait page that sent the entry again by itself): the
 * page seen right after the entry, when it meets the inference, with the service's answer to that entry.
 */
async function inferredAfterEntry(run: ScenarioRun, journey: JourneyFacts, state: ResultState): Promise<ShownFor | undefined> {
  const { facts } = run;
  const sent = journey.submissions.at(-1)?.at;
  const before = pageBeforeEntry(run, journey);
  if (sent === undefined || !before || !facts.states.learned) return undefined;
  const page = facts.pages.find((seen) => seen.scenario === journey.scenario && seen.journey === journey.journey && seen.at >= sent && seen.features);
  if (!page?.features || statesShown(page.shows).length > 0 || page.shows.includes('page:error') || facts.states.carried(page.features).length > 0 || samePage(before, page.features)) return undefined;
  const answer = (await answersSinceEntry(run, journey))[0];
  return answer && STATE_ANSWERS[state].is(answer) ? { reading: { shown: page.shows, features: page.features }, page, answer } : undefined;
}

/** The features of the last page the journey showed before its last entry was sent (its consent form). */
function pageBeforeEntry(run: ScenarioRun, journey: JourneyFacts): Fingerprint | undefined {
  const sent = journey.submissions.at(-1)?.at;
  if (sent === undefined) return undefined;
  return run.facts.pages.filter((page) => page.scenario === journey.scenario && page.journey === journey.journey && page.at < sent && page.features).at(-1)?.features;
}
