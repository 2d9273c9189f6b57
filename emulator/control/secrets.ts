/**
 * `GET /_emulator/secrets`: every secret value the emulator issued (agency keys, consumer session
 * tokens), so the harness can search a browser for them. They derive from the seed and a serial
 * (domain/secrets.ts), so the emulator names them again without storing them. Verifiers are not
 * here: none is kept, and the harness finds one by the S256 the observed call carries (observations.ts).
 * The control guard (plane.ts) keeps this on loopback (or behind the control token).
 * @see spec §2.1, §2.3, §5 (experience) rule 6
 */
import { type EndpointTable, anyone } from '../endpoints.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { issueSecret } from '../domain/secrets.js';
import { WholeText, validate } from '../validation.js';
import type { Secrets } from '../wire-contract.js';
import { listCounters } from '../store/db.js';
import { type Environment, findKeyBySecret, keySecret } from '../store/keys.js';

/** At most this many session tokens per answer; ask again with a later `after_session`. */
const TOKENS_PER_ANSWER = 5000;

const Query = z.strictObject({ after_session: WholeText(0, Number.MAX_SAFE_INTEGER).optional() });

export function secretRows(endpoint: EndpointTable<Context>): void {
  endpoint({
    method: 'get', path: '/secrets', caller: anyone,
    input: (req) => validate(Query, req.query, { hint: 'after_session must be a whole number.', details: false }).after_session,
    run: (ctx, _caller, after): Secrets => {
      const counters = listCounters(ctx.db);
      return {
        counters,
        keys: agencyKeys(ctx, counters.agency_key ?? 0),
        session_tokens: after === undefined ? [] : sessionTokens(ctx, after, counters.session ?? 0),
      };
    },
    answer: (secrets) => ({ status: 200, body: secrets }),
  });
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
