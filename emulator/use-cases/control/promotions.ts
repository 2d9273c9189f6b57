/**
 * The promotions a tool lists (`GET /_emulator/promotions`), all of them or those whose production
 * or preview callback is a given URL: how the harness finds its promotion. URLs compare as the
 * console stores them (checkCallbackUrl normalizes them), so `https://a.example/cb` finds
 * `https://A.example/cb`.
 */
import { checkCallbackUrl, isRefused } from '../../wire-contract.js';

/** A promotion as the console summarizes it, of which this reads the callbacks. */
export interface CalledBack {
  callbacks: { production: string | null; preview: string | null };
}

/** Of `promotions`, those with `callback` as a callback, or all without one. */
export function promotionsCalledBack(promotions: CalledBack[], callback: string | undefined): CalledBack[] {
  const wanted = callback === undefined ? undefined : sameUrl(callback);
  return promotions.filter(({ callbacks }) => wanted === undefined || [callbacks.production, callbacks.preview].some((url) => url !== null && sameUrl(url) === wanted));
}

function sameUrl(text: string): string {
  const check = checkCallbackUrl(text);
  return isRefused(check) ? text.trim() : check.url;
}
