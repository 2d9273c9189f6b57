/** Agency keys: one promotion each, sandbox or production, 90 days, revocable. @see spec §2.1, §5 */
import { hashSecret, issueSecret, maskSecret } from '../domain/secrets.js';
import { cached } from './cache.js';
import { type Db, nextSerial } from './db.js';

export const KEY_LIFETIME_MS = 90 * 86_400_000;

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

/** Every request looks its key up: found keys are kept in memory until any key is written (revoked, reset). */
export function findKeyBySecret(db: Db, secret: string): AgencyKey | undefined {
  return cached(db, 'keys', secret, () => {
    const key = db
      .prepare('SELECT id, promotion_id, environment, masked, created_at, expires_at, revoked_at FROM agency_keys WHERE key_hash = ?')
      .get(hashSecret(secret)) as AgencyKey | undefined;
    return key && Object.freeze(key);
  });
}

export function revokeKey(db: Db, id: number, now: number): boolean {
  return db.prepare('UPDATE agency_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id).changes === 1;
}
