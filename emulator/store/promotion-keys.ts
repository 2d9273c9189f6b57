/**
 * The agency keys of one promotion as the brand's console sees them. The service's own key
 * (service-keys.ts) is not an agency key and never listed. @see spec §2.1
 */
import type { AgencyKey, Environment } from './keys.js';
import type { Db } from './db.js';

export type KeyStatus = 'active' | 'revoked' | 'expired';

export function listPromotionKeys(db: Db, promotionId: number): AgencyKey[] {
  return db
    .prepare(`SELECT id, promotion_id, environment, masked, created_at, expires_at, revoked_at FROM agency_keys
      WHERE promotion_id = ? AND id NOT IN (SELECT key_id FROM service_keys) ORDER BY id`)
    .all(promotionId) as AgencyKey[];
}

export function keyStatus(key: AgencyKey, now: number): KeyStatus {
  if (key.revoked_at !== null) return 'revoked';
  return now >= key.expires_at ? 'expired' : 'active';
}

export function hasActiveKey(db: Db, promotionId: number, environment: Environment, now: number): boolean {
  return listPromotionKeys(db, promotionId).some((key) => key.environment === environment && keyStatus(key, now) === 'active');
}
