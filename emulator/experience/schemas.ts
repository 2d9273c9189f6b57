/** Request bodies of the experience API. @see spec §4.1, §2.6 */
import { z } from 'zod';
import { apiDocs } from '../api-docs.js';
import { CODE_LIFETIME_MS, inWords } from '../domain/limits.js';
import { SANDBOX_SCENARIOS } from '../use-cases/sandbox.js';
import { detailsOf } from '../validation.js';

export const SandboxSessionBody = z
  .strictObject({ scenario: z.enum(SANDBOX_SCENARIOS) })
  .register(apiDocs, { id: 'SandboxSessionBody', description: 'With a sandbox key: the scenario whose synthetic result the session gives.' });

export const ProductionSessionBody = z
  .strictObject({
    authorization_code: z.string().min(1).max(512).register(apiDocs, { description: `The \`service_code\` the callback received; single-use, ${inWords(CODE_LIFETIME_MS)}.` }),
    code_verifier: z.string().min(1).max(512).register(apiDocs, { description: 'The PKCE verifier stored server-side for this `state`.' }),
  })
  .register(apiDocs, { id: 'ProductionSessionBody', description: 'With a production key: the authorization-code exchange with PKCE. (spec §4.3 step 6, §5)' });

export const ConsentSchema = z
  .strictObject({
    accepted: z.boolean(),
    age_confirmed: z.boolean().optional().register(apiDocs, { description: 'Required when the terms have a minimum_age.' }),
    terms_version: z.string().max(256).register(apiDocs, { description: "The session's terms.version, sent back exactly." }),
  })
  .register(apiDocs, { id: 'Consent', description: 'Explicit acceptance; never preselected. (spec §2.6)' });

/** The entry carries consent only: never consumer ids, emails, pack codes or a country. @see spec §4.1 rule 1 */
export const EntryBody = z.strictObject({ consent: ConsentSchema.optional() }).register(apiDocs, {
  id: 'EntryBody',
  description: 'Sandbox: `{}`. Production: `{consent}`. No consumer ids, emails, pack codes or country: identity and country come from the browser journey.',
});

export type Consent = z.infer<typeof ConsentSchema>;

const FORBIDDEN_HINT = 'not allowed: an entry carries no consumer ids, emails, pack codes or country (spec §4.1 rule 1); identity and country come from the browser journey';

/** Entry bodies name why an unknown field is refused: an entry carries no identity. */
export function entryDetailsOf(error: z.ZodError): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(detailsOf(error)).map(([field, messages]) => [field, messages.map((message) => (message === 'unknown field' ? FORBIDDEN_HINT : message))]),
  );
}
