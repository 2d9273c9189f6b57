/**
 * A pack's production entry: whether this collector may enter this pack now (the admission rule,
 * evaluated once per entry), the draw with stock, budget and a code unlock's pool, the stored
 * entry, and the event that tells of it. An agency's production entry (session-entry.ts) and the
 * service's own hosted page (use-cases/journey/hosted-entry.ts) both enter through here; each turns the
 * answer into its own response.
 * @see spec §1 (the service alone decides the outcome), §2.4 to §2.6, §3, §4.1 rules 2 and 5
 */
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { type Admission, type Channel, type EntryAdmission, admit, admitEntry } from '../domain/admission.js';
import type { ConsentInput } from '../domain/consent.js';
import { canAward, drawNumber, prizeForNumber } from '../domain/draw.js';
import { CODE_SOURCE } from '../domain/mechanics.js';
import { claimPoolCode } from '../store/code-pool.js';
import { prizeCode } from '../store/code-text.js';
import { type Entry, type EntryMaker, findProductionEntryForPack, storeEntry } from '../store/entries.js';
import { awardPrize, awardState } from '../store/promotions.js';
import type { Campaign } from '../store/promotions.js';

/** Who enters which pack, through which channel (an agency's experience, or the service's own page). */
export interface PackEntrant {
  campaign: Campaign;
  channel: Channel;
  collectorId: number | null;
  /** The pack's id: its row in `units`. */
  unitId: number;
  country: string | null;
}

/** The admission's answer, with the pack's entry when it is the entrant's: found (`entered`) or drawn now (`open`). */
export interface PackOutcome<A extends Admission | EntryAdmission = EntryAdmission> {
  admission: A;
  entry?: Entry;
}

/** May the entrant enter now, before consent: the session read's eligibility and the hosted page's form. `existing` is the pack's entry when the caller has it. */
export function packAdmission(ctx: Context, entrant: PackEntrant, existing = packEntryOf(ctx, entrant)): PackOutcome<Admission> {
  const admission = admit(admissionInput(ctx, entrant, existing));
  return { admission, entry: admission.kind === 'entered' ? existing : undefined };
}

/**
 * The production entry: admission with the consent sent, then the draw when open. `sessionId`
 * names the session the new entry belongs to; the hosted page opens one only when the draw runs.
 */
export function enterPack(ctx: Context, entrant: PackEntrant, consent: ConsentInput | undefined, sessionId: () => number): PackOutcome {
  const entered = ctx.db
    .transaction((): PackOutcome & { created?: Entry } => {
      const existing = packEntryOf(ctx, entrant);
      const admission = admitEntry(admissionInput(ctx, entrant, existing), consent);
      if (admission.kind === 'entered') return { admission, entry: existing };
      if (admission.kind !== 'open') return { admission };
      const { campaign, collectorId, unitId, country } = entrant;
      const entry = drawEntry(ctx, { campaign, collectorId, unitId, country, sessionId: sessionId(), sandbox: false, termsVersion: consent?.terms_version ?? null });
      return { admission, entry, created: entry };
    })
    .immediate();
  if (entered.created) announce(ctx, 'entry.created', { entryId: entered.created.id });
  return { admission: entered.admission, entry: entered.entry };
}

/**
 * The production draw for a pack: its seeded number picks a prize (a code-unlock or content
 * promotion's odds add up to 1, so one is always drawn), awarded while stock, budget and, for a
 * code unlock, the pool last.
 */
function drawEntry(ctx: Context, subject: EntryMaker & { unitId: number }): Entry {
  const { campaign, unitId } = subject;
  const { promotion, prizes } = campaign;
  const now = ctx.clock.now();
  const drawn = prizeForNumber(drawNumber(ctx.seed, promotion.id, unitId), prizes);
  if (!drawn) return storeEntry(ctx.db, subject, now);
  const { stock, budgetLeft } = awardState(ctx.db, promotion, drawn);
  if (!canAward(drawn, stock, budgetLeft)) return storeEntry(ctx.db, subject, now);
  const code = deliveredCode(ctx, campaign, unitId);
  if (code === undefined || !awardPrize(ctx.db, promotion.id, drawn)) return storeEntry(ctx.db, subject, now);
  return storeEntry(ctx.db, subject, now, { prize: drawn, delivery: drawn.delivery, code });
}

/** The code a won entry delivers (null: none, for content); undefined when a code unlock's pool is empty. */
function deliveredCode(ctx: Context, { promotion, brand }: Campaign, unitId: number): string | null | undefined {
  switch (CODE_SOURCE[promotion.content.mechanic]) {
    case 'pack':
      return prizeCode(ctx.seed, brand.prefix, unitId);
    case 'pool':
      return claimPoolCode(ctx.db, promotion.id, unitId);
    case 'none':
      return null;
  }
}

function packEntryOf(ctx: Context, { campaign, unitId }: PackEntrant): Entry | undefined {
  return findProductionEntryForPack(ctx.db, campaign.promotion.id, unitId, ctx.clock.now());
}

function admissionInput(ctx: Context, entrant: PackEntrant, existing: Entry | undefined) {
  return { promotion: entrant.campaign.promotion, channel: entrant.channel, now: ctx.clock.now(), collectorId: entrant.collectorId, country: entrant.country, existing };
}
