/**
 * The step vocabulary of scenario files (schema.ts), one function each. Steps drive the browser
 * through page objects, shape the emulator through its control plane, and write what they see
 * into the run's facts; they judge nothing (checks do). No step waits for a navigation: each waits
 * for a concrete signal, what the page shows or a call the emulator observed the agency make.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserSession } from '../browser/session.js';
import type { ObservedCall } from '../emulator/client.js';
import { type Shown, type StateName, showsState, statesShown } from '../intents.js';
import { ConsentPage, PreviewPage } from '../pages/agency.js';
import type { Step } from '../scenarios/schema.js';
import { type Expectation, redactUrl, showsTerms } from './facts.js';
import { finalState, isTerminalPoll, pageDecided, scheduleViolation } from './polling.js';
import { probeEntryEndpoint } from './endpoint-probe.js';
import { continueOnAuthorize, scanPack } from './journey-start.js';
import { callbackStep } from './probes.js';
import type { ScenarioRun } from './scenario-run.js';
import { answerOf, entryCall, lastEntryAnswer, sandboxEntry, waitForCall } from './step-support.js';

type StepOf<K extends Step['do']> = Extract<Step, { do: K }>;
type Steps = { [K in Step['do']]: (run: ScenarioRun, step: StepOf<K>) => Promise<void> };

const FAULT_TARGETS = {
  exchange: { method: 'POST', path: '/sessions' },
  entry: { method: 'POST', path: '/session/entry' },
  session_read: { method: 'GET', path: '/session' },
} as const;

/** How long a preview scenario may take to make its calls and show its state (a slow single-page app on a loaded machine). */
const PREVIEW_WAIT_MS = 15_000;
/** How long a page may take to draw what it shows after it loaded: a single-page app draws after its own fetches. */
const PAGE_WAIT_MS = 10_000;
/** How long a wait goes on once the page settled on something other than what it waits for: it may still be redrawing. */
const SETTLED_GRACE_MS = 1500;
/** Waiting for the consent form: up to PAGE_WAIT_MS, or a moment once the page settled on something else (a state, an error). */
const CONSENT_WAIT = { timeoutMs: PAGE_WAIT_MS, other: (shown: Shown[]) => shown.some((item) => item !== 'page:consent'), graceMs: SETTLED_GRACE_MS };
/** After Retry-After, a little more: the agency times the wait from when its answer arrived. */
const RETRY_AFTER_MARGIN_MS = 300;
/** How far the page's timers run ahead, in virtual time, once polling should have stopped. */
const VIRTUAL_AFTER_END_MS = 5 * 60_000;
/** Real time for what the virtual run set off to reach the agency. */
const AFTER_VIRTUAL_MS = 1000;

/** Something else the page shows that means it settled: another state, or an error page. */
const settledElsewhere = (wanted: StateName) => (shown: Shown[]) => statesShown(shown).some((state) => state !== wanted) || shown.includes('page:error');

