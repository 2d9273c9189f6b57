/**
 * The hosted page's entries need a session, and every session hangs on a key (schema-core). The
 * service's own entry therefore uses one service key per promotion: created revoked, with a
 * secret nobody ever sees, so it can never authenticate, count as an active production key or
 * appear in the brand's key list.
 */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../domain/secrets.js';
import type { Db } from './db.js';
import { KEY_LIFETIME_MS } from './keys.js';

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
