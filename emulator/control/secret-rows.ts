/**
 * The control plane's row `GET /_emulator/secrets`: every secret value the emulator issued, so the
 * harness can search a browser for them (use-cases/control/issued-secrets.ts); session tokens only
 * with `?after_session=N`, those after serial N. The control guard (plane.ts) keeps this on
 * loopback (or behind the control token).
 * @see spec §2.1, §2.3, §5 (experience) rule 6
 */
import { type EndpointTable, anyone } from '../endpoints.js';
import { z } from 'zod';
import type { Context } from '../context.js';
import { WholeText, validate } from '../validation.js';
import { issuedSecrets } from '../use-cases/control/issued-secrets.js';

const Query = z.strictObject({ after_session: WholeText(0, Number.MAX_SAFE_INTEGER).optional() });

export function secretRows(endpoint: EndpointTable<Context>): void {
  endpoint({
    method: 'get', path: '/secrets', caller: anyone,
    input: (req) => validate(Query, req.query, { hint: 'after_session must be a whole number.', details: false }).after_session,
    run: (ctx, _caller, afterSession) => issuedSecrets(ctx, afterSession),
    answer: (secrets) => ({ status: 200, body: secrets }),
  });
}
