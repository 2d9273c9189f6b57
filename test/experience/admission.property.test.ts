/**
 * One admission rule (issue 13): whatever the world, what the session read says of eligibility is
 * what the entry then answers, and the hosted page agrees. fast-check generates the promotion
 * (status, dates, routing, countries, terms), the collector's country, the pack's earlier entry
 * and the consent sent; each run is a fresh pack on one shared world.
 * @see spec §2.3 eligibility, §4.1 rules 2, 4 and 5, §4.2
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostedState } from '../../emulator/use-cases/journey/hosted-entry.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import { storeEntry } from '../../emulator/store/entries.js';
import { loadCampaign, setRoutingPaused, updatePromotionContent } from '../../emulator/store/promotions.js';
import { serviceKeyId } from '../../emulator/store/keys.js';
import { createSession } from '../../emulator/store/sessions.js';
import { findUnitByCode } from '../../emulator/store/units.js';
import type { Fixture, Terms } from '../../emulator/fixture.js';
import { storedCount, storedRows } from '../support/stored.js';
import { FROZEN_AT, VERIFIER, issueCodeFor, testWorld } from '../world.js';

const RUNS = 1000;
const DAY = 86_400_000;
const COLLECTORS = ['anna.weber@example.test', 'lena.gruber@example.test', 'marco.rossi@example.test', 'claire.martin@example.test', 'sam.taylor@example.test', 'no.country@example.test'];
const OTHER_COLLECTOR = 'jonas.bauer@example.test';

const world = fc.record({
  status: fc.constantFrom('live', 'draft'),
  /** Days from now to the start, and the campaign's length in days. */
  startsIn: fc.integer({ min: -60, max: 30 }),
  lasts: fc.integer({ min: 1, max: 120 }),
  routingPaused: fc.boolean(),
  countries: fc.subarray(['DE', 'AT', 'CH', 'FR']),
  countryTerms: fc.subarray(['DE', 'AT', 'CH']),
  defaultRequired: fc.boolean(),
  defaultMinimumAge: fc.option(fc.constant(16), { nil: undefined }),
});

const request = fc.record({
  collector: fc.constantFrom(...COLLECTORS),
  earlier: fc.constantFrom('none', 'same_collector', 'other_collector'),
  consent: fc.oneof(
    fc.constant(undefined),
    fc.record({ accepted: fc.boolean(), ageConfirmed: fc.option(fc.boolean(), { nil: undefined }), staleVersion: fc.boolean() }),
  ),
});

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;
type Request = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** Enough unentered packs for every run: each run enters a fresh one. */
const manyPacks = (fixture: Fixture): Fixture => {
  fixture.brands[0]!.skus[0]!.batches[0]!.packs = RUNS + 100;
  fixture.history = { scans: 0 };
  return fixture;
};

/** What the spec's consent rules say of a consent object, judged here without the emulator's code. @see spec §2.4, §2.6 */
function consentIsEnough(terms: Terms, consent: Request['consent']): boolean {
  if (!consent) return !terms.required && terms.minimum_age === undefined;
  if (consent.staleVersion) return false;
  if (terms.required && !consent.accepted) return false;
  return terms.minimum_age === undefined || consent.ageConfirmed === true;
}

/** The entry's error (and the hosted page's state) each eligibility reason stands for. @see spec §4.2 */
const REFUSAL_OF_REASON = { unavailable: 'unavailable', already_entered: 'already_entered', country_missing: 'ineligible', country_restricted: 'ineligible' } as const;

