/**
 * What the browser saw of the agency during a run: the pages it loaded, the agency's responses,
 * every request, and the consent form as read and sent. The browser session and the steps record
 * them; checks read them through RunFacts (harness/run/facts.ts).
 */
import type { ConsentBox, Fingerprint } from './in-page.js';
import type { Shown, StateName } from '../journey-states.js';

export type Environment = 'sandbox' | 'production';

/** An agency page once it loaded, after a step. */
export interface PageSeen {
  scenario: string;
  journey: string;
  environment: Environment;
  at: number;
  url: string;
  status: number | undefined;
  /** What the page was recognised as showing (harness/pages/agency.ts). */
  shows: Shown[];
  /** Hrefs of the page's links, resolved. */
  links: string[];
  title: string;
  text: string;
  /** What the page is made of (harness/pages/states.ts): how a state is learned, recognised and told apart. */
  features?: Fingerprint;
  /** The state shown, when it was read from what the preview taught (not a marker). */
  learned?: StateName;
  /** What still showed the page loading when the harness read it at the bound (harness/pages/settle.ts); absent once it settled. */
  loading?: string;
}

/** A response from the agency's origin, redirects included. */
export interface AgencyResponse {
  scenario: string;
  journey: string;
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  setCookies: string[];
}

export interface RequestSeen {
  scenario: string;
  journey: string;
  /** When the browser sent it (the harness's clock): the browser's own time once the request finished. */
  at: number;
  method: string;
  url: string;
  referer: string | undefined;
  resourceType: string;
  /** The URL of the page that made it. */
  from: string;
  /** What it carried (a form, JSON), for the secrets search. */
  body?: string;
}

export interface ConsentView {
  label: string;
  at: number;
  url: string;
  hasForm: boolean;
  boxes: ConsentBox[];
  /** The form's hidden fields (a CSRF token, typically). */
  hidden: Array<[string, string]>;
  termsText: string;
  termsVersion: string | undefined;
  /** Elements carrying the run's probe attribute (RunFacts.probeMark): markup injected into terms.text that became elements. */
  probeElements: number;
  /** Links on the page whose URL is not http(s), e.g. `javascript:`. */
  unsafeLinks: string[];
  /** Whether a person saw the form when it was read (recorded runs before it was read have none). */
  visible?: boolean;
  /** What the harness clicked to show the form, when the page held it hidden. */
  opened?: string;
}

export interface Submission {
  at: number;
  accept: boolean;
  age: boolean;
  bypass: boolean;
  boxesFound: { terms: boolean; age: boolean };
  /** The page the form was sent from: a way back to it after a 429 leads here. */
  url: string;
  /** What the harness clicked to show the form, when the page held it hidden. */
  opened?: string;
  /** What the harness clicked after sending the form, on pages that asked to confirm it before the entry was sent. */
  confirmed?: string;
}
