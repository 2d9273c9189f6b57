/** API coverage and the journey's pages. @see spec §1 lifecycle and rules, §4.2 */
import { redactUrl } from '../run/facts.js';
import { SANDBOX_SCENARIOS } from '../scenarios/schema.js';
import { isEntry, productionEntries, where } from './observed.js';
import { type Check, fail, pass } from './types.js';

const STATES = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered', 'invalid_session', 'unavailable', 'rate_limited'];

export const JOURNEY_CHECKS: Check[] = [
  {
    id: 'coverage.sandbox_calls',
    title: 'The preview makes the six sandbox calls: a session and an entry per scenario',
    group: 'coverage',
    spec: '§1 lifecycle 3 and 6',
    kind: 'can_fail',
    evaluate(facts) {
      if (facts.previewed.length === 0) return undefined;
      const sandbox = facts.calls.filter((call) => call.environment === 'sandbox');
      const rows = SANDBOX_SCENARIOS.map((scenario) => {
        const sessions = sandbox.filter((call) => call.method === 'POST' && call.path === '/sessions' && call.status === 201 && (call.body as { scenario?: string })?.scenario === scenario);
        const ids = new Set(sessions.map((call) => call.session_id));
        const entries = sandbox.filter((call) => isEntry(call) && ids.has(call.session_id));
        return { scenario, session_created: sessions.length > 0, entry_submitted: entries.length > 0 };
      });
      const missing = rows.flatMap((row) => [...(row.session_created ? [] : [`${row.scenario}: no session`]), ...(row.entry_submitted ? [] : [`${row.scenario}: no entry`])]);
      const evidence = [{ label: 'sandbox calls seen through the preview', data: rows }, ...(facts.checklist ? [{ label: "the brand's checklist", data: facts.checklist }] : [])];
      return missing.length ? fail(`the preview did not make every sandbox call (${missing.join('; ')})`, evidence) : pass('six sandbox sessions and six entries, made through the preview', evidence);
    },
  },
  {
    id: 'journey.landing_page',
    title: 'The callback URL without service_request is the campaign landing page',
    group: 'journey',
    spec: '§1 rules',
    kind: 'can_fail',
    evaluate(facts) {
      // The pages of the browser that opened the bare callback URL (open_landing), wherever it ended.
      const landing = facts.pages.filter((page) => page.journey === 'landing');
      if (landing.length === 0) return undefined;
      const bad = landing.filter((page) => (page.status ?? 200) >= 400 || page.markers.page === 'error');
      const evidence = landing.map((page) => ({ label: `${page.url}: HTTP ${page.status}, page "${page.markers.page ?? '?'}"${page.markers.error ? `, error "${page.markers.error}"` : ''}` }));
      return bad.length
        ? fail(`the landing page answers HTTP ${bad[0]!.status}${bad[0]!.markers.error ? ` (${bad[0]!.markers.error})` : ''} instead of the campaign`, evidence)
        : pass('the campaign and a prompt to scan a pack', evidence);
    },
  },
  {
    id: 'journey.states_rendered',
    title: 'Every §4.2 state has its own page: won, lost, pending, failed, ineligible, already entered, invalid session, unavailable, rate limited',
    group: 'journey',
    spec: '§4.2',
    kind: 'can_fail',
    evaluate(facts) {
      const expected = facts.expectations.filter((expectation) => expectation.state && STATES.includes(expectation.state));
      if (expected.length === 0) return undefined;
      const wrong = expected.filter((expectation) => !expectation.met);
      const seen = new Set(expected.filter((expectation) => expectation.met).map((expectation) => expectation.state));
      const notRun = STATES.filter((state) => !expected.some((expectation) => expectation.state === state));
      const evidence = expected.map((expectation) => ({
        label: `${expectation.environment} ${expectation.state}: ${expectation.met ? 'shown' : `shown as ${expectation.shown.entryState ?? expectation.shown.error ?? expectation.shown.page ?? 'nothing'}`} (${redactUrl(expectation.url)})`,
      }));
      if (wrong.length) {
        return fail(`${wrong.map((expectation) => `${expectation.state} is shown as "${expectation.shown.entryState ?? expectation.shown.error ?? expectation.shown.page ?? 'nothing'}"`).join('; ')}`, evidence);
      }
      return pass(`${seen.size} states, each its own page${notRun.length ? ` (not exercised in this run: ${notRun.join(', ')})` : ''}`, evidence);
    },
  },
  {
    id: 'journey.won_details',
    title: 'A full production entry shows the prize, its delivered codes and the redemption link',
    group: 'journey',
    spec: '§4.2 won, §2.5',
    kind: 'can_fail',
    evaluate(facts) {
      const won = productionEntries(facts).filter(({ call }) => call.status === 200 && call.answer?.entry_state === 'won');
      if (won.length === 0) return undefined;
      const problems: string[] = [];
      const evidence = won.map(({ journey, call }) => {
        const page = [...facts.pages].reverse().find((candidate) => candidate.scenario === journey.scenario && candidate.journey === journey.journey && candidate.markers.entryState === 'won');
        const codes = call.answer?.codes ?? [];
        const missingCodes = codes.filter((code) => !page?.text.includes(code));
        const redemption = call.answer?.redemption_url;
        const linked = !redemption || Boolean(page?.links.some((link) => sameUrl(link, redemption)));
        const prize = call.answer?.prize;
        const named = !prize || Boolean(page?.text.includes(prize));
        if (!page) problems.push(`${where(journey)}: no won page`);
        else {
          if (missingCodes.length) problems.push(`${where(journey)}: the delivered code is not shown`);
          if (!linked) problems.push(`${where(journey)}: no link to the redemption URL`);
          if (!named) problems.push(`${where(journey)}: the prize is not named`);
        }
        return { label: `${where(journey)}: prize "${prize}", ${codes.length} code(s), redemption ${redemption ?? 'none'}`, data: { shown: page ? { codes: codes.length - missingCodes.length, redemption_link: linked, prize: named } : null } };
      });
      return problems.length ? fail(problems.join('; '), evidence) : pass('prize, codes and redemption link shown', evidence);
    },
  },
  {
    id: 'journey.unavailable_rewards_link',
    title: "The unavailable state links back to the collector's Rewards page",
    group: 'journey',
    spec: '§4.2 unavailable, §2.2 campaign.rewards_path',
    kind: 'can_fail',
    evaluate(facts) {
      const pages = facts.pages.filter((page) => page.markers.entryState === 'unavailable');
      if (pages.length === 0) return undefined;
      const rewards = `${facts.origins.emulator}/rewards`;
      const without = pages.filter((page) => !page.links.some((link) => sameUrl(link, rewards)));
      const evidence = pages.map((page) => ({ label: `${redactUrl(page.url)}: ${page.links.some((link) => sameUrl(link, rewards)) ? 'links' : 'no link'} to ${rewards}` }));
      return without.length ? fail(`the unavailable page has no link to ${rewards}`, evidence) : pass(`links to ${rewards}`, evidence);
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
