/**
 * Every secret value the emulator issued (agency keys, consumer session tokens), for the harness to
 * search a browser for. They derive from the seed and a serial (domain/secrets.ts), so they are
 * named again without being stored. Verifiers are not here: none is kept, and the harness finds one
 * by the S256 the observed call carries.
 */
import type { Context } from '../../context.js';
import { issueSecret } from '../../domain/secrets.js';
import { listCounters } from '../../store/db.js';
import { type Environment, findKeyBySecret, keySecret } from '../../store/keys.js';
import type { Secrets } from '../../wire-contract.js';

/** At most this many session tokens per answer; ask again with a later `afterSession`. */
const TOKENS_PER_ANSWER = 5000;

/** The counters, every agency key, and the session tokens after serial `afterSession` (none without it). */
export function issuedSecrets(ctx: Context, afterSession: number | undefined): Secrets {
  const counters = listCounters(ctx.db);
  return {
    counters,
    keys: agencyKeys(ctx, counters.agency_key ?? 0),
    session_tokens: afterSession === undefined ? [] : sessionTokens(ctx, afterSession, counters.session ?? 0),
  };
}

/** Every agency key ever created, active or not: a revoked key in a browser is still a leak. */
function agencyKeys(ctx: Context, lastSerial: number): Array<{ id: number; environment: Environment; secret: string }> {
  const keys: Array<{ id: number; environment: Environment; secret: string }> = [];
  for (let serial = 1; serial <= lastSerial; serial += 1) {
    for (const environment of ['sandbox', 'production'] as const) {
      const secret = keySecret(ctx.seed, environment, serial);
      const id = findKeyBySecret(ctx.db, secret)?.id;
      if (id !== undefined) keys.push({ id, environment, secret });
    }
  }
  return keys;
}

function sessionTokens(ctx: Context, after: number, last: number): string[] {
  const tokens: string[] = [];
  for (let serial = after + 1; serial <= last && tokens.length < TOKENS_PER_ANSWER; serial += 1) tokens.push(issueSecret(ctx.seed, 'session', serial));
  return tokens;
}
