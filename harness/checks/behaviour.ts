/** How the agency behaves over time and under failure. @see spec §4.2, §4.3, §7, §8 */
import type { ObservedCall } from '../emulator-client/client.js';
import { type StateName, showsState, statesShown } from '../journey-states.js';
import type { JourneyFacts, RunFacts } from '../run/facts.js';
import type { PageSeen } from '../browser/seen.js';
import { BACKEND_LATENCY_MS, POLL_SCHEDULE_S, finalState, intervals, isTerminalAnswer, nextPollDue, pageDecided, scheduleViolation } from '../run/polling.js';
import { SANDBOX_SCENARIOS } from '../scenarios/schema.js';
import { isEntry, isExchange, isSessionRead, where } from './observed.js';
import { STATE_PAGES } from './allowances.js';
import { LEARN_MS, endOf, neverLearned, pagePolls, pageRequests, stillAsking, watchEnd, watched } from './polling-seen.js';
import { type Check, type Evidence, REFERENCE_AGENCY, fail, inconclusive, pass } from './types.js';

/** Results only an entry can give: after a failed exchange there is no session, so none of them is known. */
const GUESSABLE: ReadonlySet<StateName> = new Set(SANDBOX_SCENARIOS);
const ERROR_PAGE = 'markers.pages.error (or markers.states.error): so the harness recognises the page a failed exchange leads to';
const FINAL_STATE = 'markers.states.won and markers.states.failed: so the harness recognises the page a settled delivery ends on';

/**
 * Positive evidence that an unrecognised page shows no result: the preview taught the signature of
 * every result a guess could show, and the page carries none of them.
 */
function carriesNoResult(facts: RunFacts, page: PageSeen | undefined): boolean {
  const { learned } = facts.states;
  if (!page?.features || !learned || ![...GUESSABLE].every((state) => learned.signatures.some((signature) => signature.state === state))) return false;
  return !facts.states.carried(page.features).some((state) => GUESSABLE.has(state));
}

/** How long after the journey's last page the agency may still be acting on its last request. */
const AFTER_LAST_PAGE_MS = 1000;

/**
 * Sandbox sessions opened after a production entry's 401, while its journey went on, that the
 * preview does not account for (more sessions of that sandbox scenario than the preview opened):
 * another identity, one that needs no collector. The session whose entry the harness made fail (the
 * preview shown once more to learn the agency's failure page, which may run while production
 * journeys do) is the harness's own.
 */
function sandboxSessionsAfter(facts: RunFacts, refused: ObservedCall, journey: JourneyFacts): ObservedCall[] {
  const pages = facts.pages.filter((page) => page.scenario === journey.scenario && page.journey === journey.journey);
  const until = Math.max(refused.at, ...pages.map((page) => facts.onEmulatorClock(page.at))) + AFTER_LAST_PAGE_MS;
  const faulted = new Set(facts.calls.filter((call) => isEntry(call) && call.environment === 'sandbox' && call.fault !== undefined).map((call) => call.session_id));
  const opened = facts.calls.filter((call) => call.environment === 'sandbox' && call.method === 'POST' && call.path === '/sessions' && call.answer?.session_created && !faulted.has(call.session_id));
  const unaccounted = (scenario: string | null) => opened.filter((call) => call.scenario === scenario).length > facts.previewed.filter((previewed) => previewed === scenario).length;
  return opened.filter((call) => call.seq > refused.seq && call.at <= until && unaccounted(call.scenario));
}

