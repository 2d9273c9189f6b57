/**
 * Authorization codes: 5 minutes, single use, bound to the PKCE challenge, the collector, the pack
 * and the promotion. @see spec §4.3 step 5, §5 rule 4
 */
import { CODE_LIFETIME_MS } from '../domain/limits.js';
import { hashSecret, issueSecret } from '../domain/secrets.js';
import { type Db, nextSerial } from './db.js';

export interface AuthCode {
  id: number;
  promotion_id: number;
  collector_id: number;
  unit_id: number;
  country: string | null;
  code_challenge: string;
  expires_at: number;
  consumed_at: number | null;
  session_id: number | null;
  /** Set when the brand moved routing before the code was exchanged (store/journeys.ts). */
  voided_at: number | null;
}

export interface CodeGrant {
  promotionId: number;
  collectorId: number;
  unitId: number;
  country: string | null;
  codeChallenge: string;
  now: number;
}

export function issueAuthCode(db: Db, seed: string, grant: CodeGrant): string {
  const code = issueSecret(seed, 'code', nextSerial(db, 'code'));
  db.prepare(`INSERT INTO auth_codes (code_hash, promotion_id, collector_id, unit_id, country, code_challenge, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?)`).run(hashSecret(code), grant.promotionId, grant.collectorId, grant.unitId, grant.country, grant.codeChallenge, grant.now + CODE_LIFETIME_MS);
  return code;
}

/**
 * Marks the code used and returns it as it was before. Single use is structural: the UPDATE only
 * matches an unconsumed row, so two concurrent exchanges cannot both get it.
 */
export function consumeAuthCode(db: Db, code: string, now: number): { code?: AuthCode; alreadyUsed?: AuthCode } {
  const hash = hashSecret(code);
  const fresh = db
    .prepare('UPDATE auth_codes SET consumed_at = ? WHERE code_hash = ? AND consumed_at IS NULL RETURNING *')
    .get(now, hash) as (AuthCode & { code_hash?: string }) | undefined;
  if (fresh) return { code: { ...fresh, consumed_at: null } };
  const used = db.prepare('SELECT * FROM auth_codes WHERE code_hash = ?').get(hash) as AuthCode | undefined;
  return used ? { alreadyUsed: used } : {};
}

export function linkCodeToSession(db: Db, codeId: number, sessionId: number): void {
  db.prepare('UPDATE auth_codes SET session_id = ? WHERE id = ?').run(sessionId, codeId);
}

/** The pack an authorization code was issued for, found by the code's hash (the control plane keeps no code). */
export function unitOfAuthCode(db: Db, codeHash: string): number | null {
  const row = db.prepare('SELECT unit_id FROM auth_codes WHERE code_hash = ?').get(codeHash) as { unit_id: number } | undefined;
  return row?.unit_id ?? null;
}

/** The authorization codes issued for one pack, oldest first. */
export function authCodesForPack(db: Db, unitId: number): AuthCode[] {
  return db
    .prepare('SELECT id, promotion_id, collector_id, unit_id, country, code_challenge, expires_at, consumed_at, session_id, voided_at FROM auth_codes WHERE unit_id = ? ORDER BY id')
    .all(unitId) as AuthCode[];
}

/** Voids the promotion's codes not yet exchanged (journeys.ts). */
export function voidAuthCodes(db: Db, promotionId: number, now: number): void {
  db.prepare('UPDATE auth_codes SET voided_at = ? WHERE promotion_id = ? AND consumed_at IS NULL AND voided_at IS NULL').run(now, promotionId);
}
