/**
 * The step pages around the consent form, taken as a person takes them: before it (an age
 * question), and after it was sent, before the entry reaches the service (a summary with a confirm
 * button). A step is the one form of the page's main content, filled as the journey's person and
 * sent by its one button; at most STEP_PAGES of them, each bounded, each in the evidence. A page
 * that shows anything the harness recognises (a state, an error, the form) is no step: the harness
 * clicks nothing there, except, once the form was sent, a step drawn beside the form still in the
 * page (a single-page app's summary) that was not there before. Two candidates are never guessed between.
 */
import { stepForm } from '../browser/openers.js';
import { outside } from '../browser/outside.js';
import type { BrowserSession } from './browser-session.js';
import type { Shown } from '../journey-states.js';
import { consentPageOf } from '../pages/agency.js';
import { fillAsPerson, personOf } from '../pages/person.js';
import { vocabularyOf } from '../vocabulary.js';
import { redactUrl } from './facts.js';
import type { ScenarioRun } from './scenario-run.js';

/** Step pages before the consent form, and after it, at most. */
const STEP_PAGES = 3;
/** How long a step's form must stay the page's only one, nothing recognised beside it, before the harness takes it: a page still drawing its consent form is waited for. */
const STEP_SETTLED_MS = 1500;
/** How long, after the consent form was sent, the harness waits for the entry to reach the service, or for a page that asks to confirm it. */
const CONFIRM_WAIT_MS = 10_000;

type Step = Awaited<ReturnType<typeof stepForm>>;
type Wait = { timeoutMs: number; other?: (shown: Shown[]) => boolean; graceMs?: number };

/** Waits for the consent form (`wait`: AgencyPage.waitFor's options), taking the step pages before it; returns what it did on each. */
export async function reachConsent(run: ScenarioRun, session: BrowserSession, wait: Wait): Promise<string[]> {
  const taken: string[] = [];
  while (await takeStep(run, session, taken, false, (shown) => shown.includes('page:consent'), wait)) {
    // The next step, or the consent form.
  }
  return taken;
}

/**
 * After the consent form was sent: takes the pages that ask to confirm it until the entry reaches
 * the service (`entered`) or the page shows something recognised; returns what it did on each.
 * Throws, naming markers.consent_step, when such a page offers several buttons.
 */
export async function confirmEntry(run: ScenarioRun, session: BrowserSession, entered: () => Promise<boolean>, standing?: Standing): Promise<string[]> {
  const taken: string[] = [];
  while (await takeStep(run, session, taken, true, async (shown) => settled(shown, standing) || (await entered()), { timeoutMs: CONFIRM_WAIT_MS }, standing)) {
    // The next step, or the entry.
  }
  return taken;
}

/** What stood beside the consent form before it was sent (stepBeside's reading, as JSON): only a step drawn since is one. Unknown: no step is looked for beside the form. */
type Standing = string | undefined;

/** Read before the consent form is sent: the step its page shows beside it already, which is none to take once it was sent. */
export async function standingBeside(run: ScenarioRun, session: BrowserSession): Promise<Standing> {
  const step = await stepBeside(run, session).then((found) => found ?? null, () => undefined);
  return step === undefined ? undefined : JSON.stringify(step);
}

/** The step beside the consent form the page holds (shown or hidden), as stepForm finds it; none without the form. */
async function stepBeside(run: ScenarioRun, session: BrowserSession) {
  const { where } = await consentPageOf(session.page, run.env.config, undefined).read();
  if (!where) return undefined;
  return outside(session.page, stepForm, { button: run.env.config.markers.consent_step, besides: where.root });
}

/** Once the form was sent, whether the page settled on something recognised: anything, or, when a step may be drawn beside the form (`standing` known), anything but the form. */
const settled = (shown: Shown[], standing: Standing) => (standing === undefined ? shown.length > 0 : shown.some((item) => item !== 'page:consent'));

/**
 * Waits until `done`, or a step's form stood alone for a moment: then takes it and says so in
 * `taken`. Whether it took one.
 */
async function takeStep(run: ScenarioRun, session: BrowserSession, taken: string[], after: boolean, done: (shown: Shown[]) => boolean | Promise<boolean>, wait: Wait, standing?: Standing): Promise<boolean> {
  // Past STEP_PAGES, only `done` is waited for.
  const step = await stepOf(run, session, after, done, wait, taken.length < STEP_PAGES, standing);
  if (!step) return false;
  await fillAsPerson(session.page, step.form, personOf(run.facts.runId, run.journey(session.journey).country), vocabularyOf(run.env.config.vocabulary));
  await session.act(() => session.page.locator(step.submit).click());
  taken.push(`${step.where}: the harness filled its form as the journey's person and clicked "${step.text}"`);
  return true;
}

/**
 * The step the page shows once it stood alone for a moment, nothing recognised beside it; none
 * once `done`, or at the end of `wait` (only `done` is waited for unless `looking`). After the
 * consent form (`after`), a page that stood offering several buttons is an error naming
 * markers.consent_step; before it, no step. After it, a page still holding the consent form (a
 * single-page app draws its summary without loading another page) has a step only beside the form
 * and unlike what stood there before it was sent (`standing`); with none for a moment, the form
 * asks again (a refusal), and there is no step.
 */
async function stepOf(run: ScenarioRun, session: BrowserSession, after: boolean, done: (shown: Shown[]) => boolean | Promise<boolean>, wait: Wait, looking = true, standing?: Standing) {
  const found: { step?: Step; since?: number; alone?: number } = {};
  const isStep = async (shown: Shown[]) => {
    const beside = after && standing !== undefined && shown.length === 1 && shown[0] === 'page:consent';
    found.step = !looking ? undefined
      : shown.length === 0 ? await outside(session.page, stepForm, { button: run.env.config.markers.consent_step }).catch(() => undefined)
      : beside ? await stepBeside(run, session).then((step) => (JSON.stringify(step ?? null) === standing ? undefined : step), () => undefined)
      : undefined;
    found.since = found.step && (after || !('several' in found.step)) ? (found.since ?? Date.now()) : undefined;
    found.alone = beside && !found.step ? (found.alone ?? Date.now()) : undefined;
    return [found.since, found.alone].some((since) => since !== undefined && Date.now() - since >= STEP_SETTLED_MS);
  };
  const { shown } = await run.view(session).waitFor(async (now) => (await done(now)) || (await isStep(now)), wait);
  const { step } = found;
  if (!step || (await done(shown))) return undefined;
  const url = redactUrl(session.page.url());
  const where = after ? `after the consent form was sent, a page at ${url}` : `a step before the consent form at ${url}`;
  if (!('several' in step)) return { ...step, where };
  if (!after) return undefined;
  throw new Error(`${where} offers ${step.several.length} buttons (${step.several.map((text) => `"${text}"`).join(', ')}) and the entry did not reach the service: markers.consent_step names the one a person takes`);
}

/** The page asking to confirm the consent form once sent, when the page shows one (the entry endpoint probe sends its request instead of clicking). */
export function confirmStepOf(run: ScenarioRun, session: BrowserSession, standing?: Standing) {
  return stepOf(run, session, true, (shown) => settled(shown, standing), { timeoutMs: CONFIRM_WAIT_MS }, true, standing);
}
