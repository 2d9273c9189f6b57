/**
 * The service's own collector sign-in, simulated the way the Firebase Auth emulator does it: pick
 * a collector or create one (email, country). Each sign-in starts a fresh browser session, never
 * reusing one from before it. @see spec §4.3 step 1, §5 (experience) rule 3
 */
import type { Context } from '../../context.js';
import { createBrowserSession, endBrowserSession } from '../../store/browser-sessions.js';
import { type Collector, createCollector, findCollector, findCollectorByEmail, listCollectors } from '../../store/collectors.js';
import { getBrand, getPromotion } from '../../store/promotions.js';
import { findUnitByCode } from '../../store/units.js';
import { type Refused, isHarnessCollector, isRefused, refused } from '../../wire-contract.js';

export type NewCollectorInput = { email: string; country: string; city: string | null };

/** The sign-in form: an account the page offers (`collectorId`), or a new one. */
export interface SignInChoice {
  collectorId?: string;
  email?: string;
  country?: string;
  city?: string;
  /** The browser session the browser signs in from, ended by the sign-in. */
  previous: string | undefined;
}

/** What the sign-in page offers: the accounts to pick, and the pack whose scan brought the browser there. */
export interface SignInOffer {
  collectors: Collector[];
  scanned?: ScannedPack;
}

/** Why no one was signed in, with the page to show again: an account it never offered, or the new account's problems, by field. */
export interface SignInRefusal {
  offer: SignInOffer;
  entered?: NewCollectorInput;
  problems?: Record<string, string>;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COUNTRY_PATTERN = /^[A-Z]{2}$/;

/** The accounts it offers are all but the harness's own (wire-contract.ts); `next` is where it goes back to. */
export function signInOffer(ctx: Context, next: string): SignInOffer {
  return { collectors: listCollectors(ctx.db).filter((collector) => !isHarnessCollector(collector.email)), scanned: scannedPack(ctx, next) };
}

/** Signs in as the chosen or the new collector: the browser's session token, or why not. */
export function signIn(ctx: Context, next: string, choice: SignInChoice): { session: string } | Refused<SignInRefusal> {
  let collector: Collector;
  if (choice.collectorId !== undefined) {
    const chosen = findCollector(ctx.db, Number(choice.collectorId));
    if (!chosen) return refused({ offer: signInOffer(ctx, next) });
    collector = chosen;
  } else {
    const entered = { email: choice.email?.trim() ?? '', country: choice.country ?? '', city: choice.city?.trim() || null };
    const registered = registerCollector(ctx, entered);
    if (isRefused(registered)) return refused({ offer: signInOffer(ctx, next), entered, problems: registered.refused });
    collector = registered;
  }
  if (choice.previous) endBrowserSession(ctx.db, choice.previous);
  return { session: createBrowserSession(ctx.db, collector.id, ctx.clock.now()) };
}

export function signOut(ctx: Context, session: string | undefined): object {
  if (session) endBrowserSession(ctx.db, session);
  return {};
}

/** Creates a collector, or says what is wrong with each field; an account the page does not offer, typed in with its country, is signed in as. */
function registerCollector(ctx: Context, input: NewCollectorInput): Collector | Refused<Record<string, string>> {
  const problems: Record<string, string> = {};
  const existing = EMAIL_PATTERN.test(input.email) ? findCollectorByEmail(ctx.db, input.email) : undefined;
  if (existing && isHarnessCollector(existing.email) && existing.country === input.country) return existing;
  if (!EMAIL_PATTERN.test(input.email)) problems.email = 'Enter an email address such as name@example.test.';
  else if (existing) problems.email = isHarnessCollector(existing.email) ? `An account with this email exists, in ${existing.country ?? 'no country'}: choose that country to sign in as it.` : 'An account with this email exists: pick it from the list above.';
  if (!COUNTRY_PATTERN.test(input.country)) problems.country = 'Choose the country you are browsing from.';
  if (Object.keys(problems).length > 0) return refused(problems);
  return createCollector(ctx.db, { ...input, now: ctx.clock.now() });
}

/** What the sign-in page says was scanned, when it was reached from a pack's address. */
export interface ScannedPack {
  code: string;
  sku: string;
  /** The promotion its SKU enters, with its brand; none when no promotion runs on the pack. */
  promotion?: { name: string; brand: string };
}

function scannedPack(ctx: Context, next: string): ScannedPack | undefined {
  const code = /^\/(?:q|play)\/([A-Za-z0-9-]+)$/.exec(next)?.[1];
  const unit = code ? findUnitByCode(ctx.db, code.toUpperCase()) : undefined;
  if (!unit) return undefined;
  if (unit.promotion_id === null) return { code: unit.code, sku: unit.sku_name };
  const promotion = getPromotion(ctx.db, unit.promotion_id);
  return { code: unit.code, sku: unit.sku_name, promotion: { name: promotion.content.name, brand: getBrand(ctx.db, promotion.brand_id).name } };
}
