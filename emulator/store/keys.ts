/**
 * Agency keys: one promotion each, sandbox or production, 90 days, revocable; as the brand's
 * console lists them; and the service's own key of each promotion. @see spec §2.1, §5
 */
import { KEY_LIFETIME_MS, expired } from '../domain/limits.js';
import { randomBytes } from 'node:crypto';
import { hashSecret, issueSecret, maskSecret } from '../domain/secrets.js';
import { cached } from '../fast-path/cache.js';
import { type Db, nextSerial } from './db.js';

export type Environment = 'sandbox' | 'production';

export interface AgencyKey {
  id: number;
  promotion_id: number;
  environment: Environment;
  masked: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

/** Creates a key; the secret is returned once and only its hash is kept. */
export function createAgencyKey(
  db: Db,
  seed: string,
  input: { promotionId: number; environment: Environment; now: number },
): AgencyKey & { secret: string; serial: number } {
  const serial = nextSerial(db, 'agency_key');
  const secret = keySecret(seed, input.environment, serial);
  const key = db
    .prepare(`INSERT INTO agency_keys (promotion_id, environment, key_hash, masked, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?) RETURNING id, promotion_id, environment, masked, created_at, expires_at, revoked_at`)
    .get(input.promotionId, input.environment, hashSecret(secret), maskSecret(secret), input.now, input.now + KEY_LIFETIME_MS) as AgencyKey;
  return { ...key, secret, serial };
}

export function keySecret(seed: string, environment: Environment, serial: number): string {
  return issueSecret(seed, environment === 'sandbox' ? 'sandbox_key' : 'production_key', serial);
}

const SELECT_KEY = 'SELECT id, promotion_id, environment, masked, created_at, expires_at, revoked_at FROM agency_keys';

/** Every request looks its key up: found keys are kept in memory until any key is written (revoked, reset). */
export function findKeyBySecret(db: Db, secret: string): AgencyKey | undefined {
  return cached(db, 'keys', secret, () => {
    const key = db
      .prepare(`${SELECT_KEY} WHERE key_hash = ?`)
      .get(hashSecret(secret)) as AgencyKey | undefined;
    return key && Object.freeze(key);
  });
}

export function revokeKey(db: Db, id: number, now: number): boolean {
  return db.prepare('UPDATE agency_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
}

export type KeyStatus = 'active' | 'revoked' | 'expired';

/** The agency keys of one promotion as the brand's console sees them: never the service's own key. */
export function listPromotionKeys(db: Db, promotionId: number): AgencyKey[] {
  return db
    .prepare(`${SELECT_KEY} WHERE promotion_id = ? AND id NOT IN (SELECT key_id FROM service_keys) ORDER BY id`)
    .all(promotionId) as AgencyKey[];
}

/** Every key of every promotion, the service's own included, oldest first. */
export function listAgencyKeys(db: Db): AgencyKey[] {
  return db.prepare(`${SELECT_KEY} ORDER BY id`).all() as AgencyKey[];
}

export function keyStatus(key: AgencyKey, now: number): KeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  return expired(key.expires_at, now) ? 'expired' : 'active';
}

export function hasActiveKey(db: Db, promotionId: number, environment: Environment, now: number): boolean {
  return listPromotionKeys(db, promotionId).some((key) => key.environment === environment && keyStatus(key, now) === 'active');
}

/**
 * The hosted page's entries need a session, and every session hangs on a key (schema-core). The
 * service's own entry therefore uses one service key per promotion: created revoked, with a
 * secret nobody ever sees, so it can never authenticate, count as an active production key or
 * appear in the brand's key list.
 */
export function serviceKeyId(db: Db, promotionId: number, now: number): number {
  const known = db.prepare('SELECT key_id FROM service_keys WHERE promotion_id = ?').get(promotionId) as { key_id: number } | undefined;
  if (known) return known.key_id;
  const { id } = db
    .prepare(`INSERT INTO agency_keys (promotion_id, environment, key_hash, masked, created_at, expires_at, revoked_at)
      VALUES (?, 'production', ?, 'service', ?, ?, ?) RETURNING id`)
    .get(promotionId, hashSecret(randomBytes(32).toString('base64url')), now, now + KEY_LIFETIME_MS, now) as { id: number };
  db.prepare('INSERT INTO service_keys (promotion_id, key_id) VALUES (?, ?)').run(promotionId, id);
  return id;
}
