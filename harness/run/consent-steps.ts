/**
 * The way to the consent form, as a person finds it: through the step pages a site puts before it
 * (an age question, a summary to confirm), each the one form of the page's main content, filled
 * as the journey's person and sent by its one button; at most STEP_PAGES of them, each bounded,
 * each in the evidence. A page that shows anything the harness recognises (a state, an error) is
 * no step: the harness clicks nothing there.
 */
import { stepForm } from '../browser/openers.js';
import { outside } from '../browser/outside.js';
import type { BrowserSession } from '../browser/session.js';
import type { Shown } from '../journey-states.js';
import { fillAsPerson, personOf } from '../pages/person.js';
import { vocabularyOf } from '../vocabulary.js';
import { redactUrl } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';

/** Step pages before the consent form, at most. */
const STEP_PAGES = 3;
/** How long a step's form must stay the page's only one, nothing recognised beside it, before the harness takes it: a page still drawing its consent form is waited for. */
const STEP_SETTLED_MS = 1500;

/** Waits for the consent form (`wait`: AgencyPage.waitFor's options), taking the step pages before it; returns what it did on each. */
export async function reachConsent(run: ScenarioRun, session: BrowserSession, wait: { timeoutMs: number; other?: (shown: Shown[]) => boolean; graceMs?: number }): Promise<string[]> {
  const view = run.view(session);
  const taken: string[] = [];
  for (;;) {
    const found: { step?: Awaited<ReturnType<typeof stepForm>>; since?: number } = {};
    // The wait ends at the consent form, or once a step's form has stood alone for a moment.
    const isStep = async (shown: Shown[]) => {
      found.step = taken.length < STEP_PAGES && shown.length === 0 ? await outside(session.page, stepForm, run.env.config.markers.consent_step).catch(() => undefined) : undefined;
      found.since = found.step ? (found.since ?? Date.now()) : undefined;
      return found.since !== undefined && Date.now() - found.since >= STEP_SETTLED_MS;
    };
    const { shown } = await view.waitFor(async (now) => now.includes('page:consent') || (await isStep(now)), wait);
    const { step } = found;
    if (shown.includes('page:consent') || !step) return taken;
    const url = redactUrl(session.page.url());
    const journey = run.journey(session.journey);
    await fillAsPerson(session.page, step.form, personOf(run.facts.runId, journey.country), vocabularyOf(run.env.config.vocabulary));
    await session.act(() => session.page.locator(step.submit).click());
    taken.push(`a step before the consent form at ${url}: the harness filled its form as the journey's person and clicked "${step.text}"`);
  }
}
