/** API coverage and the journey's pages. @see spec §1 lifecycle and rules, §4.2 */
import { INFERRED_STATES, RESULT_STATES, type ResultState, STATE_ANSWERS, statesShown } from '../journey-states.js';
import { samePage } from '../pages/states.js';
import { type Expectation, type RunFacts, redactUrl } from '../run/facts.js';
import type { PageSeen } from '../browser/seen.js';
import { SANDBOX_SCENARIOS } from '../scenarios/schema.js';
import { isEntry, productionEntries, where } from './observed.js';
import { STATE_PAGES } from './allowances.js';
import { type Check, type Evidence, type Guidance, REFERENCE_AGENCY, fail, inconclusive, pass } from './types.js';

/** A sandbox entry the service took: answered, not refused as malformed (a refused one is not a call the checklist counts). */
const accepted = (call: { status: number; answer?: { error?: string } }, scenario: string) => call.status === 200 || call.answer?.error === scenario;

/** A page's text without what differs between two showings of the same page (numbers, spacing). */
const gist = (text: string) => text.replace(/\d+/g, '#').replace(/\s+/g, ' ').trim();

/** Two pages alike: the same features (harness/pages/states.ts) when both were read, else the same text. */
const samePageSeen = (a: PageSeen, b: PageSeen) => (a.features && b.features ? samePage(a.features, b.features) : gist(a.text) === gist(b.text));

/** Why the preview taught nothing about a state, when it did not. */
function unlearned(facts: RunFacts, state: ResultState): string {
  if (INFERRED_STATES.includes(state) || !facts.states.learned || facts.states.signatureOf(state)) return '';
  return facts.states.pageOf(state) ? `; its page in the preview carries nothing the other five do not` : `; the preview did not show it`;
}

/**
 * Whether a page is the agency's generic failure page (the preview's won scenario made to fail):
 * what the preview's other pages tell it apart by, with the page of `state` left out (a preview that
 * shows that state as the failure page teaches neither), signature and words alike.
 */
function isFailurePage(facts: RunFacts, state: ResultState, page: PageSeen | undefined): boolean {
  if (!page?.features || !facts.states.pageOf('error')) return false;
  return facts.states.without(state).carried(page.features).join() === 'error';
}

const LANDING = 'markers.pages.landing: your name for the landing page, or a selector that matches on it (else its text must name the campaign)';

/** A page read at the bound while it still loaded says so (harness/pages/settle.ts). */
const loadingNote = (page: PageSeen | undefined) => (page?.loading ? ` (read ${page.loading})` : '');

const label = (expectation: Expectation) => `${expectation.environment === 'sandbox' ? 'preview' : expectation.scenario}${expectation.journey === 'main' || expectation.journey === 'preview' ? '' : `/${expectation.journey}`}`;

/** What another expectation's page was shown for: its state, or the kind of page a step waited for (`landing/other's consent form`). */
const shownFor = (other: Expectation) => other.state ?? `${label(other)}'s ${other.wanted.replace('_', ' ')}`;

/** Each state's rule in docs/rules.md, and how the fix names the answer it shows. */
const STATE_RULES: Record<ResultState, [rule: string, shows: string]> = {
  won: ['result-won', 'a 200 won entry'],
  lost: ['result-lost', 'a 200 lost entry'],
  pending: ['result-pending', 'a 200 pending entry (a win being delivered)'],
  failed: ['result-failed', 'a 200 failed entry (a delayed delivery)'],
  ineligible: ['result-ineligible', 'a 403 ineligible answer'],
  already_entered: ['result-already-entered', 'a 409 already_entered answer'],
  invalid_session: ['result-invalid-session', 'a 401 invalid_session answer (ask to rescan)'],
  unavailable: ['result-unavailable', 'a 409/410 unavailable answer'],
  rate_limited: ['result-rate-limited', 'a 429 rate_limited answer (a wait)'],
};

