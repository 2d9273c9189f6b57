/**
 * The step vocabulary of scenario files (schema.ts), one function each. Steps drive the browser
 * through page objects, shape the emulator through its control plane, and write what they see
 * into the run's facts; they judge nothing (checks do). No step waits for a navigation: each waits
 * for a concrete signal, what the page shows or a call the emulator observed the agency make.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserSession } from './browser-session.js';
import type { ObservedCall } from '../emulator-client/client.js';
import { type Shown, showsState } from '../journey-states.js';
import { type ConsentPage, consentPageOf } from '../pages/agency.js';
import { type Person, personOf } from '../pages/person.js';
import { untilSettled } from '../pages/settle.js';
import type { Step } from '../scenarios/schema.js';
import type { Submission } from '../browser/seen.js';
import { type JourneyFacts, redactUrl } from './facts.js';
import { showsTerms, termsOf } from './terms.js';
import { ENDING_STATUSES, LONGEST_POLL_WAIT_MS, finalState, isTerminalAnswer, nextPollDue, pageDecided, scheduleViolation } from './polling.js';
import { confirmEntry, reachConsent, standingBeside } from './consent-steps.js';
import { probeEntryEndpoint } from './endpoint-probe.js';
import { continueOnAuthorize, scanPack } from './journey-start.js';
import { callbackStep } from './probes.js';
import { SETTLED_GRACE_MS, expectStep, openPreviews, settledElsewhere } from './state-steps.js';
import type { ScenarioRun } from './scenario-run.js';
import { entryCall, isEntryCall, waitForCall } from './step-support.js';

type StepOf<K extends Step['do']> = Extract<Step, { do: K }>;
type Steps = { [K in Step['do']]: (run: ScenarioRun, step: StepOf<K>) => Promise<void> };

const FAULT_TARGETS = {
  exchange: { method: 'POST', path: '/sessions' },
  entry: { method: 'POST', path: '/session/entry' },
  session_read: { method: 'GET', path: '/session' },
} as const;

/** How long a page may take to draw what it shows after it loaded: a single-page app draws after its own fetches. */
const PAGE_WAIT_MS = 10_000;
/** Waiting for the consent form: up to PAGE_WAIT_MS, or a moment once the page settled on something else (a state, an error). */
const CONSENT_WAIT = { timeoutMs: PAGE_WAIT_MS, other: (shown: Shown[]) => shown.some((item) => item !== 'page:consent'), graceMs: SETTLED_GRACE_MS };
/** What stands in a scenario's terms for the run's probe mark (RunFacts.probeMark, without its `data-`): no page sees it. */
const PROBE = 'harness-probe';
/** After Retry-After, a little more: the agency times the wait from when its answer arrived. */
const RETRY_AFTER_MARGIN_MS = 300;
/** How far the page's timers run ahead, in virtual time, once polling should have stopped. */
const VIRTUAL_AFTER_END_MS = 5 * 60_000;
/** Virtual time run at once: a page's timer that waits for an answer before it is set again fires once per slice. */
const VIRTUAL_SLICE_MS = 60_000;
/** Real time after a slice in which the page asked the agency: longer than the check allows a page to hear of the end (behaviour.ts LEARN_MS). */
const BETWEEN_ASKING_MS = 2500;
/** Real time for what the virtual run set off to reach the agency. */
const AFTER_VIRTUAL_MS = 1000;

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
    await openPreviews(run, step.scenarios);
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
    const stepped = await reachConsent(run, session, CONSENT_WAIT);
    // After the harness changed the terms, the form is read once it shows them.
    const edit = run.facts.termsEdits.filter((candidate) => candidate.scenario === run.scenario.id && candidate.journey === step.journey).at(-1);
    await untilSettled(session);
    const consent = consentOf(run, journey, session);
    const opened = await consent.open((click) => session.act(click));
    // Where the form was is the harness's own pointer into the page, not a fact of it.
    const { where, ...view } = await consent.readWhen((form) => !edit || showsTerms(form, edit.set), PAGE_WAIT_MS);
    const shownBy = [...stepped, ...(opened ? [opened] : [])].join('; ');
    journey.consent.push({ label: step.label, at: Date.now(), url: session.page.url(), ...view, ...(shownBy ? { opened: shownBy } : {}) });
    await run.observe(session);
  },

  async enter(run, step) {
    const session = await run.session(step.journey);
    await submitConsent(run, session, step, await reachConsent(run, session, CONSENT_WAIT));
  },

  async try_again(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const isEntry = (call: ObservedCall) => call.method === 'POST' && call.path === '/session/entry';
    // The entry the service refused last: an accepted one after it is the entry sent again, whoever sent it (the harness, or the page by itself).
    const refused = (await run.observed(journey.pack.code)).filter((call) => isEntry(call) && call.status !== 200).at(-1)?.seq ?? 0;
    const view = run.view(session);
    if (!(await view.shows()).includes('page:consent')) {
      const back = await view.wayBack(journey.submissions.at(-1)?.url);
      // A way back the page left meanwhile (it sent the entry again by itself) is not clicked: its result is what the page shows.
      const clicked = back && (await session.act(() => back.click()).then(() => true, (error: Error) => (/not attached|context was destroyed|navigat/i.test(error.message) ? false : Promise.reject(error))));
      if (clicked) await view.waitFor((shown) => shown.includes('page:consent'), CONSENT_WAIT);
    }
    if ((await view.shows()).includes('page:consent')) await submitConsent(run, session, { accept_terms: true, confirm_age: true, marketing: false, bypass_validation: false });
    if (!step.until_entered) return;
    const entered = await waitForCall(run, (call) => isEntry(call) && call.status === 200 && call.seq > refused, { pack: journey.pack.code, timeoutMs: step.timeout_s * 1000 });
    await session.act(async () => undefined);
    await run.observe(session);
    if (!entered) throw new Error(`the entry did not reach the service again within ${step.timeout_s} s: the page offered no consent form, no link back and retried nothing by itself`);
  },

  expect: expectStep,

  async fault(run, step) {
    const journey = run.journey(step.journey);
    const target = FAULT_TARGETS[step.on];
    await run.env.client.arm({
      ...target, status: step.status, error: step.error, retry_after: step.retry_after, drop: step.drop, times: step.times, match: { pack: journey.pack.code },
    });
    journey.changedAt = Date.now();
    if (step.on === 'session_read' && step.status !== undefined && ENDING_STATUSES.includes(step.status)) {
      journey.pollingEnded = { at: journey.changedAt, by: `the harness made the session read answer ${step.status}${step.error ? ` ${step.error}` : ''}` };
    }
    run.facts.faults.push({
      scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, on: step.on, at: journey.changedAt, status: step.status, error: step.error, retryAfter: step.retry_after, drop: step.drop,
    });
  },

  async edit_terms(run, step) {
    const journey = run.journey(step.journey);
    const country = run.facts.terms?.by_country[journey.country] ? journey.country : null;
    const { runId, probeMark, termsDraw } = run.facts;
    const drawn = JSON.stringify(step.set).replaceAll('{run}', runId).replaceAll('{version}', termsDraw.version).replaceAll('{label}', termsDraw.label).replaceAll(PROBE, probeMark.slice('data-'.length));
    const set = JSON.parse(drawn) as typeof step.set;
    await run.env.client.editTerms(country, set);
    run.facts.termsEdits.push({ scenario: run.scenario.id, journey: step.journey, at: Date.now(), country, set });
  },

  async settle_delivery(run, step) {
    const journey = run.journey(step.journey);
    await entryCall(run, journey);
    await run.env.client.settle(journey.pack.code, step.outcome);
    journey.changedAt = Date.now();
    journey.pollingEnded = { at: journey.changedAt, by: `the harness settled the delivery as ${step.outcome}, which the emulator then answers to every read` };
  },

  async watch_polling(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const entry = await entryCall(run, journey);
    // The window runs from the entry, or from the last change the harness made (a settled delivery, a fault), whichever is later.
    let until = Math.max(entry.at, journey.changedAt === undefined ? 0 : run.facts.onEmulatorClock(journey.changedAt)) + step.seconds * 1000;
    // Waiting for a due poll extends the watch, up to one interval of the schedule's slowest and its lateness: a page that polls for ever still ends it.
    const latest = until + LONGEST_POLL_WAIT_MS;
    let terminal: ObservedCall | undefined;
    for (;;) {
      await sleep(300);
      const { now, data } = await run.env.client.observed(run.env.baseline.calls, { pack: journey.pack.code });
      run.facts.states.data.note(data);
      const polls = data.filter((call) => call.method === 'GET' && call.path === '/session' && call.at > entry.at);
      if (step.mode === 'schedule') {
        if (scheduleViolation(entry.at, polls, pageDecided(run.facts, run.scenario.id, step.journey, [entry.at, ...polls.map((poll) => poll.at)]))) until = Math.min(until, now);
        if (polls.length >= step.polls) until = Math.min(until, polls[step.polls - 1]!.at);
      } else {
        // The entry's own answer may already be final (won at once): then there is nothing to poll.
        terminal = [entry, ...polls].find(isTerminalAnswer);
        // On a busy machine the delivery may settle just after a poll, and the next is due up to 30 s later: the watch waits for it.
        if (terminal) until = Math.min(until, terminal.at + step.quiet_seconds * 1000);
        else until = Math.min(latest, Math.max(until, nextPollDue(entry.at, polls)));
      }
      if (now >= until) break;
    }
    const watch = { scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, mode: step.mode, from: entry.at, until };
    if (step.mode === 'stops') {
      // A page that goes on asking its own server shows it once its timers run on: minutes of them, in virtual time, in
      // slices with its requests answered between them, so a timer the page sets again once an answer arrives fires again.
      // A slice that set off requests is followed by real time, so the next slice's are told apart from the page hearing of the end.
      const asked = () => run.facts.requests.filter((request) => request.scenario === run.scenario.id && request.journey === step.journey).length;
      for (let ran = 0; ran < VIRTUAL_AFTER_END_MS; ran += VIRTUAL_SLICE_MS) {
        const before = asked();
        await session.act(() => session.context.clock.runFor(VIRTUAL_SLICE_MS).catch(() => undefined), AFTER_VIRTUAL_MS);
        if (asked() > before) await sleep(BETWEEN_ASKING_MS);
      }
      await sleep(AFTER_VIRTUAL_MS);
      await session.act(async () => undefined);
      // A page that draws the settled state after one more fetch of its own gets the time to.
      const settled = terminal && finalState(terminal);
      if (settled) await run.view(session).waitFor((shown) => showsState(shown, settled), { timeoutMs: PAGE_WAIT_MS, other: settledElsewhere(settled), graceMs: SETTLED_GRACE_MS });
      Object.assign(watch, { finalPage: await run.observe(session), virtualMs: VIRTUAL_AFTER_END_MS, ended: (await run.env.client.observed(Number.MAX_SAFE_INTEGER, { limit: 1 })).now });
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

/** The consent form of a journey's page: its age box known by the minimum age its terms set. */
function consentOf(run: ScenarioRun, journey: JourneyFacts, session: BrowserSession) {
  return consentPageOf(session.page, run.env.config, termsOf(run.facts, journey.country)?.minimum_age, run.facts.probeMark);
}

/** Ticks the asked boxes of the consent form on the page, sends it, and waits for what that set off. */
async function submitConsent(run: ScenarioRun, session: BrowserSession, step: Pick<StepOf<'enter'>, 'accept_terms' | 'confirm_age' | 'marketing' | 'bypass_validation'>, stepped: string[] = []): Promise<void> {
  const journey = run.journey(session.journey);
  const consent = consentOf(run, journey, session);
  const opened = [...stepped, await consent.open((click) => session.act(click))].filter(Boolean).join('; ');
  const { hasForm, boxes } = await consent.read();
  if (!hasForm) throw new Error(`no consent form on ${redactUrl(session.page.url())}: no form has a box that accepts the terms (markers.entry_form names the form, markers.consent_boxes.terms its box)`);
  const found = { terms: boxes.some((box) => box.role === 'terms'), age: boxes.some((box) => box.role === 'age') };
  if (step.accept_terms && !found.terms) throw new Error('no box of the consent form could be told to accept the terms: markers.consent_boxes.terms names it');
  const submit = await consent.submit();
  if (!submit) throw new Error('no button sends the consent form: none is a submit button or named like one (vocabulary.submit adds a word)');
  const person = personOf(run.facts.runId, journey.country);
  await consent.fill(person);
  await consent.tick(boxes, { terms: step.accept_terms, age: step.confirm_age, marketing: step.marketing });
  if (step.bypass_validation) await consent.disableValidation();
  const submission: Submission = { at: Date.now(), accept: step.accept_terms, age: step.confirm_age && found.age, bypass: step.bypass_validation, boxesFound: found, url: session.page.url(), ...(opened ? { opened } : {}) };
  journey.submissions.push(submission);
  const sentSince = (at: number) => run.facts.requests.some((request) => request.scenario === session.scenario && request.journey === session.journey && request.at >= at && SENDS.has(request.resourceType));
  const before = await run.env.client.lastObserved();
  const standing = await standingBeside(run, session);
  await sendFilled(consent, person, () => session.act(() => submit.click()), sentSince);
  const entered = async () => (await run.observed(journey.pack.code)).some((call) => isEntryCall(call) && call.seq > before);
  const confirmed = (await confirmEntry(run, session, entered, standing)).join('; ');
  if (confirmed) submission.confirmed = confirmed;
  await run.observe(session);
}

/** How long, after a click that sent nothing, a field may take to appear (the person is still reading); and how often the form is then sent again. */
const LATE_FIELD = { ms: 5000, rounds: 2 };

/**
 * Sends the consent form (`send` clicks its button and waits); when that sent nothing because a
 * field appeared while the person read (a required field the page adds after a few seconds), each
 * field that then appears is filled and the form sent again, each wait bounded. A form that sends
 * nothing for another reason (a box the step left unticked) costs one wait, and is not sent again.
 */
export async function sendFilled(consent: ConsentPage, person: Person, send: () => Promise<void>, sentSince: (at: number) => boolean): Promise<void> {
  for (let round = 0; round <= LATE_FIELD.rounds; round += 1) {
    const clicked = Date.now();
    await send();
    if (round === LATE_FIELD.rounds) return;
    let filled = 0;
    for (const deadline = Date.now() + LATE_FIELD.ms; !sentSince(clicked) && filled === 0 && Date.now() < deadline; ) {
      await sleep(250);
      filled = await consent.read().then(({ hasForm }) => (hasForm ? consent.fill(person) : 0)).catch(() => 0);
    }
    if (filled === 0) return;
  }
}

/** The requests by which a page sends a form: a navigation, a fetch or an XHR. */
const SENDS = new Set(['document', 'fetch', 'xhr']);
