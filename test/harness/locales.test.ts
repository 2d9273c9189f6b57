/**
 * Any agency, any language (issue 28, build items 7 and 8): both reference agencies, every word of
 * their pages swapped by `--locale`, told only their log (no markers, no vocabulary). Each agency
 * passes a full verify in a language that is not its own, its states learned from the preview (no
 * state marker matches) or inferred; in every other locale it passes the checks
 * whose evidence the harness reads off the page: the preview's links and the states it teaches,
 * the consent boxes, the submit button, the terms, the way back after a 429, the page after a
 * failed exchange. The rest of a verify reads what the backend sent and the browser requested,
 * whatever the language.
 *
 * The runs are judged on the facts their live runs recorded (useRecordedMatrix, under
 * `recorded/locales-clean/`); each day one full verify and one page-read run are live, in turn.
 */
import { describe, expect, test } from 'vitest';
import { LOCALES, type Locale } from '../../fixtures/locales.js';
import { INFERRED_STATES } from '../../harness/journey-states.js';
import { SANDBOX_SCENARIOS } from '../../harness/scenarios/schema.js';
import { useChromium } from '../support/chromium.js';
import { hasRecording, liveTurn } from './recorded.js';
import { expectEveryCheckPassed, problemsOf } from './runs.js';
import { type RecordedMatrixRun, useRecordedMatrix } from './world.js';

const browser = useChromium();

const MATRIX = 'locales-clean';
const KINDS = ['reference', 'spa'] as const;
/** The locale of each agency's full verify: neither its own nor the other's full one. */
const FULL: Record<(typeof KINDS)[number], Locale> = { reference: 'pl', spa: 'fr' };
/** The checks fed by the scenarios that read the page's words or its learned states (scenarios/*.json `feeds`). */
const PAGE_READ_CHECKS = [
  'coverage.sandbox_calls', 'journey.state.failed', 'journey.state.ineligible', 'journey.state.already_entered', 'journey.landing_page',
  'consent.not_preselected', 'consent.separate_from_marketing', 'consent.required', 'consent.age_confirmation', 'consent.refresh_after_422',
  'terms.html_inert', 'terms.javascript_link_inert', 'behaviour.retry_after_honoured', 'journey.state.rate_limited', 'behaviour.no_exchange_retry',
];

/**
 * The reference agency carries the harness's default state marker; in its full run that marker is
 * renamed to one none of its pages carries, so that its states too are learned, not matched.
 */
const NO_STATE_MARKER = { markers: { state: 'main[data-outcome="{name}"]' } };
/** What the preview teaches each agency's states by: the attribute whose value differs from state to state. */
const LEARNED_MARKER = { reference: 'main[data-entry-state=', spa: 'body[data-ergebnis=' };

const runs: RecordedMatrixRun[] = KINDS.flatMap((kind) => LOCALES.map((locale) => {
  const only = locale === FULL[kind] ? [] : PAGE_READ_CHECKS;
  return {
    name: `${kind}:${locale}`, only,
    options: { kind, locale, unconfigured: true, ...(kind === 'reference' && locale === FULL[kind] ? { config: NO_STATE_MARKER } : {}) },
    keeps: (verdicts) => problemsOf(verdicts, only).length === 0,
  };
}));
const full = runs.filter(({ only }) => only.length === 0).map(({ name }) => name);
const pageRead = runs.filter(({ only }) => only.length > 0).map(({ name }) => name);
const verdictsOf = useRecordedMatrix(browser, MATRIX, runs, new Set([...liveTurn(full, 1), ...liveTurn(pageRead, 1)]));

test('every run has a recording of its live run', () => {
  expect(runs.filter(({ name }) => !hasRecording(MATRIX, name)).map(({ name }) => name)).toEqual([]);
});

describe.for(KINDS)('the %s agency, told only its log', (kind) => {
  test(`--locale ${FULL[kind]}: a full verify, every check passed, exit 0`, () => {
    expectEveryCheckPassed([verdictsOf(`${kind}:${FULL[kind]}`)]);
  });

  test(`--locale ${FULL[kind]}: the six preview states are recognised by the attribute the preview taught, the other three inferred from the service's answers`, () => {
    const evidence = (state: string) => verdictsOf(`${kind}:${FULL[kind]}`).checks.find((check) => check.id === `journey.state.${state}`)!.evidence.map((item) => item.label).join('\n');
    for (const state of SANDBOX_SCENARIOS) expect(evidence(state)).toContain(`learned from the preview: markup ${LEARNED_MARKER[kind]}`);
    for (const state of INFERRED_STATES) expect(evidence(state)).toContain('inferred: the service answered');
  });

  test.for(LOCALES.filter((locale) => locale !== FULL[kind]))('--locale %s: every check read off the page passes', (locale) => {
    expectEveryCheckPassed([verdictsOf(`${kind}:${locale}`)], PAGE_READ_CHECKS);
  });
});
