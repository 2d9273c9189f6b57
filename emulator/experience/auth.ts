/** Agency key and session authentication. @see spec §5 (experience) rules 1 to 3 */
import { expired } from '../domain/limits.js';
import type { Context } from '../context.js';
import { type AgencyKey, findKeyBySecret } from '../store/keys.js';
import { type Session, findSessionByToken } from '../store/sessions.js';
import { ApiError } from './errors.js';

export function bearerOf(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return match?.[1];
}

export function authenticateKey(ctx: Context, authorization: string | undefined): AgencyKey {
  const secret = bearerOf(authorization);
  if (!secret) throw new ApiError('invalid_key', { message: 'Send the agency key as "Authorization: Bearer <AGENCY_KEY>".' });
  const key = findKeyBySecret(ctx.db, secret);
  if (!key) throw new ApiError('invalid_key');
  if (key.revoked_at !== null) throw new ApiError('key_revoked');
  if (expired(key.expires_at, ctx.clock.now())) throw new ApiError('key_expired');
  return key;
}

/** A session is valid for 30 minutes and only with the key that exchanged it. @see spec §5 rule 2, §4.1 rule 3 */
export function authenticateSession(ctx: Context, key: AgencyKey, token: string | undefined): Session {
  if (!token) throw new ApiError('invalid_session', { message: 'Send the session token in the X-Service-Session header. Ask the customer to rescan.' });
  const session = findSessionByToken(ctx.db, token);
  if (!session || session.key_id !== key.id || session.revoked_at !== null || expired(session.expires_at, ctx.clock.now())) {
    throw new ApiError('invalid_session');
  }
  return session;
}
