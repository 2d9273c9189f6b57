/**
 * Journeys under way: request tokens not yet continued and authorization codes not yet exchanged.
 * When the brand moves routing (a callback change, a pause, revoking the last production key),
 * they are voided, so none sends a `service_code` to a callback or makes a session the brand no
 * longer routes to. @see spec §1 rules, decisions/010-routing-changes-void-journeys-under-way.md
 */
import { voidAuthCodes } from './codes.js';
import type { Db } from './db.js';
import { voidRequestTokens } from './request-tokens.js';

export function voidJourneys(db: Db, promotionId: number, now: number): void {
  voidRequestTokens(db, promotionId, now);
  voidAuthCodes(db, promotionId, now);
}
