/**
 * Request tokens: the `service_request` a routed scan carries to the agency's callback. 5 minutes,
 * bound to the collector, the pack and the callback; single use; stored hashed.
 * @see spec §4.3 step 2, §5 rule 4, §8
 */
import { REQUEST_TOKEN_LIFETIME_MS } from '../domain/limits.js';
import { hashSecret, issueSecret } from '../domain/secrets.js';
import { type Db, nextSerial } from './db.js';

export interface RequestToken {
  id: number;
  promotion_id: number;
  collector_id: number;
  unit_id: number;
  country: string | null;
  callback_url: string;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
  /** Set when the brand moved routing before the token was used (store/journeys.ts). */
  voided_at: number | null;
}

export interface RequestGrant {
  promotionId: number;
  collectorId: number;
  unitId: number;
  country: string | null;
  callbackUrl: string;
  now: number;
}

export function issueRequestToken(db: Db, seed: string, grant: RequestGrant): string {
  const token = issueSecret(seed, 'request_token', nextSerial(db, 'request_token'));
  db.prepare(`INSERT INTO request_tokens (token_hash, promotion_id, collector_id, unit_id, country, callback_url, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(
    hashSecret(token), grant.promotionId, grant.collectorId, grant.unitId, grant.country, grant.callbackUrl, grant.now, grant.now + REQUEST_TOKEN_LIFETIME_MS,
  );
  return token;
}

const COLUMNS = 'id, promotion_id, collector_id, unit_id, country, callback_url, created_at, expires_at, consumed_at, voided_at';

export function findRequestToken(db: Db, token: string): RequestToken | undefined {
  return db.prepare(`SELECT ${COLUMNS} FROM request_tokens WHERE token_hash = ?`).get(hashSecret(token)) as RequestToken | undefined;
}

/** Marks the token used; only an unconsumed, unvoided row matches, so two concurrent Continues cannot both pass. */
export function consumeRequestToken(db: Db, id: number, now: number): boolean {
  return db.prepare('UPDATE request_tokens SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL AND voided_at IS NULL').run(now, id).changes === 1;
}

/** Voids the promotion's tokens not yet continued (journeys.ts). */
export function voidRequestTokens(db: Db, promotionId: number, now: number): void {
  db.prepare('UPDATE request_tokens SET voided_at = ? WHERE promotion_id = ? AND consumed_at IS NULL AND voided_at IS NULL').run(now, promotionId);
}
