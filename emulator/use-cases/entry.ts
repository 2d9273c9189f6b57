/**
 * The entry, one use case: whether this collector may enter this pack now (the admission rule,
 * evaluated once per entry), the draw with stock, budget and a code unlock's pool, the stored
 * entry, and the event that tells of it. An agency's production entry, the service's own hosted
 * page and the sandbox's synthetic entries all store through here; each caller turns the answer
 * into its own response. Where a delivery stands at a time is domain/delivery.ts: reads ask it and
 * never write; an agency session's entry is answered as it stands now.
 * @see spec §1 (the service alone decides the outcome), §2.4 to §2.6, §3, §4.1 rules 2, 4 and 5
 */
import type { Context } from '../context.js';
import { announce } from '../events.js';
import { type Admission, type Channel, type EntryAdmission, admit, admitEntry } from '../domain/admission.js';
import type { ConsentInput } from '../domain/consent.js';
import { deliveryAsOf } from '../domain/delivery.js';
import { canAward, drawNumber, prizeForNumber } from '../domain/draw.js';
import { DELIVERED_CODE } from '../domain/mechanics.js';
import { claimPoolCode } from '../store/code-pool.js';
import { codeSuffix, prizeCode } from '../store/code-text.js';
import { recordSandboxEntry } from '../store/coverage.js';
import type { Db } from '../store/db.js';
import { type Entry, type EntryMaker, type Won, findEntryForSession, findProductionEntryForPack, storeEntry } from '../store/entries.js';
import { type Campaign, awardPrize, awardState, loadCampaign } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';

/** Who enters which pack, through which channel (an agency's experience, or the service's own page). */
export interface PackEntrant {
  campaign: Campaign;
  channel: Channel;
  collectorId: number | null;
  unitId: number;
  country: string | null;
}

/** The admission's answer, with the pack's entry when it is the entrant's: found (`entered`) or drawn now (`open`). */
export interface PackEntry<A extends Admission | EntryAdmission = EntryAdmission> {
  admission: A;
  entry?: Entry;
}

/** May the entrant enter now, before consent: the session read's eligibility and the hosted page's form. `existing` is the pack's entry when the caller has it. */
export function packAdmission(ctx: Context, entrant: PackEntrant, existing = packEntryOf(ctx.db, entrant)): PackEntry<Admission> {
  const admission = admit(admissionInput(ctx, entrant, existing));
  return { admission, entry: admission.kind === 'entered' ? existing : undefined };
}

/**
 * The production entry: admission with the consent sent, then the draw when open. `sessionId`
 * names the session the new entry belongs to; the hosted page opens one only when the draw runs.
 */
export function enterPack(ctx: Context, entrant: PackEntrant, consent: ConsentInput | undefined, sessionId: () => number): PackEntry {
  const entered = ctx.db
    .transaction((): PackEntry & { created?: Entry } => {
      const existing = packEntryOf(ctx.db, entrant);
      const admission = admitEntry(admissionInput(ctx, entrant, existing), consent);
      if (admission.kind === 'entered') return { admission, entry: existing };
      if (admission.kind !== 'open') return { admission };
      const { campaign, collectorId, unitId, country } = entrant;
      const entry = drawEntry(writerOf(ctx), { campaign, collectorId, unitId, country, sessionId: sessionId(), sandbox: false, termsVersion: consent?.terms_version ?? null });
      return { admission, entry, created: entry };
    })
    .immediate();
  if (entered.created) announce(ctx, 'entry.created', { entryId: entered.created.id });
  return { admission: entered.admission, entry: entered.entry };
}

/** An agency session's entry: its campaign, the admission it was judged by, and the entry as it stands now. */
export interface SessionEntry extends PackEntry {
  campaign: Campaign;
}

/**
 * An agency session's entry: the sandbox's synthetic one, or the production entry of the session's
 * pack, by its collector and journey country.
 */
export function enterSession(ctx: Context, session: Session, consent: ConsentInput | undefined): SessionEntry {
  const campaign = loadCampaign(ctx.db, session.promotion_id);
  const { admission, entry } = session.sandbox
    ? enterSandbox(ctx, session, campaign)
    : enterPack(ctx, { campaign, channel: 'agency', collectorId: session.collector_id, unitId: session.unit_id!, country: session.country }, consent, () => session.id);
  return { campaign, admission, entry: entry && deliveryAsOf(entry, ctx.clock.now()) };
}

