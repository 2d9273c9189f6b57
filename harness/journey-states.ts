/**
 * What scenarios wait for and checks judge, in the harness's own words. An agency's pages are
 * recognised as showing them by structure, by what the emulator observed, by what the preview
 * taught (harness/pages/states.ts), and by the markers harness.config.json maps them to
 * (`markers.pages`, `markers.states`): never by our page names alone.
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

/** What the service answered, as the emulator observed it: the thing a page's state is about. */
export interface ServiceAnswer {
  status: number;
  error?: string;
  entryState?: string | null;
}

/** The service's answer each state shows, as spec §4.2 lists it. */
export const STATE_ANSWERS: Record<ResultState, { label: string; is: (answer: ServiceAnswer) => boolean }> = {
  won: { label: '200 won', is: (answer) => answer.status === 200 && answer.entryState === 'won' },
  lost: { label: '200 lost', is: (answer) => answer.status === 200 && answer.entryState === 'lost' },
  pending: { label: '200 pending', is: (answer) => answer.status === 200 && answer.entryState === 'pending' },
  failed: { label: '200 failed', is: (answer) => answer.status === 200 && answer.entryState === 'failed' },
  ineligible: { label: '403 ineligible', is: (answer) => answer.error === 'ineligible' },
  already_entered: { label: '409 already_entered', is: (answer) => answer.error === 'already_entered' },
  invalid_session: { label: '401 invalid_session', is: (answer) => answer.error === 'invalid_session' },
  unavailable: { label: '409/410 unavailable', is: (answer) => answer.error === 'unavailable' },
  rate_limited: { label: '429 rate_limited', is: (answer) => answer.status === 429 },
};

/** The states the preview's sandbox scenarios cannot show: recognised by their marker, or inferred from the service's answer. */
export const INFERRED_STATES: readonly ResultState[] = ['invalid_session', 'unavailable', 'rate_limited'];

/** What a page was recognised as showing, e.g. "page:consent" or "state:won". */
export type Shown = `page:${PageName}` | `state:${StateName}`;

export const showsState = (shown: readonly Shown[], state: StateName) => shown.includes(`state:${state}`);

/** The states a page shows. */
export const statesShown = (shown: readonly Shown[]): StateName[] => shown.flatMap((item) => (item.startsWith('state:') ? [item.slice(6) as StateName] : []));