describe('one admission rule (issue 13)', () => {
  it(`the session read's eligibility matches the entry's answer and the hosted page, over ${RUNS} generated worlds and requests`, async () => {
    const t = testWorld({ fixture: manyPacks });
    const { db, seed } = t.world;
    const promotionId = t.env.promotion_id;
    const original = structuredClone(t.world.fixture.promotion);
    const packs = storedRows<{ code: string; kind: string; recalled: number }>(db, 'units').filter((unit) => unit.kind === 'production' && unit.recalled === 0).map((unit) => unit.code);
    const seen = new Map<string, number>();
    let run = 0;

    await fc.assert(
      fc.asyncProperty(world, request, async (w: World, r: Request) => {
        const content = structuredClone(original);
        content.status = w.status as 'live' | 'draft';
        content.dates = { start: new Date(FROZEN_AT + w.startsIn * DAY).toISOString(), end: new Date(FROZEN_AT + (w.startsIn + w.lasts) * DAY).toISOString() };
        content.countries = w.countries;
        content.terms.by_country = Object.fromEntries(w.countryTerms.map((country) => [country, original.terms.by_country[country]!]));
        content.terms.default = { ...original.terms.default, required: w.defaultRequired };
        if (w.defaultMinimumAge === undefined) delete content.terms.default.minimum_age;
        else content.terms.default.minimum_age = w.defaultMinimumAge;
        updatePromotionContent(db, promotionId, content);
        setRoutingPaused(db, promotionId, w.routingPaused);

        const packCode = packs[run++]!;
        const collector = findCollectorByEmail(db, r.collector)!;
        const unit = findUnitByCode(db, packCode)!;
        if (r.earlier !== 'none') {
          const enteredBy = findCollectorByEmail(db, r.earlier === 'same_collector' ? r.collector : OTHER_COLLECTOR)!;
          const now = t.world.clock.now();
          const { session } = createSession(db, seed, { keyId: serviceKeyId(db, promotionId, now), promotionId, sandbox: false, collectorId: enteredBy.id, unitId: unit.id, country: enteredBy.country, now });
          storeEntry(db, { campaign: loadCampaign(db, promotionId), sessionId: session.id, sandbox: false, collectorId: enteredBy.id, unitId: unit.id, country: enteredBy.country, termsVersion: null }, now);
        }

        const code = issueCodeFor(t, { packCode, collectorEmail: r.collector });
        const exchanged = await t.experience('post', '/sessions', t.env.production_key).send({ authorization_code: code, code_verifier: VERIFIER });
        expect(exchanged.status).toBe(201);
        const token = exchanged.body.session_token as string;
        const read = await t.experience('get', '/session', t.env.production_key, token);
        const { eligibility, terms } = read.body as { eligibility: { eligible: boolean; reason: keyof typeof REFUSAL_OF_REASON | null }; terms: Terms };

        const consent = r.consent && {
          accepted: r.consent.accepted,
          ...(r.consent.ageConfirmed === undefined ? {} : { age_confirmed: r.consent.ageConfirmed }),
          terms_version: r.consent.staleVersion ? `${terms.version}-old` : terms.version,
        };
        const entries = () => storedCount(db, 'entries');
        const before = entries();
        const entry = await t.experience('post', '/session/entry', t.env.production_key, token).send(consent ? { consent } : {});

        const answer = entry.status === 200 ? 'entered' : (entry.body.error as string);
        const reason = eligibility.reason ?? (consentIsEnough(terms, r.consent) ? 'eligible' : 'consent');
        seen.set(reason, (seen.get(reason) ?? 0) + 1);
        if (eligibility.eligible) {
          expect(eligibility.reason).toBeNull();
          // Eligible: the entry goes in (or comes back, for the collector's own earlier entry) once consent is enough.
          const consentOk = r.earlier === 'same_collector' || consentIsEnough(terms, r.consent);
          expect(answer).toBe(consentOk ? 'entered' : 'consent_required');
        } else {
          expect(answer).toBe(REFUSAL_OF_REASON[eligibility.reason!]);
          expect(entries()).toBe(before);
        }
        if (answer === 'entered' && r.earlier === 'none') expect(entries()).toBe(before + 1);

        // The hosted page asks the same rule on the service's channel, where routing pauses do not count.
        if (!w.routingPaused) {
          const hosted = hostedState(t.world, { campaign: loadCampaign(db, promotionId), collector, unit });
          if (!eligibility.eligible) expect(hosted.kind).toBe(REFUSAL_OF_REASON[eligibility.reason!]);
          else expect(['open', 'entered']).toContain(hosted.kind);
        }
      }),
      { numRuns: RUNS, seed: 20261121, endOnFailure: true },
    );

    expect(run).toBe(RUNS);
    // The generators reach every verdict, so the property is not vacuous.
    expect([...seen.keys()].sort()).toEqual(['already_entered', 'consent', 'country_missing', 'country_restricted', 'eligible', 'unavailable']);
  }, 180_000);
});
