/**
 * Response bodies of the experience API as zod schemas: serialize.ts is typed with them, the
 * OpenAPI document is generated from them, and test/openapi parses every recorded response with
 * them. Strict objects, so a field the serializers add without documenting it fails that test.
 * @see spec §2.2 to §2.5, §4.1
 */
import { z } from 'zod';
import { PromotionSchema, TermsSchema } from '../fixture.js';
import { apiDocs } from '../api-docs.js';
import { SESSION_LIFETIME_MS, inWords } from '../domain/limits.js';
import { SANDBOX_SCENARIOS } from '../use-cases/sandbox.js';

export const CampaignSchema = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    dates: PromotionSchema.shape.dates,
    mechanic: PromotionSchema.shape.mechanic,
    brand: z.strictObject({ name: z.string(), slug: z.string() }),
    copy: PromotionSchema.shape.copy,
    prizes: z.array(z.strictObject({ name: z.string() })).register(apiDocs, { description: 'Public prize names only: no odds, stock or codes.' }),
    rewards_path: z.string().register(apiDocs, { description: "Path, resolved against the service's origin, of the collector's Rewards page (prize wallet)." }),
  })
  .register(apiDocs, { id: 'Campaign', description: 'Never exposes customers, pool codes, draw seeds or partner credentials. (spec §2.2)' });

export const CampaignReadSchema = z
  .strictObject({
    campaign: CampaignSchema,
    environment: z.enum(['sandbox', 'production']).register(apiDocs, { description: 'The environment of the key that made the call.' }),
    authorize_url: z.url().register(apiDocs, {
      description: 'Where the agency redirects the browser with request_token, state, code_challenge and code_challenge_method=S256.',
    }),
    sandbox_scenarios: z.array(z.enum(SANDBOX_SCENARIOS)),
  })
  .register(apiDocs, { id: 'CampaignRead' });

const TermsDoc = TermsSchema.register(apiDocs, {
  id: 'Terms',
  description: 'Country-specific terms. Render text as text and urls as safe links; send version back exactly. (spec §2.4)',
});

export const EligibilitySchema = z
  .strictObject({
    eligible: z.boolean(),
    reason: z.enum(['country_missing', 'country_restricted', 'already_entered', 'unavailable']).nullable(),
    country: z.string().nullable(),
  })
  .register(apiDocs, { id: 'Eligibility' });

export const EntrySchema = z
  .strictObject({
    id: z.number().int(),
    state: z.enum(['won', 'lost', 'pending', 'failed']).register(apiDocs, {
      description: 'pending: won, delivery processing (poll the session); failed: still won, delivery delayed or failed, no redraw. (spec §3)',
    }),
    prize: z.strictObject({ name: z.string(), reward_type: z.string(), tier: z.string(), face_value: z.number() }).nullable(),
    codes: z.array(z.string()).register(apiDocs, { description: 'Delivered codes; empty until delivery has succeeded.' }),
    redemption_url: z.url().nullable(),
    created_at: z.iso.datetime(),
  })
  .register(apiDocs, { id: 'Entry', description: 'One entry per collector and pack; retries return the existing entry. (spec §2.5)' });

const sessionFields = {
  expires_at: z.iso.datetime(),
  campaign: CampaignSchema,
  terms: TermsDoc,
  eligibility: EligibilitySchema,
  entry: EntrySchema.nullable(),
  delivery: z.strictObject({
    state: z.enum(['none', 'processing', 'delivered', 'failed']).register(apiDocs, { description: '`delivered` and `failed` are terminal: stop polling.' }),
  }),
  sandbox: z.boolean(),
};

export const SessionReadSchema = z
  .strictObject(sessionFields)
  .register(apiDocs, { id: 'SessionRead', description: 'A consumer session: refreshed terms and the latest entry and delivery state. (spec §2.3)' });

export const SessionCreatedSchema = z
  .strictObject({
    session_token: z.string().register(apiDocs, {
      description: `Secret; valid ${inWords(SESSION_LIFETIME_MS)} and only with the key that exchanged it. Keep it server-side: never in the browser, analytics or URLs.`,
    }),
    ...sessionFields,
  })
  .register(apiDocs, { id: 'SessionCreated', description: 'A new consumer session with its token. (spec §2.3)' });

export type CampaignJson = z.infer<typeof CampaignSchema>;
export type CampaignReadJson = z.infer<typeof CampaignReadSchema>;
export type EligibilityJson = z.infer<typeof EligibilitySchema>;
export type EntryJson = z.infer<typeof EntrySchema>;
export type SessionReadJson = z.infer<typeof SessionReadSchema>;
export type SessionCreatedJson = z.infer<typeof SessionCreatedSchema>;