export const BEHAVIOUR_CHECKS: Check[] = [
  {
    id: 'behaviour.polling_intervals',
    title: 'A pending delivery is polled no sooner than 2, 5, 10, then every 30 s',
    group: 'behaviour',
    spec: '§8',
    kind: 'can_fail',
    guidance: { rules: ['polling-backoff'], fix: 'Poll a pending entry after 2, 5 and 10 s, then every 30 s, decided by your server, not the page.', reference: `${REFERENCE_AGENCY}/polling.ts` },
    allowedBy: STATE_PAGES,
    evaluate(facts) {
      const watches = watched(facts, 'schedule');
      if (watches.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      let judged = 0;
      for (const { watch, polls } of watches) {
        const decided = pageDecided(facts, watch.scenario, watch.journey, [watch.from, ...polls.map((poll) => poll.at)]);
        const seen = intervals(watch.from, polls, decided);
        const violation = scheduleViolation(watch.from, polls, decided);
        const window = Math.round((watch.until - watch.from) / 1000);
        const shown = seen.map((interval) => `${interval.seconds.toFixed(1)} s${interval.byPage ? ' (page)' : ''}`).join(', ') || 'none';
        const item = { label: `${watch.scenario}: ${polls.length} poll(s) in ${window} s after the entry, at intervals ${shown}`, data: seen };
        evidence.push(item);
        if (violation) problems.push({ ...item, label: `poll ${violation.poll} came ${violation.seconds.toFixed(1)} s after the previous call; the schedule allows ${violation.expected} s at the earliest` });
        else if (polls.length < 2) problems.push({ ...item, label: `only ${polls.length} poll(s) in ${window} s: a pending delivery must be polled (first after ${POLL_SCHEDULE_S[0]} s)` });
        else judged += polls.length;
      }
      return problems.length
        ? fail(problems[0]!.label, [problems[0]!, ...evidence])
        : pass(judged, `on schedule (${POLL_SCHEDULE_S.join(', ')} s); an interval the page decided ("page") is measured between its requests, which the service saw within ${BACKEND_LATENCY_MS / 1000} s each`, evidence);
    },
  },
  {
    id: 'behaviour.polling_stops',
    title: 'Polling stops on delivered, failed or an ended session, in the service and in the page, which ends on the final state',
    group: 'behaviour',
    spec: '§8, §3',
    kind: 'can_fail',
    guidance: { rules: ['polling-stops'], fix: 'Stop polling on delivered, failed, an ended session or unavailable, and show the final state.', reference: `${REFERENCE_AGENCY}/polling.ts` },
    allowedBy: STATE_PAGES,
    configure: FINAL_STATE,
    evaluate(facts) {
      const watches = watched(facts, 'stops');
      if (watches.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      const unrecognised: Evidence[] = [];
      const unwatched: Evidence[] = [];
      let judged = 0;
      for (const { watch, polls } of watches) {
        // The entry's own answer may be final already (won at once): then every poll is one too many.
        const entry = facts.callsOf(watch.pack).filter((call) => isEntry(call) && call.status === 200 && call.at <= watch.from).at(-1);
        const terminal = [...(entry ? [entry] : []), ...polls].find(isTerminalAnswer);
        if (!terminal) {
          const overdue = watch.until >= nextPollDue(watch.from, polls);
          (overdue ? problems : unwatched).push(neverLearned(facts, watch, polls, overdue));
          continue;
        }
        const why = endOf(terminal);
        // Every poll of the service after the end counts, up to the end of the watch step (its virtual minutes included).
        const later = facts.callsOf(watch.pack).filter((call) => isSessionRead(call) && call.seq > terminal.seq && call.at <= watchEnd(watch));
        // The page hears of the end with its next request to the agency (or with the one that made the poll); what follows that is polling.
        const learned = pagePolls(facts, watch, terminal.at)[0]?.on ?? terminal.at;
        const pageLater = stillAsking(pageRequests(facts, watch, learned + LEARN_MS));
        const state = finalState(terminal);
        const page = watch.finalPage;
        const seen = terminal === entry ? 'the entry was answered' : `poll ${polls.indexOf(terminal) + 1} saw`;
        const item = {
          label: `${watch.scenario}: ${seen} ${why}; then ${later.length} poll(s) of the service and ${pageLater.length} request(s) of the page to the agency, in ${Math.round((watchEnd(watch) - terminal.at) / 1000)} s and ${Math.round((watch.virtualMs ?? 0) / 60_000)} min of the page's timers; the page ends showing ${page?.shows.join(', ') || 'nothing recognised'}`,
          data: { page_requests: pageLater.map((request) => `${request.method} ${request.url.split('?')[0]} (${request.resourceType})`) },
        };
        evidence.push(item);
        if (later.length) problems.push({ ...item, label: `${watch.scenario}: the service was polled again after ${why} (${later.length} more poll(s))` });
        else if (pageLater.length) problems.push({ ...item, label: `${watch.scenario}: the page went on asking the agency after ${why} (${pageLater.length} request(s), e.g. ${pageLater[0]!.method} ${new URL(pageLater[0]!.url).pathname})` });
        else if (state && page && !showsState(page.shows, state) && page.shows.some((shown) => shown.startsWith('state:'))) problems.push({ ...item, label: `${watch.scenario}: after ${why} the page still shows ${page.shows.join(', ')}, not ${state}` });
        else if (state && !(page && showsState(page.shows, state))) unrecognised.push(item);
        else judged += 1;
      }
      if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...evidence]);
      if (unwatched.length) return inconclusive(`the watch ended before the next poll was due, so it cannot tell whether polling stopped: ${unwatched[0]!.label}`, "a longer watch (the scenario's watch_polling seconds), or a step before it that ends the delivery (settle_delivery, or a fault on the session read answering 401)", [...unwatched, ...evidence]);
      if (unrecognised.length) return inconclusive(`polling stopped, but the harness cannot tell whether the page ends on the final state: ${unrecognised[0]!.label}`, FINAL_STATE, evidence);
      return pass(judged, `stopped every time (${judged} endings watched), in the service and in the page`, evidence);
    },
  },
  {
    id: 'behaviour.no_redraw_after_failed',
    title: 'A failed delivery is shown as a delay; the entry is never submitted again',
    group: 'behaviour',
    spec: '§4.2 failed, §3',
    kind: 'can_fail',
    guidance: { rules: ['result-failed'], fix: 'Show a failed delivery as a delay of a win; never submit the entry again.', reference: `${REFERENCE_AGENCY}/pages/result.ts` },
    allowedBy: STATE_PAGES,
    evaluate(facts) {
      const failed = facts.calls.filter((call) => isEntry(call) && call.answer?.entry_state === 'failed');
      if (failed.length === 0) return undefined;
      const again = failed.flatMap((call) => facts.calls.filter((later) => isEntry(later) && later.session_id === call.session_id && later.seq > call.seq).map((later) => ({ call, later })));
      const evidence = failed.map((call) => ({ label: `${call.environment} session #${call.session_id}: entry answered failed; ${again.filter((item) => item.call === call).length} entry call(s) after it` }));
      return again.length ? fail(`after a failed delivery the entry was submitted again (${again.length} call(s))`, [evidence[failed.indexOf(again[0]!.call)]!, ...evidence]) : pass(failed.length, `${failed.length} failed deliveries, none entered again`, evidence);
    },
  },
  {
    id: 'behaviour.no_new_identity_after_401',
    title: 'After 401 invalid_session the agency asks to rescan; it never retries with another identity',
    group: 'behaviour',
    spec: '§4.2 401',
    kind: 'can_fail',
    guidance: { rules: ['result-invalid-session'], fix: 'On 401 invalid_session ask to rescan the pack; never start another session on your own.', reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: STATE_PAGES,
    evaluate(facts) {
      const refused = facts.calls.filter((call) => isEntry(call) && call.environment !== 'sandbox' && call.status === 401 && call.answer?.error === 'invalid_session');
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      for (const call of refused) {
        const journey = facts.journeys.find((candidate) => candidate.pack.code === call.pack);
        if (!journey) continue;
        const others = facts.journeys.filter((candidate) => candidate.scenario === journey.scenario && candidate !== journey && candidate.submissions.length === 0);
        // Another live session is what a careless agency would reach for; a sandbox session needs none. Without either, nothing was tested.
        const tempted = others.some((other) => facts.callsOf(other.pack.code).some((candidate) => isExchange(candidate) && candidate.answer?.session_created));
        const borrowed = others.flatMap((other) => facts.callsOf(other.pack.code).filter((entry) => isEntry(entry) && entry.seq > call.seq).map((entry) => ({ other, entry })));
        const sandbox = sandboxSessionsAfter(facts, call, journey);
        if (!tempted && sandbox.length === 0) continue;
        const item = { label: `${where(journey)}: entry answered 401${tempted ? " while another collector's session was live" : ''}; then ${borrowed.length} entry call(s) with another collector's session, ${sandbox.length} sandbox session(s) opened` };
        evidence.push(item);
        if (borrowed.length) problems.push({ ...item, label: `after the 401 the entry was sent with ${where(borrowed[0]!.other)}'s session, a collector who never entered` });
        else if (sandbox.length) problems.push({ ...item, label: `after the 401 the agency opened a sandbox session (scenario ${sandbox[0]!.scenario ?? '?'}) instead of asking to rescan` });
      }
      if (evidence.length === 0) return undefined;
      return problems.length ? fail(problems[0]!.label, [problems[0]!, ...evidence]) : pass(evidence.length, 'no other identity was used', evidence);
    },
  },
  {
    id: 'behaviour.retry_after_honoured',
    title: 'After a 429 nothing is sent before Retry-After has passed',
    group: 'behaviour',
    spec: '§4.2 429, §8',
    kind: 'can_fail',
    guidance: { rules: ['result-rate-limited', 'rate-limits'], fix: 'After a 429 send nothing to the service for this session until Retry-After has passed.', reference: `${REFERENCE_AGENCY}/entry.ts` },
    allowedBy: [...STATE_PAGES, 'markers.try_again', 'vocabulary'],
    evaluate(facts) {
      const faults = facts.faults.filter((fault) => fault.status === 429 && fault.retryAfter !== undefined);
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      for (const fault of faults) {
        const calls = facts.callsOf(fault.pack);
        const limited = calls.find((call) => call.status === 429 && call.fault !== undefined);
        if (!limited) continue;
        const until = limited.at + fault.retryAfter! * 1000;
        const early = calls.filter((call) => call.seq > limited.seq && call.at < until && call.path === limited.path);
        // The window counts only once the run watched it to its end: a call after it shows the run went on that long.
        if (!calls.some((call) => call.at >= until) && early.length === 0) continue;
        const resent = facts.journey(fault.scenario, fault.journey)?.submissions.filter((submission) => facts.onEmulatorClock(submission.at) > limited.at && facts.onEmulatorClock(submission.at) < until).length ?? 0;
        const item = {
          label: `${fault.scenario}: ${limited.method} ${limited.path} answered 429, Retry-After ${fault.retryAfter}; the harness sent the form again ${resent} time(s) within it; ${early.length} call(s) sooner (${early.map((call) => `+${((call.at - limited.at) / 1000).toFixed(2)} s`).join(', ') || 'none'})`,
        };
        evidence.push(item);
        if (early.length) problems.push({ ...item, label: `${early.length} call(s) within ${fault.retryAfter} s of a 429 with Retry-After ${fault.retryAfter}` });
      }
      if (evidence.length === 0) return undefined;
      return problems.length ? fail(problems[0]!.label, [problems[0]!, ...evidence]) : pass(evidence.length, 'waited for Retry-After', evidence);
    },
  },
  {
    id: 'behaviour.no_exchange_retry',
    title: 'A failed code exchange is not retried and no result is guessed; the journey restarts from the pack scan',
    group: 'behaviour',
    spec: '§4.3, §7',
    kind: 'can_fail',
    guidance: { rules: ['exchange-never-retried'], fix: 'When the code exchange fails, show a rescan message; never call POST /sessions again with that code.', reference: `${REFERENCE_AGENCY}/journey.ts` },
    allowedBy: STATE_PAGES,
    configure: ERROR_PAGE,
    evaluate(facts) {
      const faults = facts.faults.filter((fault) => fault.on === 'exchange');
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      const unrecognised: Evidence[] = [];
      for (const fault of faults) {
        const exchanges = facts.callsOf(fault.pack).filter(isExchange);
        const failed = exchanges.find((call) => call.fault !== undefined);
        if (!failed) continue;
        const retries = exchanges.filter((call) => call.seq > failed.seq);
        // What the journey's browser showed after the failed exchange: no session, so no result it could know.
        const pages = facts.pages.filter((candidate) => candidate.scenario === fault.scenario && candidate.journey === fault.journey && facts.onEmulatorClock(candidate.at) >= failed.at);
        const page = pages.at(-1);
        const guessed = pages.flatMap((candidate) => statesShown(candidate.shows).filter((state) => GUESSABLE.has(state))).at(0);
        const noResult = !page?.shows.length && carriesNoResult(facts, page);
        const shown = page?.shows.join(', ') || `"${page?.title ?? '?'}"${noResult ? ', which carries none of the results learned from the preview' : ''}`;
        const item = { label: `${fault.scenario}: the exchange ${fault.drop ? 'lost its connection' : `answered ${fault.status}`}; ${retries.length} more exchange(s); the page shows ${shown}` };
        evidence.push(item);
        if (retries.length) problems.push({ ...item, label: `the failed exchange was sent again ${retries.length} time(s)` });
        else if (guessed) problems.push({ ...item, label: `after the failed exchange the page shows a result, ${guessed}, though the service gave no session to know one` });
        else if (!page?.shows.length && !noResult) unrecognised.push(item);
      }
      if (evidence.length === 0) return undefined;
      if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...evidence]);
      if (unrecognised.length) return inconclusive(`not retried, but the harness cannot tell whether the page after the failed exchange shows a result: ${unrecognised[0]!.label}`, ERROR_PAGE, evidence);
      return pass(evidence.length, 'not retried, and no result shown', evidence);
    },
  },
];