/** What a sandbox scenario refuses every entry with, as the admission rule would. @see spec §4.1 rule 4 */
export function sandboxRefusal(scenario: string | null): Admission | undefined {
  if (scenario === 'ineligible') return { kind: 'ineligible', reason: 'country_restricted' };
  if (scenario === 'already_entered') return { kind: 'taken' };
  return undefined;
}

/** Sandbox results are synthetic: the session's scenario decides; no pack, no draw, no stock, no scans. @see spec §4.1 rule 4 */
function enterSandbox(ctx: Context, session: Session, campaign: Campaign): PackEntry {
  const now = ctx.clock.now();
  const scenario = session.scenario!;
  const refusal = sandboxRefusal(scenario);
  if (refusal) {
    // Coverage counts the call even though the scenario refuses it.
    recordSandboxEntry(ctx.db, session.key_id, scenario, now);
    return { admission: refusal };
  }
  return ctx.db
    .transaction((): PackEntry => {
      recordSandboxEntry(ctx.db, session.key_id, scenario, now);
      const existing = findEntryForSession(ctx.db, session.id);
      if (existing) return { admission: { kind: 'entered' }, entry: existing };
      const delivery = { won: 'instant', pending: 'delayed', failed: 'failed' } as const;
      const mode = delivery[scenario as keyof typeof delivery];
      const code = DELIVERED_CODE[campaign.promotion.content.mechanic] === 'none' ? null : `SANDBOX-${codeSuffix(ctx.seed, `sandbox-code:${session.id}`, 8)}`;
      const won = mode && { prize: campaign.prizes[0]!, delivery: mode, code };
      const subject = { campaign, sessionId: session.id, sandbox: true, collectorId: session.collector_id, unitId: session.unit_id, country: session.country, termsVersion: null };
      return { admission: { kind: 'entered' }, entry: storeOutcome(writerOf(ctx), subject, won) };
    })
    .immediate();
}

/** Where and when an entry is written: the seed makes its draw, the clock its times. */
export interface Writer {
  db: Db;
  seed: string;
  now: number;
}

/**
 * The production draw for a pack: its seeded number picks a prize (a code-unlock or content
 * promotion's odds add up to 1, so one is always drawn), awarded while stock, budget and, for a
 * code unlock, the pool last.
 */
function drawEntry(writer: Writer, subject: EntryMaker & { unitId: number }): Entry {
  const { campaign, unitId } = subject;
  const { promotion, prizes } = campaign;
  const drawn = prizeForNumber(drawNumber(writer.seed, promotion.id, unitId), prizes);
  if (!drawn) return storeOutcome(writer, subject);
  const { stock, budgetLeft } = awardState(writer.db, promotion, drawn);
  if (!canAward(drawn, stock, budgetLeft)) return storeOutcome(writer, subject);
  const code = deliveredCode(writer, campaign, unitId);
  if (code === undefined || !awardPrize(writer.db, promotion.id, drawn)) return storeOutcome(writer, subject);
  return storeOutcome(writer, subject, { prize: drawn, delivery: drawn.delivery, code });
}

/** The code a won entry delivers (null: none, for content); undefined when a code unlock's pool is empty. */
function deliveredCode(writer: Writer, { promotion, brand }: Campaign, unitId: number): string | null | undefined {
  switch (DELIVERED_CODE[promotion.content.mechanic]) {
    case 'pack':
      return prizeCode(writer.seed, brand.prefix, unitId);
    case 'pool':
      return claimPoolCode(writer.db, promotion.id, unitId);
    case 'none':
      return null;
  }
}

/** Stores the subject's entry, won when a prize is given (store/entries.ts). */
function storeOutcome(writer: Writer, subject: EntryMaker, won?: Won): Entry {
  return storeEntry(writer.db, subject, writer.now, won);
}

function writerOf(ctx: Context): Writer {
  return { db: ctx.db, seed: ctx.seed, now: ctx.clock.now() };
}

function packEntryOf(db: Db, { campaign, unitId }: PackEntrant): Entry | undefined {
  return findProductionEntryForPack(db, campaign.promotion.id, unitId);
}

function admissionInput(ctx: Context, entrant: PackEntrant, existing: Entry | undefined) {
  return { promotion: entrant.campaign.promotion, channel: entrant.channel, now: ctx.clock.now(), collectorId: entrant.collectorId, country: entrant.country, existing };
}
