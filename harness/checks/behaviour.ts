/** How the agency behaves over time and under failure. @see spec §4.2, §4.3, §7, §8 */
import type { ObservedCall } from '../emulator/client.js';
import type { PollWatch, RunFacts } from '../run/facts.js';
import { POLL_SCHEDULE_S, intervals, isTerminalPoll, scheduleViolation } from '../run/polling.js';
import { isEntry, isExchange, isSessionRead, where } from './observed.js';
import { type Check, type Evidence, fail, pass } from './types.js';

/** The run's polling watches of one mode, each with the delivery polls the service saw during it. */
function watched(facts: RunFacts, mode: PollWatch['mode']): Array<{ watch: PollWatch; polls: ObservedCall[] }> {
  return facts.polls
    .filter((watch) => watch.mode === mode)
    .map((watch) => ({ watch, polls: facts.callsOf(watch.pack).filter((call) => isSessionRead(call) && call.at > watch.from && call.at <= watch.until) }));
}

export const BEHAVIOUR_CHECKS: Check[] = [
  {
    id: 'behaviour.polling_intervals',
    title: 'A pending delivery is polled no sooner than 2, 5, 10, then every 30 s',
    group: 'behaviour',
    spec: '§8',
    kind: 'can_fail',
    evaluate(facts) {
      const watches = watched(facts, 'schedule');
      if (watches.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      for (const { watch, polls } of watches) {
        const seen = intervals(watch.from, polls);
        const violation = scheduleViolation(watch.from, polls);
        const window = Math.round((watch.until - watch.from) / 1000);
        evidence.push({ label: `${watch.scenario}: ${polls.length} poll(s) in ${window} s after the entry, at intervals ${seen.map((interval) => `${interval.seconds.toFixed(1)} s`).join(', ') || 'none'}`, data: seen });
        if (violation) problems.push(`poll ${violation.poll} came ${violation.seconds.toFixed(1)} s after the previous call; the schedule allows ${violation.expected} s at the earliest`);
        else if (polls.length < 2) problems.push(`only ${polls.length} poll(s) in ${window} s: a pending delivery must be polled (first after ${POLL_SCHEDULE_S[0]} s)`);
      }
      const { watch } = watches[0]!;
      return problems.length ? fail(problems[0]!, evidence) : pass(`on schedule (${POLL_SCHEDULE_S.join(', ')} s; watched for ${Math.round((watch.until - watch.from) / 1000)} s)`, evidence);
    },
  },
  {
    id: 'behaviour.polling_stops',
    title: 'Polling stops on delivered, failed, an expired session or an unavailable integration',
    group: 'behaviour',
    spec: '§8, §3',
    kind: 'can_fail',
    evaluate(facts) {
      const watches = watched(facts, 'stops');
      if (watches.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      for (const { watch, polls } of watches) {
        const terminal = polls.find(isTerminalPoll);
        const why = terminal ? (terminal.status === 200 ? `delivery ${terminal.answer?.delivery_state}` : `HTTP ${terminal.status} ${terminal.answer?.error ?? ''}`.trim()) : undefined;
        const later = terminal ? polls.filter((call) => call.seq > terminal.seq) : [];
        const quiet = terminal ? Math.round((watch.until - terminal.at) / 1000) : 0;
        evidence.push({ label: `${watch.scenario}: ${terminal ? `poll ${polls.indexOf(terminal) + 1} saw ${why}; ${later.length} poll(s) in the ${quiet} s after` : `no poll saw the end in ${Math.round((watch.until - watch.from) / 1000)} s`}` });
        if (!terminal) problems.push(`${watch.scenario}: no poll observed the settled delivery or the ended session`);
        else if (later.length) problems.push(`${watch.scenario}: polling went on after ${why} (${later.length} more poll(s))`);
      }
      return problems.length ? fail(problems[0]!, evidence) : pass(`stopped every time (${watches.length} endings watched)`, evidence);
    },
  },
  {
    id: 'behaviour.no_redraw_after_failed',
    title: 'A failed delivery is shown as a delay; the entry is never submitted again',
    group: 'behaviour',
    spec: '§4.2 failed, §3',
    kind: 'can_fail',
    evaluate(facts) {
      const failed = facts.calls.filter((call) => isEntry(call) && call.answer?.entry_state === 'failed');
      if (failed.length === 0) return undefined;
      const again = failed.flatMap((call) => facts.calls.filter((later) => isEntry(later) && later.session_id === call.session_id && later.seq > call.seq).map((later) => ({ call, later })));
      const evidence = failed.map((call) => ({ label: `${call.environment} session #${call.session_id}: entry answered failed; ${again.filter((item) => item.call === call).length} entry call(s) after it` }));
      return again.length ? fail(`after a failed delivery the entry was submitted again (${again.length} call(s))`, evidence) : pass(`${failed.length} failed deliveries, none entered again`, evidence);
    },
  },
  {
    id: 'behaviour.no_new_identity_after_401',
    title: 'After 401 invalid_session the agency asks to rescan; it never retries with another identity',
    group: 'behaviour',
    spec: '§4.2 401',
    kind: 'can_fail',
    evaluate(facts) {
      const refused = facts.calls.filter((call) => isEntry(call) && call.status === 401 && call.answer?.error === 'invalid_session');
      if (refused.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      for (const call of refused) {
        const journey = facts.journeys.find((candidate) => candidate.pack.code === call.pack);
        if (!journey) continue;
        const others = facts.journeys.filter((candidate) => candidate.scenario === journey.scenario && candidate !== journey && candidate.submissions.length === 0);
        const borrowed = others.flatMap((other) => facts.callsOf(other.pack.code).filter((entry) => isEntry(entry) && entry.seq > call.seq).map((entry) => ({ other, entry })));
        evidence.push({ label: `${where(journey)}: entry answered 401; ${borrowed.length} entry call(s) then used another collector's session` });
        if (borrowed.length) problems.push(`after the 401 the entry was sent with ${where(borrowed[0]!.other)}'s session, a collector who never entered`);
      }
      if (evidence.length === 0) return undefined;
      return problems.length ? fail(problems[0]!, evidence) : pass('no other identity was used', evidence);
    },
  },
  {
    id: 'behaviour.retry_after_honoured',
    title: 'After a 429 nothing is sent before Retry-After has passed',
    group: 'behaviour',
    spec: '§4.2 429, §8',
    kind: 'can_fail',
    evaluate(facts) {
      const faults = facts.faults.filter((fault) => fault.status === 429 && fault.retryAfter !== undefined);
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      for (const fault of faults) {
        const calls = facts.callsOf(fault.pack);
        const limited = calls.find((call) => call.status === 429 && call.fault !== undefined);
        if (!limited) continue;
        const until = limited.at + fault.retryAfter! * 1000;
        const early = calls.filter((call) => call.seq > limited.seq && call.at < until && call.path === limited.path);
        const resent = facts.journey(fault.scenario, fault.journey)?.submissions.filter((submission) => submission.at > limited.at && submission.at < until).length ?? 0;
        evidence.push({
          label: `${fault.scenario}: ${limited.method} ${limited.path} answered 429, Retry-After ${fault.retryAfter}; the harness sent the form again ${resent} time(s) within it; ${early.length} call(s) sooner (${early.map((call) => `+${((call.at - limited.at) / 1000).toFixed(2)} s`).join(', ') || 'none'})`,
        });
        if (early.length) problems.push(`${early.length} call(s) within ${fault.retryAfter} s of a 429 with Retry-After ${fault.retryAfter}`);
      }
      if (evidence.length === 0) return undefined;
      return problems.length ? fail(problems[0]!, evidence) : pass('waited for Retry-After', evidence);
    },
  },
  {
    id: 'behaviour.no_exchange_retry',
    title: 'A failed code exchange is not retried; the journey restarts from the pack scan',
    group: 'behaviour',
    spec: '§4.3, §7',
    kind: 'can_fail',
    evaluate(facts) {
      const faults = facts.faults.filter((fault) => fault.on === 'exchange');
      const evidence: Evidence[] = [];
      const problems: string[] = [];
      for (const fault of faults) {
        const exchanges = facts.callsOf(fault.pack).filter(isExchange);
        const failedAt = exchanges.findIndex((call) => call.fault !== undefined);
        if (failedAt === -1) continue;
        const retries = exchanges.slice(failedAt + 1);
        const page = [...facts.pages].reverse().find((candidate) => candidate.scenario === fault.scenario && candidate.journey === fault.journey);
        evidence.push({ label: `${fault.scenario}: the exchange ${fault.drop ? 'lost its connection' : `answered ${fault.status}`}; ${retries.length} more exchange(s); the page shows ${page?.markers.error ?? page?.markers.entryState ?? page?.markers.page ?? '?'}` });
        if (retries.length) problems.push(`the failed exchange was sent again ${retries.length} time(s)`);
      }
      if (evidence.length === 0) return undefined;
      return problems.length ? fail(problems[0]!, evidence) : pass('not retried; the customer is asked to scan again', evidence);
    },
  },
];
