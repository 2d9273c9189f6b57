/**
 * Examples of the experience API's bodies, taken from the default world on a frozen clock. Typed
 * with the response schemas, and test/openapi parses each with the served document's schema, so
 * an example cannot drift from what the emulator answers.
 */
import type { z } from 'zod';
import type { CampaignReadSchema, SessionCreatedSchema, SessionReadSchema } from '../experience/responses.js';
import type { EntryBody, ProductionSessionBody, SandboxSessionBody } from '../experience/schemas.js';
import type { Example } from './document.js';

type Session = z.output<typeof SessionReadSchema>;

const campaign: z.output<typeof CampaignReadSchema>['campaign'] = {
  id: 1,
  name: 'Spring Instant Win',
  dates: { start: '2026-01-01T00:00:00Z', end: '2027-06-30T23:59:59Z' },
  mechanic: 'instant_win',
  brand: { name: 'Alpenmilch', slug: 'alpenmilch' },
  copy: {
    headline: 'Scan, sign in, win instantly',
    body: 'Every pack of Alpenmilch carries a code. Scan it to see at once whether you won a voucher, concert tickets or a picnic set.',
    call_to_action: 'Scan a participating pack to play',
  },
  prizes: [{ name: '5 € voucher' }, { name: 'Concert tickets for two' }, { name: 'Alpine picnic set' }, { name: 'Weekend in the Alps' }],
  rewards_path: '/rewards',
};

const germanTerms: Session['terms'] = {
  text: 'Teilnahme ab 18 Jahren mit Wohnsitz in Deutschland. Eine Teilnahme pro Packung.',
  url: 'https://alpenmilch.example/de/teilnahmebedingungen',
  links: [{ label: 'Datenschutz', url: 'https://alpenmilch.example/de/datenschutz' }],
  required: true,
  minimum_age: 18,
  version: 'de-2026-03',
};

const newSession: Session = {
  expires_at: '2026-11-21T10:30:00.000Z',
  campaign,
  terms: germanTerms,
  eligibility: { eligible: true, reason: null, country: 'DE' },
  entry: null,
  delivery: { state: 'none' },
  sandbox: false,
};

const wonSession: Session = {
  ...newSession,
  entry: {
    id: 280,
    state: 'won',
    prize: { name: '5 € voucher', reward_type: 'coupon', tier: 'standard', face_value: 5 },
    codes: ['AM-3S7VHGEZ6P'],
    redemption_url: 'https://shop.alpenmilch.example/redeem',
    created_at: '2026-11-21T10:00:00.000Z',
  },
  delivery: { state: 'delivered' },
};

const pendingSession: Session = {
  ...wonSession,
  entry: { ...wonSession.entry!, state: 'pending', codes: [] },
  delivery: { state: 'processing' },
};

export const CAMPAIGN_EXAMPLES: Record<string, Example> = {
  production: {
    summary: 'Read with the production key',
    value: {
      campaign,
      environment: 'production',
      authorize_url: 'http://127.0.0.1:4010/authorize',
      sandbox_scenarios: ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'],
    } satisfies z.output<typeof CampaignReadSchema>,
  },
};

export const SESSION_BODY_EXAMPLES: Record<string, Example> = {
  sandbox: { summary: 'Sandbox key: a synthetic session of one scenario', value: { scenario: 'pending' } satisfies z.input<typeof SandboxSessionBody> },
  production: {
    summary: 'Production key: the PKCE code exchange',
    value: { authorization_code: 'code_oFg2vR8kq1Zr0tUqzK3x5w', code_verifier: 'mT3rG9pYb1vX0aQe7LwK4sJ2nHcU6dZf8iOyRk5EjVg' } satisfies z.input<typeof ProductionSessionBody>,
  },
};

export const SESSION_CREATED_EXAMPLES: Record<string, Example> = {
  production: {
    summary: 'A production session, before its entry',
    value: { session_token: 'sess_Fs67tPytaFJcL46mhxD6F_hAsQ198dmg', ...newSession } satisfies z.output<typeof SessionCreatedSchema>,
  },
};

export const ENTRY_BODY_EXAMPLES: Record<string, Example> = {
  production: {
    summary: "Production: the collector's consent to this session's terms",
    value: { consent: { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' } } satisfies z.input<typeof EntryBody>,
  },
  sandbox: { summary: 'Sandbox: an empty body', value: {} satisfies z.input<typeof EntryBody> },
};

export const SESSION_EXAMPLES: Record<string, Example> = {
  won: { summary: 'Won, the prize delivered with its code', value: wonSession },
  pending: { summary: 'Won, delivery processing: poll the session', value: pendingSession },
};