export const STEPS: Steps = {
  async open_landing(run) {
    const session = await run.session('landing');
    await session.goto(run.facts.origins.callback);
    await session.act(async () => undefined);
    await run.view(session).landingDrawn(run.facts.campaignName, PAGE_WAIT_MS);
    const page = await run.observe(session);
    run.facts.expectations.push({ scenario: run.scenario.id, journey: 'landing', environment: 'production', wanted: 'landing', met: page?.shows.includes('page:landing') ?? false, page });
  },

  async open_previews(run, step) {
    const preview = run.facts.origins.preview;
    if (!preview) throw new Error('no preview URL: pass --preview or set "preview" in the config');
    // One browser per scenario, side by side: the production journeys wait for the brand's approval, which waits for all six calls.
    await Promise.all(step.scenarios.map(async (scenario, index) => openPreview(run, index === 0 ? await run.session('preview') : await run.fresh(`preview-${index}`), preview, scenario)));
  },

  async scan(run, step) {
    await scanPack(run, run.journey(step.journey), await run.session(step.journey), step.supply_state);
  },

  async authorize(run, step) {
    await continueOnAuthorize(run, run.journey(step.journey), await run.session(step.journey), step.hold);
  },

  callback: callbackStep,

  async inspect_consent(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    await run.view(session).waitFor((shown) => shown.includes('page:consent'), CONSENT_WAIT);
    // After the harness changed the terms, the form is read once it shows them.
    const edit = run.facts.termsEdits.filter((candidate) => candidate.scenario === run.scenario.id && candidate.journey === step.journey).at(-1);
    const view = await new ConsentPage(session.page, run.env.config.markers).readWhen((form) => !edit || showsTerms(form, edit.set), PAGE_WAIT_MS);
    journey.consent.push({ label: step.label, at: Date.now(), url: session.page.url(), ...view });
    await run.observe(session);
  },

  async enter(run, step) {
    const session = await run.session(step.journey);
    await run.view(session).waitFor((shown) => shown.includes('page:consent'), CONSENT_WAIT);
    await submitConsent(run, session, step);
  },

  async try_again(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const isEntry = (call: ObservedCall) => call.method === 'POST' && call.path === '/session/entry';
    // The entry the service refused last: an accepted one after it is the entry sent again, whoever sent it (the harness, or the page by itself).
    const refused = (await run.observed(journey.pack.code)).filter((call) => isEntry(call) && call.status !== 200).at(-1)?.seq ?? 0;
    const view = run.view(session);
    if (!(await view.shows()).includes('page:consent')) {
      const back = await view.tryAgain();
      if (back) {
        await session.act(() => back.click());
        await view.waitFor((shown) => shown.includes('page:consent'), CONSENT_WAIT);
      }
    }
    if ((await view.shows()).includes('page:consent')) await submitConsent(run, session, { accept_terms: true, confirm_age: true, marketing: false, bypass_validation: false });
    if (!step.until_entered) return;
    const entered = await waitForCall(run, (call) => isEntry(call) && call.status === 200 && call.seq > refused, { pack: journey.pack.code, timeoutMs: step.timeout_s * 1000 });
    await session.act(async () => undefined);
    await run.observe(session);
    if (!entered) throw new Error(`the entry did not reach the service again within ${step.timeout_s} s: the page offered no consent form, no link back and retried nothing by itself`);
  },

  async expect(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const view = run.view(session);
    const timeoutMs = step.timeout_s * 1000;
    let met: boolean;
    const state = step.state === 'drawn' ? journey.pack.outcome : step.state;
    if (state) {
      const codes = state === 'won' ? ((await run.observed(journey.pack.code)).filter((call) => call.answer?.entry_state === 'won').at(-1)?.answer?.codes ?? []) : [];
      // A won page also shows itself by the codes the service delivered, whatever its markers.
      const showsCodes = async () => codes.length > 0 && (await session.page.locator('body').innerText().catch(() => '')).includes(codes[0]!);
      // A state the page showed only for a while since the last action (a wait page that retried by itself) counts too.
      met = (await view.waitFor((shown) => showsState(shown, state), { timeoutMs, other: settledElsewhere(state), graceMs: 3000 })).met
        || showsState(await view.shownSince(session.lastMark), state) || (await showsCodes());
    } else {
      const wanted: Shown = step.shows === 'consent_form' ? 'page:consent' : `page:${step.shows!}`;
      met = (await view.waitFor((shown) => shown.includes(wanted), { timeoutMs })).met;
    }
    const page = await run.observe(session);
    const expectation: Expectation = {
      scenario: run.scenario.id, journey: step.journey, environment: 'production', wanted: state ? 'result' : step.shows!, ...(state ? { state } : {}), met, page,
      answer: await lastEntryAnswer(run, journey),
    };
    run.facts.expectations.push(expectation);
    if (!met) {
      const wanted = state ? `state "${state}"` : `${step.shows!.replace('_', ' ')}`;
      throw new Error(`expected ${wanted}; the page shows ${page?.shows.join(', ') || 'nothing recognised'} (${redactUrl(session.page.url())})`);
    }
  },

  async fault(run, step) {
    const journey = run.journey(step.journey);
    const target = FAULT_TARGETS[step.on];
    await run.env.client.arm({
      ...target, status: step.status, error: step.error, retry_after: step.retry_after, drop: step.drop, times: step.times, match: { pack: journey.pack.code },
    });
    journey.changedAt = Date.now();
    run.facts.faults.push({
      scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, on: step.on, at: journey.changedAt, status: step.status, error: step.error, retryAfter: step.retry_after, drop: step.drop,
    });
  },

  async edit_terms(run, step) {
    const journey = run.journey(step.journey);
    const country = run.facts.terms?.by_country[journey.country] ? journey.country : null;
    const set = JSON.parse(JSON.stringify(step.set).replaceAll('{run}', run.facts.runId)) as typeof step.set;
    await run.env.client.editTerms(country, set);
    run.facts.termsEdits.push({ scenario: run.scenario.id, journey: step.journey, at: Date.now(), country, set });
  },

  async settle_delivery(run, step) {
    const journey = run.journey(step.journey);
    await entryCall(run, journey);
    await run.env.client.settle(journey.pack.code, step.outcome);
    journey.changedAt = Date.now();
  },

  async watch_polling(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const entry = await entryCall(run, journey);
    // The window runs from the entry, or from the last change the harness made (a settled delivery, a fault), whichever is later.
    let until = Math.max(entry.at, journey.changedAt === undefined ? 0 : run.facts.onEmulatorClock(journey.changedAt)) + step.seconds * 1000;
    let terminal: ObservedCall | undefined;
    for (;;) {
      await sleep(300);
      const { now, data } = await run.env.client.observed(run.env.baseline.calls, { pack: journey.pack.code });
      const polls = data.filter((call) => call.method === 'GET' && call.path === '/session' && call.at > entry.at);
      if (step.mode === 'schedule') {
        if (scheduleViolation(entry.at, polls, pageDecided(run.facts, run.scenario.id, step.journey, [entry.at, ...polls.map((poll) => poll.at)]))) until = Math.min(until, now);
        if (polls.length >= step.polls) until = Math.min(until, polls[step.polls - 1]!.at);
      } else {
        terminal = polls.find(isTerminalPoll);
        if (terminal) until = Math.min(until, terminal.at + step.quiet_seconds * 1000);
      }
      if (now >= until) break;
    }
    const watch = { scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, mode: step.mode, from: entry.at, until };
    if (step.mode === 'stops') {
      // A page that goes on asking its own server shows it once its timers run on: minutes of them, in virtual time.
      await session.context.clock.runFor(VIRTUAL_AFTER_END_MS).catch(() => undefined);
      await sleep(AFTER_VIRTUAL_MS);
      await session.act(async () => undefined);
      // A page that draws the settled state after one more fetch of its own gets the time to.
      const settled = terminal && finalState(terminal);
      if (settled) await run.view(session).waitFor((shown) => showsState(shown, settled), { timeoutMs: PAGE_WAIT_MS, other: settledElsewhere(settled), graceMs: SETTLED_GRACE_MS });
      Object.assign(watch, { finalPage: await run.observe(session), virtualMs: VIRTUAL_AFTER_END_MS });
    }
    run.facts.polls.push(watch);
  },

  async probe_entry_endpoint(run, step) {
    await probeEntryEndpoint(run, run.journey(step.journey), await run.session(step.journey));
  },

  async wait(_run, step) {
    await sleep(step.seconds * 1000);
  },

  async wait_retry_after(run, step) {
    const journey = run.journey(step.journey);
    const fault = run.facts.faults.filter((armed) => armed.scenario === run.scenario.id && armed.journey === step.journey && armed.status === 429).at(-1);
    const { now, data } = await run.env.client.observed(run.env.baseline.calls, { pack: journey.pack.code });
    const limited = data.filter((call) => call.status === 429 && call.fault !== undefined).at(-1);
    if (!fault?.retryAfter || !limited) throw new Error(`no call of pack ${journey.pack.code} was answered with the armed 429`);
    await sleep(Math.max(0, limited.at + fault.retryAfter * 1000 + RETRY_AFTER_MARGIN_MS - now));
  },

  async clock(run, step) {
    await run.env.client.advanceClock(step.advance);
  },
};

