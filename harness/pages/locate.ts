/** Finding an element among candidates that may each be on the page. */
import type { Locator } from 'playwright-core';

/** Waits up to `timeoutMs` until any of the candidates is on the page: a client-rendered page draws after `load`. */
export async function untilAnyAttached(candidates: Locator[], timeoutMs: number): Promise<void> {
  await candidates.reduce((all, candidate) => all.or(candidate)).first().waitFor({ state: 'attached', timeout: timeoutMs }).catch(() => undefined);
}

/** The first candidate, in the order given, that is on the page. */
export async function firstFound(candidates: Locator[]): Promise<Locator | undefined> {
  for (const candidate of candidates) if ((await candidate.count()) > 0) return candidate.first();
  return undefined;
}
