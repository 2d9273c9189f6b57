/**
 * What scenarios wait for and checks judge, in the harness's own words. An agency's pages are
 * recognised as showing them by structure, by what the emulator observed, and by the markers
 * harness.config.json maps them to (`markers.pages`, `markers.states`): never by our page names alone.
 */

/** The kinds of page a journey passes through. */
export const PAGES = ['landing', 'consent', 'result', 'error'] as const;
export type PageName = (typeof PAGES)[number];

/** The states of spec §4.2 a result shows, and `error`: an agency's generic failure. */
export const STATES = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered', 'invalid_session', 'unavailable', 'rate_limited', 'error'] as const;
export type StateName = (typeof STATES)[number];

/** The §4.2 states, each judged by its own check (`journey.state.<name>`). */
export const RESULT_STATES = STATES.filter((state): state is Exclude<StateName, 'error'> => state !== 'error');
export type ResultState = (typeof RESULT_STATES)[number];

/** What a page was recognised as showing, e.g. "page:consent" or "state:won". */
export type Shown = `page:${PageName}` | `state:${StateName}`;

export const showsState = (shown: readonly Shown[], state: StateName) => shown.includes(`state:${state}`);

/** The states a page shows. */
export const statesShown = (shown: readonly Shown[]): StateName[] => shown.flatMap((item) => (item.startsWith('state:') ? [item.slice(6) as StateName] : []));
