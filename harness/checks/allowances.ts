/**
 * What the config asks the brand to accept: every setting that differs from the default and can
 * turn what a check sees (an origin counted as the agency's, a selector taken for a state, a word
 * taken for "accept", an accessibility level left to a warning, a burst size). Every report lists
 * them, and shows each beside the checks it changed, so a pass that rests on one never reads as a
 * pass on the defaults.
 */
import { type Config, ConfigSchema } from '../config.js';
import type { Group } from './types.js';

export interface Allowance {
  /** The setting, as the config names it, with its value: `first_party_origins: https://cdn.example`. */
  setting: string;
  /** The checks whose verdict it can change. */
  checks: string[];
}

type Affects = (id: string, group: Group) => boolean;

const DEFAULTS = ConfigSchema.parse({});
const STATE_PAGES: Affects = (_id, group) => group === 'journey' || group === 'behaviour';
const CONSENT_FORM: Affects = (_id, group) => group === 'consent' || group === 'entry';

/** Which checks each setting can change, by what the setting tells the harness. */
const MARKERS: Record<keyof Config['markers'], Affects> = {
  page: (id, group) => STATE_PAGES(id, group) || CONSENT_FORM(id, group),
  pages: (id, group) => STATE_PAGES(id, group) || CONSENT_FORM(id, group),
  state: STATE_PAGES,
  states: STATE_PAGES,
  entry_form: (id, group) => CONSENT_FORM(id, group) || group === 'endpoint',
  terms_text: CONSENT_FORM,
  terms_version: CONSENT_FORM,
  preview_link: (_id, group) => group === 'coverage',
  try_again: (id) => id === 'behaviour.retry_after_honoured',
  consent_open: (id, group) => CONSENT_FORM(id, group) || group === 'endpoint',
  consent_step: (id, group) => CONSENT_FORM(id, group) || group === 'endpoint',
  consent_boxes: CONSENT_FORM,
};

const VOCABULARY: Affects = (id, group) => CONSENT_FORM(id, group) || id === 'behaviour.retry_after_honoured';

const shown = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

/** The config's allowances, each with the checks (of `checks`) it can change. */
export function allowancesOf(config: Config, checks: ReadonlyArray<{ id: string; group: Group }>): Allowance[] {
  const found: Array<[string, Affects]> = [];
  if (config.first_party_origins.length) found.push([`first_party_origins: ${config.first_party_origins.join(', ')}`, (id) => id === 'callback.no_third_party']);
  for (const [name, affects] of Object.entries(MARKERS) as Array<[keyof Config['markers'], Affects]>) {
    const value = config.markers[name];
    if (shown(value) !== shown(DEFAULTS.markers[name])) found.push([`markers.${name}: ${shown(value)}`, affects]);
  }
  for (const [category, words] of Object.entries(config.vocabulary)) if (words?.length) found.push([`vocabulary.${category}: ${words.join(', ')}`, VOCABULARY]);
  if (shown(config.a11y.fail_on) !== shown(DEFAULTS.a11y.fail_on)) found.push([`a11y.fail_on: ${config.a11y.fail_on.join(', ') || '(none)'} (by default: ${DEFAULTS.a11y.fail_on.join(', ')})`, (id) => id === 'a11y.axe']);
  if (config.entry_endpoint.path) found.push([`entry_endpoint.path: ${config.entry_endpoint.path}`, (_id, group) => group === 'endpoint']);
  if (config.entry_endpoint.max_attempts !== DEFAULTS.entry_endpoint.max_attempts) {
    found.push([`entry_endpoint.max_attempts: ${config.entry_endpoint.max_attempts} (by default: ${DEFAULTS.entry_endpoint.max_attempts})`, (id) => id === 'endpoint.rate_limited']);
  }
  return found.map(([setting, affects]) => ({ setting, checks: checks.filter((check) => affects(check.id, check.group)).map((check) => check.id) }));
}
