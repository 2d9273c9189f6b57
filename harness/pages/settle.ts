/**
 * A page is judged once it has arrived: a client-rendered page shows a loading placeholder first
 * and its content a moment later. Settled means: none of its own requests (pages, fetches, XHRs)
 * still loading, its DOM still (no change for a moment), nothing marked busy (`aria-busy`, a
 * `<progress>`, a `role="progressbar"`), and a main content that is more than a live region saying
 * something goes on. All of it read by structure and ARIA, in no language. The wait is bounded:
 * a page still loading at the bound is read as it is, and the reading says so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { outside } from '../browser/outside.js';

/** The project compiles without the DOM library: the page's globals, loosely, for `settledState`. */
declare const document: any;
declare const MutationObserver: any;

/** How long a page may take to arrive before it is read as it is. */
export const SETTLE_MS = 5000;
/** The DOM unchanged this long (or alike in two readings this far apart): it is still. */
const STILL_MS = 150;
/** How long a reading of the page may take beyond the bound. */
const ANSWER_MS = 1000;

/** The part of a browser session the wait reads: its page, and the requests it still loads. */
export interface Loading {
  page: Page;
  loading(): string[];
}

/** What a page shows of still loading, by structure and ARIA: each busy element, whether its main content is only a live region, and whether its DOM was still. */
export interface LoadState {
  elements: number;
  text: number;
  busy: string[];
  placeholder: boolean;
  still: boolean;
}

/**
 * In the page (the harness's world): waits, at most `maxMs`, until its DOM is still and nothing
 * shows it loading, and returns what it shows then. Still: no change for `stillMs`, as an observer
 * set on the document's first reading sees it; or, for a page that keeps changing (a ticker, an
 * animation), two readings `stillMs` apart alike in size, text and busy elements. The page is read
 * only when it may have settled, not on a timer.
 */
export async function settledState({ stillMs, maxMs }: { stillMs: number; maxMs: number }): Promise<LoadState> {
  const scope = globalThis as { harnessChanged?: { at: number } };
  if (!scope.harnessChanged) {
    const record = { at: performance.now() };
    new MutationObserver(() => {
      record.at = performance.now();
    }).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    scope.harnessChanged = record;
  }
  const changed = scope.harnessChanged;
  const wait = (ms: number) => new Promise((done) => setTimeout(done, Math.max(0, ms)));
  const read = () => {
    const body = document.body;
    if (!body) return { elements: 0, text: 0, busy: [] as string[], placeholder: false };
    const shown = (element: any) => (typeof element.checkVisibility === 'function' ? element.checkVisibility() : true);
    const busy = [...body.querySelectorAll('[aria-busy="true"], progress, [role="progressbar"]')]
      .filter(shown)
      .slice(0, 5)
      .map((element: any) => `${String(element.localName)}${element.getAttribute('aria-busy') === 'true' ? '[aria-busy]' : element.getAttribute('role') ? `[role="${String(element.getAttribute('role'))}"]` : ''}`);
    const main = document.querySelector('main, [role="main"]') ?? body;
    const live = [...main.querySelectorAll('[role="status"], [role="alert"], [aria-live]:not([aria-live="off"])')].filter(shown);
    const content = 'h1, h2, h3, h4, h5, h6, [role="heading"], a[href], button, input, select, textarea, img, video, form';
    const words = (node: any) => (String(node.innerText ?? '').match(/\p{L}+/gu) ?? []).length;
    // A live region that is the whole of the main content, without a heading or anything to act on: a page saying it loads.
    const placeholder = live.length > 0 && !main.querySelector(content) && live.reduce((sum: number, region: any) => sum + words(region), 0) === words(main);
    return { elements: body.getElementsByTagName('*').length, text: String(body.innerText ?? '').length, busy, placeholder };
  };
  type Reading = ReturnType<typeof read>;
  const alike = (a: Reading, b: Reading) => a.elements === b.elements && a.text === b.text && a.busy.join() === b.busy.join() && a.placeholder === b.placeholder;
  const end = performance.now() + maxMs;
  let last: { reading: Reading; at: number } | undefined;
  let waited = false;
  for (;;) {
    const now = performance.now();
    const quiet = now - changed.at >= stillMs;
    // Changed a moment ago: first the time it takes to be still, unread.
    if (!quiet && !waited && now < end) {
      waited = true;
      await wait(Math.min(changed.at + stillMs - now, end - now));
      continue;
    }
    const state = read();
    const still = quiet || (last !== undefined && now - last.at >= stillMs && alike(last.reading, state));
    if ((still && state.busy.length === 0 && !state.placeholder) || now >= end) return { ...state, still };
    last = { reading: state, at: now };
    if (quiet) {
      // Still, and showing it loads: read again once it changes.
      const seen = changed.at;
      while (changed.at === seen && performance.now() < end) await wait(Math.min(stillMs, end - performance.now()));
      waited = false;
    } else await wait(Math.min(stillMs, end - now));
  }
}

/** What still showed the page loading, in words for the evidence; undefined when nothing did. */
function stillLoading(requests: string[], state: LoadState | undefined): string | undefined {
  const parts = [
    ...(requests.length ? [`${requests.length} request(s) loading (${requests.slice(0, 3).join(', ')})`] : []),
    ...(state?.busy.length ? [`busy: ${state.busy.join(', ')}`] : []),
    ...(state?.placeholder ? ['its main content only a live region'] : []),
    ...(state ? (state.still ? [] : ['its DOM still changing']) : ['the page did not answer']),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Waits until the page has settled, up to `boundMs`. Undefined once it has; else what still showed
 * it loading at the bound (`1 request(s) loading (GET /api/campaign); busy: main[aria-busy]`).
 * Its own requests are waited for here, the page read once they are done.
 */
export async function untilSettled(session: Loading, boundMs = SETTLE_MS): Promise<string | undefined> {
  const deadline = Date.now() + boundMs;
  const left = () => Math.max(0, deadline - Date.now());
  for (;;) {
    if (session.loading().length > 0 && left() > 0) {
      await sleep(Math.min(STILL_MS, left()));
      continue;
    }
    // A page whose main thread does not answer (or that is between two documents) is not waited for beyond the bound.
    const reading = outside(session.page, settledState, { stillMs: STILL_MS, maxMs: left() }).catch(() => undefined);
    const state = await Promise.race([reading, sleep(left() + ANSWER_MS, undefined, { ref: false })]);
    const why = stillLoading(session.loading(), state);
    if (!why) return undefined;
    if (Date.now() >= deadline) return `still loading after ${boundMs / 1000} s: ${why}`;
    if (!state) await sleep(Math.min(STILL_MS, left()));
  }
}
