/** Consumer sessions: 30 minutes, bound to the key that exchanged them. @see spec §2.3, §5 rule 2 */
import { SESSION_LIFETIME_MS } from '../domain/limits.js';
import { hashSecret, issueSecret } from '../domain/secrets.js';
import { type Db, nextSerial } from './db.js';

export interface Session {
  id: number;
  key_id: number;
  promotion_id: number;
  sandbox: number;
  scenario: string | null;
  collector_id: number | null;
  unit_id: number | null;
  country: string | null;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface NewSession {
  keyId: number;
  promotionId: number;
  sandbox: boolean;
  scenario?: string;
  collectorId?: number;
  unitId?: number;
  country?: string | null;
  now: number;
}

/** What a session answers as: every column but the token's hash. */
const SESSION_COLUMNS = 'id, key_id, promotion_id, sandbox, scenario, collector_id, unit_id, country, created_at, expires_at, revoked_at';

export function createSession(db: Db, seed: string, input: NewSession): { session: Session; token: string } {
  const token = issueSecret(seed, 'session', nextSerial(db, 'session'));
  const session = db
    .prepare(`INSERT INTO sessions (token_hash, key_id, promotion_id, sandbox, scenario, collector_id, unit_id, country, created_at, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${SESSION_COLUMNS}`)
    .get(
      hashSecret(token), input.keyId, input.promotionId, input.sandbox ? 1 : 0, input.scenario ?? null,
      input.collectorId ?? null, input.unitId ?? null, input.country ?? null, input.now, input.now + SESSION_LIFETIME_MS,
    ) as Session;
  return { session, token };
}

export function findSessionByToken(db: Db, token: string): Session | undefined {
  return db
    .prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE token_hash = ?`)
    .get(hashSecret(token)) as Session | undefined;
}

export function revokeSession(db: Db, id: number, now: number): void {
  db.prepare('UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(now, id);
}

/** The sessions opened on one pack, oldest first. */
export function sessionsOnPack(db: Db, unitId: number): Session[] {
  return db
    .prepare(`SELECT ${SESSION_COLUMNS} FROM sessions WHERE unit_id = ? ORDER BY id`)
    .all(unitId) as Session[];
}
