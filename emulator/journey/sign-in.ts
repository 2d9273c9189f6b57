/**
 * The service's own collector sign-in, simulated the way the Firebase Auth emulator does it: pick
 * a collector or create one (email, country). The cookie is HttpOnly and SameSite=Lax, so it
 * travels with the top-level redirect back from the agency to the authorize page.
 * @see spec §4.3 step 1, §5 (experience) rule 3
 */
import type { Request, Response } from 'express';
import type { Context } from '../context.js';
import { readCookie } from '../pages/http.js';
import { collectorOfBrowserSession, createBrowserSession, endBrowserSession } from '../store/browser-sessions.js';
import { type Collector, createCollector, findCollector, findCollectorByEmail, listCollectors } from '../store/collectors.js';
import { isHarnessCollector } from '../wire-contract.js';
import { getBrand, getPromotion } from '../store/promotions.js';
import { findUnitByCode } from '../store/units.js';

const COOKIE = 'promo_session';

export function signedInCollector(ctx: Context, req: Request): Collector | undefined {
  const token = readCookie(req, COOKIE);
  const id = token ? collectorOfBrowserSession(ctx.db, token, ctx.clock.now()) : undefined;
  return id === undefined ? undefined : findCollector(ctx.db, id);
}

/** Starts a fresh browser session (never reusing one from before sign-in). */
export function signIn(ctx: Context, req: Request, res: Response, collector: Collector): void {
  const previous = readCookie(req, COOKIE);
  if (previous) endBrowserSession(ctx.db, previous);
  const token = createBrowserSession(ctx.db, collector.id, ctx.clock.now());
  // Behind a tunnel that ends TLS, the request arrives as http: the public URL says the browser is on https.
  res.cookie(COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure: req.secure || ctx.config.baseUrl.startsWith('https:') });
}

export function signOut(ctx: Context, req: Request, res: Response): void {
  const token = readCookie(req, COOKIE);
  if (token) endBrowserSession(ctx.db, token);
  res.clearCookie(COOKIE, { path: '/' });
}

export type NewCollectorInput = { email: string; country: string; city: string | null };

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COUNTRY_PATTERN = /^[A-Z]{2}$/;

/** The accounts the sign-in page offers: all but the harness's own (wire-contract.ts). */
export function offeredCollectors(ctx: Context): Collector[] {
  return listCollectors(ctx.db).filter((collector) => !isHarnessCollector(collector.email));
}

/** Creates a collector, or says which field is wrong; an account the page does not offer, typed in with its country, is signed in as. */
export function registerCollector(ctx: Context, input: NewCollectorInput): { collector: Collector } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const existing = EMAIL_PATTERN.test(input.email) ? findCollectorByEmail(ctx.db, input.email) : undefined;
  if (existing && isHarnessCollector(existing.email) && existing.country === input.country) return { collector: existing };
  if (!EMAIL_PATTERN.test(input.email)) problems.email = 'Enter an email address such as name@example.test.';
  else if (existing) problems.email = isHarnessCollector(existing.email) ? `An account with this email exists, in ${existing.country ?? 'no country'}: choose that country to sign in as it.` : 'An account with this email exists: pick it from the list above.';
  if (!COUNTRY_PATTERN.test(input.country)) problems.country = 'Choose the country you are browsing from.';
  if (Object.keys(problems).length > 0) return { problems };
  return { collector: createCollector(ctx.db, { ...input, now: ctx.clock.now() }) };
}

/** What the sign-in page says was scanned, when it was reached from a pack's address. */
export interface ScannedPack {
  code: string;
  sku: string;
  /** The promotion its SKU enters, with its brand; none when no promotion runs on the pack. */
  promotion?: { name: string; brand: string };
}

export function scannedPack(ctx: Context, next: string): ScannedPack | undefined {
  const code = /^\/(?:q|play)\/([A-Za-z0-9-]+)$/.exec(next)?.[1];
  const unit = code ? findUnitByCode(ctx.db, code.toUpperCase()) : undefined;
  if (!unit) return undefined;
  if (unit.promotion_id === null) return { code: unit.code, sku: unit.sku_name };
  const promotion = getPromotion(ctx.db, unit.promotion_id);
  return { code: unit.code, sku: unit.sku_name, promotion: { name: promotion.content.name, brand: getBrand(ctx.db, promotion.brand_id).name } };
}
