/**
 * The control plane's wire contract with the tools: every type the harness reads of the control
 * plane and the console, the callback-URL rule they both apply, and the one refusal type
 * (`Refused`). The emulator answers with these and the harness reads them; this file is the one
 * both import, and the only one of the emulator the harness imports (test/layers.test.ts). It
 * imports nothing, so every layer may import it; test/wire-contract.test.ts holds the emulator's
 * answers to these types.
 */

/**
 * The code_verifier an exchange presented, judged when it arrives so that no verifier is kept: its
 * length, whether every character is unreserved, and its S256 (what the code_challenge must be).
 * @see spec §4.3 step 4, §5 rule 4, §8
 */
export interface VerifierVerdict {
  length: number;
  unreserved: boolean;
  s256: string;
}

/** What the harness needs of an answer; never the session token. */
export interface CallAnswer {
  error?: string;
  session_created?: boolean;
  entry_state?: string | null;
  codes?: string[];
  redemption_url?: string | null;
  delivery_state?: string | null;
  terms_version?: string | null;
  eligibility?: string | null;
  prize?: string | null;
}

/** One experience call as the harness reads it. */
export interface ObservedCall {
  seq: number;
  /** Wall-clock milliseconds when the call arrived. */
  at: number;
  method: string;
  /** Relative to /api/experience/v1, e.g. "/session/entry". */
  path: string;
  environment: 'sandbox' | 'production' | null;
  key_id: number | null;
  session_id: number | null;
  pack: string | null;
  scenario: string | null;
  status: number;
  fault?: number;
  dropped?: true;
  body: unknown;
  code_sha256?: string;
  verifier?: VerifierVerdict;
  answer?: CallAnswer;
}

/** The connection values of `GET /_emulator/env`, as far as the harness reads them. */
export interface Env {
  base_url: string;
  sandbox_key: string | null;
  production_key: string | null;
  reporting_token: string;
  brand_slug: string;
  promotion_id: number;
  promotion: { id: number; slug: string; name: string; mechanic: Mechanic };
  /** Every promotion of the world; each with the SKUs whose packs enter it. */
  promotions: Array<{ id: number; skus: Array<{ id: number }> }>;
}

export type Mechanic = 'instant_win' | 'code_unlock' | 'content';

/** A promotion as `GET /_emulator/promotions` lists it. */
export interface Promotion {
  id: number;
  slug: string;
  name: string;
  default: boolean;
  mechanic: Mechanic;
  live: boolean;
  state: 'live' | 'scheduled' | 'ended' | 'draft';
}

/** What a promotion's seeded draw can give: an outcome, and how a pending one settles. */
export interface PackKind {
  outcome: Pack['outcome'];
  settles_as?: 'won' | 'failed';
}

/** A pack of `GET /_emulator/packs` and `env`, with the outcome its seeded draw gives. */
export interface Pack {
  code: string;
  outcome: 'won' | 'lost' | 'pending' | 'failed';
  settles_as?: 'won' | 'failed';
}

/** A promotion's terms, as `GET /_emulator/terms` answers and `POST /_emulator/terms` edits them. */
export interface Terms {
  text: string;
  url: string;
  links: Array<{ label: string; url: string }>;
  required: boolean;
  minimum_age?: number;
  version: string;
}

/** A fault armed with `POST /_emulator/faults {"next": ...}`. */
export interface FaultSpec {
  path: string;
  method?: 'GET' | 'POST';
  status?: number;
  error?: string;
  retry_after?: number;
  drop?: true;
  times?: number;
  match?: { pack?: string; scenario?: SandboxScenario; environment?: 'sandbox' | 'production' };
}

/** The sandbox scenarios a sandbox session can be created with (spec §4.1 rule 4). */
export type SandboxScenario = 'won' | 'lost' | 'pending' | 'failed' | 'ineligible' | 'already_entered';

/** `GET /_emulator/secrets`: every secret the emulator issued, for the harness to search a browser for. */
export interface Secrets {
  counters: Record<string, number>;
  keys: Array<{ id: number; environment: string; secret: string }>;
  session_tokens: string[];
}

/** The brand's checklist, `GET /_emulator/console/checklist`. */
export interface Checklist {
  complete: boolean;
  items: Array<{ scenario: string; session_created: boolean; entry_submitted: boolean }>;
  missing: string[];
}

/**
 * A refusal, as data: whoever refuses says why, and the caller words it (experience/refusals.ts,
 * reporting/errors.ts `skuRefusal`). A refusal is answered, never thrown. It lives here, at the bottom,
 * because every layer refuses this way, the domain and this contract's callback rule included.
 */
export interface Refused<Reason> {
  refused: Reason;
}

export function refused<Reason>(reason: Reason): Refused<Reason> {
  return { refused: reason };
}

export function isRefused<Result extends object, Reason>(outcome: Result | Refused<Reason>): outcome is Refused<Reason> {
  return 'refused' in outcome;
}

/** An accepted callback URL, normalized, or why it is refused (a phrase following the URL). */
export type CallbackCheck = { url: string; localDevelopment: boolean } | Refused<string>;

/** The loopback names of a host, as `URL.hostname` spells them (an IPv6 address in brackets). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Callback URLs: HTTPS, no query string, no fragment. Plain http on a loopback host (localhost,
 * 127.0.0.1, [::1]) is accepted as the local-development exception. The console stores what it accepts;
 * the harness refuses a `--callback` the console would refuse.
 * @see spec §5 (experience) rule 5
 */
export function checkCallbackUrl(text: string): CallbackCheck {
  const trimmed = text.trim();
  if (trimmed.length > 2048) return refused('is longer than 2048 characters');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return refused('is not an absolute URL such as https://agency.example/callback');
  }
  const localDevelopment = url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== 'https:' && !localDevelopment) return refused('must use https (plain http is accepted only for localhost, 127.0.0.1 and [::1])');
  // `new URL` drops an empty "?" or "#", so the raw text is checked too.
  if (url.search || trimmed.includes('?')) return refused('must not have a query string: the service adds service_request, service_code and state');
  if (url.hash || trimmed.includes('#')) return refused('must not have a fragment');
  if (url.username || url.password) return refused('must not contain a user name or password');
  return { url: url.href, localDevelopment };
}

/**
 * The harness signs in as a collector of its own per country, made the first time, so that
 * repeated runs do not fill the emulator with collectors. The service's sign-in page does not
 * offer them to a person; typed in with their country, they sign in.
 */
export function harnessCollectorEmail(country: string): string {
  return `harness.${country.toLowerCase()}@example.test`;
}

export function isHarnessCollector(email: string): boolean {
  return /^harness\.[a-z]{2}@example\.test$/i.test(email);
}