function stateGuidance(state: ResultState): Guidance {
  const [rule, shows] = STATE_RULES[state];
  return { rules: [rule], fix: `Show ${shows} as its own page state, marked as such (markers.states).`, reference: `${REFERENCE_AGENCY}/outcomes.ts` };
}

/** `journey.state.<state>`: the page shows the state the service answered, and no other. */
function stateCheck(state: ResultState): Check {
  const answer = STATE_ANSWERS[state];
  const configure = `markers.states.${state}: your name for this state (it goes into markers.state), or a selector that matches only on its page; without it the state is ${INFERRED_STATES.includes(state) ? 'inferred from the service\'s answer and a page unlike every state the preview showed' : 'learned from its page in the preview, which must differ from the other five'}`;
  return {
    id: `journey.state.${state}`,
    title: `The service's ${answer.label} is shown as its own state`,
    group: 'journey',
    spec: '§4.2',
    kind: 'can_fail',
    guidance: stateGuidance(state),
    allowedBy: STATE_PAGES,
    configure,
    evaluate(facts) {
      const expected = facts.expectations.filter((expectation) => expectation.state === state);
      if (expected.length === 0) return undefined;
      const evidence: Evidence[] = [];
      const problems: Evidence[] = [];
      let shown = 0;
      for (const expectation of expected) {
        const page = expectation.page;
        const at = `${label(expectation)} (${page ? redactUrl(page.url) : 'no page'})${loadingNote(page)}`;
        if (!expectation.answer || !answer.is(expectation.answer)) {
          evidence.push({ label: `${at}: the service did not answer ${answer.label} (${expectation.answer ? `it answered ${expectation.answer.status} ${expectation.answer.error ?? expectation.answer.entryState ?? ''}` : 'no answer observed'}), so this page proves nothing` });
          continue;
        }
        const twin = page && facts.expectations.find((other) => other.state !== state && other.page && samePageSeen(other.page, page));
        // An inferred state is a page unlike the learned ones: it is its own only if no other answer got the very same page.
        if (expectation.met && twin && expectation.how?.startsWith('inferred')) {
          problems.push({ label: `${at}: the service answered ${answer.label}; the page is the same as the one shown for ${shownFor(twin)}` });
          continue;
        }
        // Without its page, an inferred state cannot be told from the other states' pages: it proves nothing.
        if (expectation.met && !page && expectation.how?.startsWith('inferred')) {
          evidence.push({ label: `${at}: the service answered ${answer.label}; the page was read as ${state} but left before it could be read whole, so it cannot be compared with the other states' pages` });
          continue;
        }
        if (expectation.met) {
          shown += 1;
          evidence.push({ label: `${at}: the service answered ${answer.label}; the page shows ${state} (${expectation.how ?? 'marker'})` });
          continue;
        }
        const others = statesShown(page?.shows ?? []).filter((other) => other !== state);
        const carried = page?.features ? facts.states.carried(page.features) : [];
        const read = expectation.how ? ` (${expectation.how})` : '';
        if (others.length || page?.shows.includes('page:error')) problems.push({ label: `${at}: the service answered ${answer.label}; the page shows ${others.join(', ') || 'an error page'}${read}` });
        else if (twin) problems.push({ label: `${at}: the service answered ${answer.label}; the page is the same as the one shown for ${shownFor(twin)}` });
        else if (isFailurePage(facts, state, page)) problems.push({ label: `${at}: the service answered ${answer.label}; the page is the agency's failure page (the one it shows when the service fails, learned from the preview), not a page of this state${read}` });
        else if (carried.length > 1) evidence.push({ label: `${at}: the service answered ${answer.label}; the page carries the signatures of ${carried.join(' and ')}, learned from the preview: it is not recognised as either` });
        else evidence.push({ label: `${at}: the service answered ${answer.label}; the page shows nothing the harness recognises (${page?.title || 'untitled'})${unlearned(facts, state)}${read}` });
      }
      if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...problems.slice(1), ...evidence]);
      if (shown) return pass(shown, `shown as ${state} ${shown} time(s)`, evidence);
      return inconclusive(`no page could be recognised as the ${state} state`, configure, evidence);
    },
  };
}

