/**
 * What the config asks the brand to accept: every setting that differs from the default and can
 * turn what a check sees (an origin counted as the agency's, a selector taken for a state, a word
 * taken for "accept", an accessibility level left to a warning, a burst size). Every report lists
 * them, and shows each beside the checks it can change (each check names them: `allowedBy`), so a
 * pass that rests on one never reads as a pass on the defaults.
 */
import { type Config, ConfigSchema } from '../config.js';
import type { Check, Setting } from './types.js';

export interface Allowance {
  /** The setting, as the config names it, with its value: `first_party_origins: https://cdn.example`. */
  setting: string;
  /** The checks whose verdict it can change. */
  checks: string[];
}

/** What tells the harness which page it is on and which state that page shows: the checks that judge pages by state. */
export const STATE_PAGES: readonly Setting[] = ['markers.page', 'markers.pages', 'markers.state', 'markers.states'];
/** What finds the consent form, its boxes and terms, and the words it is read by: the checks that judge the form and the entry it sends. */
export const CONSENT_FORM: readonly Setting[] = ['markers.page', 'markers.pages', 'markers.entry_form', 'markers.terms_text', 'markers.terms_version', 'markers.consent_open', 'markers.consent_step', 'markers.consent_boxes', 'vocabulary'];

const DEFAULTS = ConfigSchema.parse({});
/** Every marker, in the order the reports list them (a record, so a marker added to the config cannot be left out). */
const MARKERS: Record<keyof Config['markers'], true> = {
  page: true, pages: true, state: true, states: true, entry_form: true, terms_text: true, terms_version: true, preview_link: true, try_again: true, consent_open: true, consent_step: true, consent_boxes: true,
};

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The config's allowances, each with the checks (of `checks`) it can change. */
export function allowancesOf(config: Config, checks: ReadonlyArray<Pick<Check, 'id' | 'allowedBy'>>): Allowance[] {
  const found: Array<[string, Setting]> = [];
  if (config.first_party_origins.length) found.push([`first_party_origins: ${config.first_party_origins.join(', ')}`, 'first_party_origins']);
  for (const name of Object.keys(MARKERS) as Array<keyof Config['markers']>) {
    const value = config.markers[name];
    if (shown(value) !== shown(DEFAULTS.markers[name])) found.push([`markers.${name}: ${shown(value)}`, `markers.${name}`]);
  }
  for (const [category, words] of Object.entries(config.vocabulary)) if (words?.length) found.push([`vocabulary.${category}: ${words.join(', ')}`, 'vocabulary']);
  if (shown(config.a11y.fail_on) !== shown(DEFAULTS.a11y.fail_on)) found.push([`a11y.fail_on: ${config.a11y.fail_on.join(', ') || '(none)'} (by default: ${DEFAULTS.a11y.fail_on.join(', ')})`, 'a11y.fail_on']);
  if (config.entry_endpoint.path) found.push([`entry_endpoint.path: ${config.entry_endpoint.path}`, 'entry_endpoint.path']);
  if (config.entry_endpoint.max_attempts !== DEFAULTS.entry_endpoint.max_attempts) {
    found.push([`entry_endpoint.max_attempts: ${config.entry_endpoint.max_attempts} (by default: ${DEFAULTS.entry_endpoint.max_attempts})`, 'entry_endpoint.max_attempts']);
  }
  return found.map(([setting, name]) => ({ setting, checks: checks.filter((check) => check.allowedBy?.includes(name)).map((check) => check.id) }));
}