/** One sandbox scenario through the preview: its link, the sandbox entry the service saw, then the state its page shows. */
async function openPreview(run: ScenarioRun, session: BrowserSession, preview: string, scenario: StateName): Promise<void> {
  await session.goto(preview);
  const link = await new PreviewPage(session.page, run.env.config.markers).link(scenario, PREVIEW_WAIT_MS);
  const expectation: Expectation = { scenario: run.scenario.id, journey: 'preview', environment: 'sandbox', wanted: 'result', state: scenario, met: false, page: undefined };
  if (!link) {
    expectation.page = await run.observe(session);
    run.facts.expectations.push(expectation);
    return;
  }
  await session.act(() => link.click());
  run.facts.previewed.push(scenario);
  // The concrete signal: the service saw the preview's entry (or, without one, the page settles on its own).
  const entry = await sandboxEntry(run, scenario, PREVIEW_WAIT_MS);
  expectation.answer = answerOf(entry);
  expectation.met = (await run.view(session).waitFor((shown) => showsState(shown, scenario), { timeoutMs: PREVIEW_WAIT_MS, other: settledElsewhere(scenario), graceMs: SETTLED_GRACE_MS })).met;
  expectation.page = await run.observe(session);
  run.facts.expectations.push(expectation);
}

/** Ticks the asked boxes of the consent form on the page, sends it, and waits for what that set off. */
async function submitConsent(run: ScenarioRun, session: BrowserSession, step: Pick<StepOf<'enter'>, 'accept_terms' | 'confirm_age' | 'marketing' | 'bypass_validation'>): Promise<void> {
  const journey = run.journey(session.journey);
  const consent = new ConsentPage(session.page, run.env.config.markers);
  const { hasForm, boxes } = await consent.read();
  if (!hasForm) throw new Error(`no consent form on ${redactUrl(session.page.url())}: no box accepts the terms (markers.entry_form names the form)`);
  const found = { terms: boxes.some((box) => box.role === 'terms'), age: boxes.some((box) => box.role === 'age') };
  if (step.accept_terms && !found.terms) throw new Error('the consent form has no box to accept the terms');
  await consent.tick(boxes, { terms: step.accept_terms, age: step.confirm_age, marketing: step.marketing });
  if (step.bypass_validation) await consent.disableValidation();
  journey.submissions.push({ at: Date.now(), accept: step.accept_terms, age: step.confirm_age && found.age, bypass: step.bypass_validation, boxesFound: found });
  const submit = await consent.submit();
  await session.act(() => submit.click());
  await run.observe(session);
}
