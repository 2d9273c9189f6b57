/**
 * A page is judged once it has arrived: a client-rendered page shows a loading placeholder first
 * and its content a moment later. Settled means: none of its own requests (pages, fetches, XHRs)
 * still loading, its DOM unchanged between two readings, nothing marked busy (`aria-busy`, a
 * `<progress>`, a `role="progressbar"`), and a main content that is more than a live region saying
 * something goes on. All of it read by structure and ARIA, in no language. The wait is bounded:
 * a page still loading at the bound is read as it is, and the reading says so.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Page } from 'playwright-core';
import { outside } from '../browser/outside.js';

/** The project compiles without the DOM library: the page's globals, loosely, for `loadState`. */
declare const document: any;

/** How long a page may take to arrive before it is read as it is. */
export const SETTLE_MS = 5000;
/** Two readings this far apart that are alike: the DOM is still. */
const STILL_MS = 150;
/** How long a reading of the page may take once the bound has passed. */
const ANSWER_MS = 1000;

/** The part of a browser session the wait reads: its page, and the requests it still loads. */
export interface Loading {
  page: Page;
  loading(): string[];
}

/** What a page shows of still loading, by structure and ARIA: each busy element, and whether its main content is only a live region. */
export interface LoadState {
  elements: number;
  text: number;
  busy: string[];
  placeholder: boolean;
}

/** In the page: its size, its busy elements (`main[aria-busy]`, `progress`), and whether its main content is nothing but a live region. */
export function loadState(): LoadState {
  const body = document.body;
  if (!body) return { elements: 0, text: 0, busy: [], placeholder: false };
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
}

const alike = (a: LoadState, b: LoadState) => a.elements === b.elements && a.text === b.text && a.busy.join() === b.busy.join() && a.placeholder === b.placeholder;

/** What still showed the page loading, in words for the evidence; undefined when nothing did. */
function stillLoading(requests: string[], state: LoadState | undefined, moving: boolean): string | undefined {
  const parts = [
    ...(requests.length ? [`${requests.length} request(s) loading (${requests.slice(0, 3).join(', ')})`] : []),
    ...(state?.busy.length ? [`busy: ${state.busy.join(', ')}`] : []),
    ...(state?.placeholder ? ['its main content only a live region'] : []),
    ...(state ? (moving ? ['its DOM still changing'] : []) : ['the page did not answer']),
  ];
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Waits until the page has settled, up to `boundMs`. Undefined once it has; else what still showed
 * it loading at the bound (`1 request(s) loading (GET /api/campaign); busy: main[aria-busy]`).
 */
export async function untilSettled(session: Loading, boundMs = SETTLE_MS): Promise<string | undefined> {
  const deadline = Date.now() + boundMs;
  let last: LoadState | undefined;
  for (;;) {
    // A page whose main thread does not answer (or that is between two documents) is not waited for beyond the bound.
    const state = await Promise.race([outside(session.page, loadState).catch(() => undefined), sleep(Math.max(0, deadline - Date.now()) + ANSWER_MS, undefined, { ref: false })]);
    const why = stillLoading(session.loading(), state, Boolean(state && (!last || !alike(state, last))));
    if (!why) return undefined;
    if (Date.now() >= deadline) return `still loading after ${boundMs / 1000} s: ${why}`;
    last = state;
    await sleep(STILL_MS);
  }
}