export const JOURNEY_CHECKS: Check[] = [
  {
    id: 'coverage.sandbox_calls',
    title: 'The preview makes the six sandbox calls: a session and an entry per scenario',
    group: 'coverage',
    spec: '§1 lifecycle 3 and 6',
    kind: 'can_fail',
    guidance: { rules: ['sandbox-six-calls'], fix: 'Let the preview open one sandbox session per scenario and submit its entry ({} and nothing else).', reference: `${REFERENCE_AGENCY}/preview.ts` },
    allowedBy: ['markers.preview_link'],
    configure: 'preview (or --preview): the preview callback URL, and markers.preview_link if its links do not name the scenarios',
    evaluate(facts) {
      if (facts.previewed.length === 0) return undefined;
      const sandbox = facts.calls.filter((call) => call.environment === 'sandbox');
      const rows = SANDBOX_SCENARIOS.map((scenario) => {
        const sessions = sandbox.filter((call) => call.method === 'POST' && call.path === '/sessions' && call.status === 201 && (call.body as { scenario?: string })?.scenario === scenario);
        const ids = new Set(sessions.map((call) => call.session_id));
        // A fault the harness armed (the preview's failure page, harness/run/state-steps.ts) is not the agency's doing.
        const entries = sandbox.filter((call) => isEntry(call) && ids.has(call.session_id) && call.fault === undefined);
        return { scenario, session_created: sessions.length > 0, entry_submitted: entries.some((call) => accepted(call, scenario)), entries_refused: entries.filter((call) => !accepted(call, scenario)).map((call) => `${call.status} ${call.answer?.error ?? ''}`.trim()) };
      });
      const missing = rows.flatMap((row) => [
        ...(row.session_created ? [] : [`${row.scenario}: no session${facts.previewed.includes(row.scenario) ? '' : ' (no link to it found on the preview)'}`]),
        ...(row.entry_submitted ? [] : [`${row.scenario}: no entry${row.entries_refused.length ? ` the service accepted (refused: ${row.entries_refused.join(', ')})` : ''}`]),
      ]);
      const evidence = [{ label: 'sandbox calls seen through the preview', data: rows }, ...(facts.checklist ? [{ label: "the brand's checklist", data: facts.checklist }] : [])];
      if (missing.length) return fail(`the preview did not make every sandbox call (${missing.join('; ')})`, [{ label: missing.join('; ') }, ...evidence]);
      return pass(rows.length, 'six sandbox sessions and six accepted entries, made through the preview', evidence);
    },
  },
  {
    id: 'journey.landing_page',
    title: 'The callback URL without service_request is the campaign landing page',
    group: 'journey',
    spec: '§1 rules',
    kind: 'can_fail',
    guidance: { rules: ['callback-is-landing'], fix: 'Answer the callback URL without service_request with the campaign page asking to scan a pack, not an error.', reference: `${REFERENCE_AGENCY}/pages/landing.ts` },
    allowedBy: STATE_PAGES,
    configure: LANDING,
    evaluate(facts) {
      const landing = facts.expectations.filter((expectation) => expectation.wanted === 'landing');
      if (landing.length === 0) return undefined;
      const problems: Evidence[] = [];
      const evidence: Evidence[] = [];
      let shown = 0;
      for (const { page, met } of landing) {
        if (!page) continue;
        const campaign = Boolean(facts.campaignName && page.text.includes(facts.campaignName));
        const item = { label: `${redactUrl(page.url)}: HTTP ${page.status}; shows ${page.shows.join(', ') || 'nothing recognised'}${campaign ? `; names the campaign "${facts.campaignName}"` : ''}${loadingNote(page)}` };
        if ((page.status ?? 200) >= 400 || page.shows.includes('page:error')) problems.push(item);
        else if (met || campaign) shown += 1;
        evidence.push(item);
      }
      if (problems.length) return fail(`the callback URL without service_request answers an error instead of the campaign: ${problems[0]!.label}`, [problems[0]!, ...evidence]);
      return shown ? pass(shown, 'the campaign, at the callback URL', evidence) : inconclusive('the page at the callback URL is neither recognised as the landing page nor names the campaign', LANDING, evidence);
    },
  },
  ...RESULT_STATES.map(stateCheck),
  {
    id: 'journey.won_details',
    title: 'A full production entry shows the prize, its delivered codes and the redemption link',
    group: 'journey',
    spec: '§4.2 won, §2.5',
    kind: 'can_fail',
    guidance: { rules: ['result-won', 'won-shows-prize'], fix: 'On a won entry show the prize name, every delivered code and the redemption_url when there is one.', reference: `${REFERENCE_AGENCY}/pages/result.ts` },
    allowedBy: STATE_PAGES,
    evaluate(facts) {
      const won = productionEntries(facts).filter(({ call }) => call.status === 200 && call.answer?.entry_state === 'won');
      const problems: Evidence[] = [];
      const evidence: Evidence[] = [];
      for (const { journey, call } of won) {
        const expectation = facts.expectations.find((candidate) => candidate.scenario === journey.scenario && candidate.journey === journey.journey && candidate.state === 'won' && candidate.met);
        const page = expectation?.page;
        if (!page) continue;
        const codes = call.answer?.codes ?? [];
        const missingCodes = codes.filter((code) => !page.text.includes(code));
        const redemption = call.answer?.redemption_url;
        const linked = !redemption || page.links.some((link) => sameUrl(link, redemption));
        const prize = call.answer?.prize;
        const named = !prize || page.text.includes(prize);
        const item = { label: `${where(journey)}: prize "${prize}" ${named ? 'named' : 'not named'}, ${codes.length - missingCodes.length} of ${codes.length} code(s) shown, redemption link ${redemption ? (linked ? 'shown' : 'missing') : 'none to show'}` };
        (missingCodes.length || !linked || !named ? problems : evidence).push(item);
      }
      if (problems.length) return fail(problems[0]!.label, [problems[0]!, ...problems.slice(1), ...evidence]);
      return evidence.length ? pass(evidence.length, 'prize, codes and redemption link shown', evidence) : undefined;
    },
  },
  {
    id: 'journey.unavailable_rewards_link',
    title: "The unavailable state links back to the collector's Rewards page",
    group: 'journey',
    spec: '§4.2 unavailable, §2.2 campaign.rewards_path',
    kind: 'can_fail',
    guidance: { rules: ['result-unavailable', 'rewards-path'], fix: "Link the unavailable state to campaign.rewards_path resolved against the service's origin.", reference: `${REFERENCE_AGENCY}/pages/result.ts` },
    allowedBy: STATE_PAGES,
    evaluate(facts) {
      const pages = facts.expectations.filter((expectation) => expectation.state === 'unavailable' && expectation.met && expectation.page).map((expectation) => expectation.page!);
      if (pages.length === 0) return undefined;
      const rewards = `${facts.origins.emulator}/rewards`;
      const linked = (page: (typeof pages)[number]) => page.links.some((link) => sameUrl(link, rewards));
      const evidence = pages.map((page) => ({ label: `${redactUrl(page.url)}: ${linked(page) ? 'links' : 'no link'} to ${rewards}` }));
      const without = evidence.filter((_item, index) => !linked(pages[index]!));
      return without.length ? fail(`the unavailable page has no link to ${rewards}`, [without[0]!, ...evidence]) : pass(pages.length, `links to ${rewards}`, evidence);
    },
  },
];

function sameUrl(a: string, b: string): boolean {
  try {
    const left = new URL(a);
    const right = new URL(b);
    return left.origin === right.origin && left.pathname.replace(/\/$/, '') === right.pathname.replace(/\/$/, '');
  } catch {
    return a === b;
  }
}
