/** Collectors' sign-ins in the simulated browser: a random cookie value, stored hashed. */
import { randomBytes } from 'node:crypto';
import { hashSecret } from '../domain/secrets.js';
import { BROWSER_SESSION_LIFETIME_MS, expired } from '../domain/limits.js';
import type { Db } from './db.js';

export function createBrowserSession(db: Db, collectorId: number, now: number): string {
  const token = randomBytes(32).toString('base64url');
  db.prepare('INSERT INTO browser_sessions (token_hash, collector_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
    hashSecret(token), collectorId, now, now + BROWSER_SESSION_LIFETIME_MS,
  );
  return token;
}

/** The signed-in collector's id, or undefined when the token is unknown or expired. */
export function collectorOfBrowserSession(db: Db, token: string, now: number): number | undefined {
  const row = db.prepare('SELECT collector_id, expires_at FROM browser_sessions WHERE token_hash = ?').get(hashSecret(token)) as
    | { collector_id: number; expires_at: number }
    | undefined;
  return row && !expired(row.expires_at, now) ? row.collector_id : undefined;
}

export function endBrowserSession(db: Db, token: string): void {
  db.prepare('DELETE FROM browser_sessions WHERE token_hash = ?').run(hashSecret(token));
}
