/**
 * How harness.config.json's markers name what a page shows: `markers.page` and `markers.state` are
 * templates a plain name goes into, `markers.pages` and `markers.states` give a page kind or state
 * a name or a selector of its own.
 */
import type { Config } from '../config.js';
import { PAGES, type PageName, STATES, type Shown, type StateName } from '../journey-states.js';

export type MarkerConfig = Config['markers'];

/** A plain name goes into the template; anything else is a selector of its own. */
const PLAIN_NAME = /^[\w-]+$/;

/** The selector that recognises one page kind or state under this config. */
export function selectorFor(markers: MarkerConfig, kind: 'page' | 'state', name: PageName | StateName): string {
  const given = kind === 'page' ? markers.pages[name as PageName] : markers.states[name as StateName];
  const value = given ?? name;
  return PLAIN_NAME.test(value) ? markers[kind].replaceAll('{name}', value) : value;
}

/** Every page kind and state the harness recognises, in the order of recognisedSelectors. */
export const RECOGNISED: ReadonlyArray<{ shown: Shown; kind: 'page' | 'state'; name: PageName | StateName }> = [
  ...PAGES.map((name) => ({ shown: `page:${name}` as Shown, kind: 'page' as const, name })),
  ...STATES.map((name) => ({ shown: `state:${name}` as Shown, kind: 'state' as const, name })),
];

/** Every selector that recognises a page kind or state, in one order. */
export function recognisedSelectors(markers: MarkerConfig): string[] {
  return RECOGNISED.map(({ kind, name }) => selectorFor(markers, kind, name));
}
