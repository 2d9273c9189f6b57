/** Request bodies of the experience API. @see spec §4.1, §2.6 */
import { z } from 'zod';

export const SANDBOX_SCENARIOS = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'] as const;
export type Scenario = (typeof SANDBOX_SCENARIOS)[number];

export const SandboxSessionBody = z.strictObject({ scenario: z.enum(SANDBOX_SCENARIOS) });

export const ProductionSessionBody = z.strictObject({
  authorization_code: z.string().min(1).max(512),
  code_verifier: z.string().min(1).max(512),
});

export const ConsentSchema = z.strictObject({
  accepted: z.boolean(),
  age_confirmed: z.boolean().optional(),
  terms_version: z.string().max(256),
});

/** The entry carries consent only: never consumer ids, emails, pack codes or a country. @see spec §4.1 rule 1 */
export const EntryBody = z.strictObject({ consent: ConsentSchema.optional() });

export type Consent = z.infer<typeof ConsentSchema>;

const FORBIDDEN_HINT = 'not allowed: an entry carries no consumer ids, emails, pack codes or country (spec §4.1 rule 1); identity and country come from the browser journey';

/** Turns zod issues into DESIGN.md's `details`: field path → messages. */
export function detailsOf(error: z.ZodError): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const fields = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.') || '(body)'];
    const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
    for (const field of fields) (details[field] ??= []).push(message);
  }
  return details;
}

export function entryDetailsOf(error: z.ZodError): Record<string, string[]> {
  const details = detailsOf(error);
  for (const [field, messages] of Object.entries(details)) {
    details[field] = messages.map((message) => (message === 'unknown field' ? FORBIDDEN_HINT : message));
  }
  return details;
}
