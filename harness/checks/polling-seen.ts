/** What the run's polling watches saw: the service's delivery polls and the page's own requests during each (behaviour.polling_*). */
import type { ObservedCall } from '../emulator-client/client.js';
import type { PollWatch, RunFacts } from '../run/facts.js';
import type { RequestSeen } from '../browser/seen.js';
import { LATE_POLL_MS, POLLING_TYPES, nextPollDue } from '../run/polling.js';
import { isEntry, isSessionRead } from './observed.js';
import type { Evidence } from './types.js';

/** After the page first hears of the end, this long to show it (a reload, one more fetch) before further requests count as polling. */
export const LEARN_MS = 2000;

/** The run's polling watches of one mode, each with the delivery polls the service saw during it. */
export function watched(facts: RunFacts, mode: PollWatch['mode']): Array<{ watch: PollWatch; polls: ObservedCall[] }> {
  return facts.polls
    .filter((watch) => watch.mode === mode)
    .map((watch) => ({ watch, polls: facts.callsOf(watch.pack).filter((call) => isSessionRead(call) && call.at > watch.from && call.at <= watch.until) }));
}

/** The browser's own polling requests of a watch's journey to the agency, on the emulator's clock, from `from` on. */
export function pagePolls(facts: RunFacts, watch: PollWatch, from: number): Array<RequestSeen & { on: number }> {
  return pageRequests(facts, watch, from).filter((request) => POLLING_TYPES.has(request.resourceType) && facts.isAgency(request.url));
}

/** Every request of a watch's journey's pages and workers to the agency's host (any port, any kind, WebSocket frames included), on the emulator's clock, from `from` on. */
export function pageRequests(facts: RunFacts, watch: PollWatch, from: number): Array<RequestSeen & { on: number }> {
  return facts.requests
    .filter((request) => request.scenario === watch.scenario && request.journey === watch.journey && facts.isAgencyHost(request.url))
    .map((request) => ({ ...request, on: facts.onEmulatorClock(request.at) }))
    .filter((request) => request.on >= from);
}

/**
 * What of a page's requests shows it still asking: a load, fetch, XHR or stream it started; any other
 * kind (a script, image, stylesheet, beacon, WebSocket frame, another port) sent twice to one
 * address. A page that loads its last image late has not polled; one that pings an image every 2 s has.
 */
export function stillAsking(requests: ReadonlyArray<RequestSeen & { on: number }>): Array<RequestSeen & { on: number }> {
  const address = (request: RequestSeen) => `${request.resourceType} ${request.url.split('?')[0]}`;
  const times = new Map<string, number>();
  for (const request of requests) times.set(address(request), (times.get(address(request)) ?? 0) + 1);
  return requests.filter((request) => POLLING_TYPES.has(request.resourceType) || times.get(address(request))! > 1);
}

/** When a stops watch's step ended: its virtual minutes and final page included (the window's end, for a watch recorded without it). */
export const watchEnd = (watch: PollWatch) => Math.max(watch.until, watch.ended ?? 0);

/** What a terminal answer says, in a few words. */
export function endOf(terminal: ObservedCall): string {
  if (isEntry(terminal)) return terminal.answer?.entry_state ?? '?';
  if (terminal.status !== 200) return `HTTP ${terminal.status} ${terminal.answer?.error ?? ''}`.trim();
  return terminal.answer?.eligibility === 'unavailable' && !['delivered', 'failed'].includes(terminal.answer.delivery_state ?? '') ? 'eligibility unavailable' : `delivery ${terminal.answer?.delivery_state}`;
}

/**
 * A watch in which no answer of the service ended polling: the agency never asked after the end.
 * When the harness ended it itself (by the emulator's own record: a delivery it settled, a session
 * read it made answer 401), that is what proved polling had to stop, and the page's requests to the
 * agency since then show it going on for ever without learning the end.
 */
export function neverLearned(facts: RunFacts, watch: PollWatch, polls: readonly ObservedCall[], overdue: boolean): Evidence {
  const due = Math.round((nextPollDue(watch.from, polls) - watch.from) / 1000);
  const window = `${polls.length} poll(s) in ${Math.round((watch.until - watch.from) / 1000)} s; the next was due ${due} s after the entry, ${LATE_POLL_MS / 1000} s late included`;
  const ended = facts.journey(watch.scenario, watch.journey)?.pollingEnded;
  if (!ended) return { label: `${watch.scenario}: no poll reached the service after the delivery settled or the session ended (${window})` };
  const at = facts.onEmulatorClock(ended.at);
  const asked = stillAsking(pageRequests(facts, watch, at + LEARN_MS));
  return {
    label: `${watch.scenario}: ${ended.by} ${Math.max(0, Math.round((at - watch.from) / 1000))} s after the entry, and no poll reached the service after it (${window}); the page asked the agency ${asked.length} time(s) since${asked.length && overdue ? ', so it polls for ever without learning the end' : ''}`,
    data: { page_requests: asked.slice(0, 20).map((request) => `${request.method} ${request.url.split('?')[0]} (${request.resourceType})`) },
  };
}
