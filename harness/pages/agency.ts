/**
 * Page objects for an agency's pages. What a page shows is recognised by its structure (the
 * consent form by the box that accepts the terms) and by the markers harness.config.json maps the
 * harness's names to (`markers.pages`, `markers.states`); the reference agency's markers are only
 * the defaults. Scenario steps call these, never raw selectors.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { ElementHandle, Locator, Page } from 'playwright-core';
import { disableValidation } from '../browser/fields.js';
import { type ConsentBox, type ConsentHints, type Fingerprint, type ShownMark, fingerprint, linksOf, readConsent, recognise, shownMark, shownSince } from '../browser/in-page.js';
import { consentOpeners } from '../browser/openers.js';
import { outside } from '../browser/outside.js';
import type { Config } from '../config.js';
import { type Shown, type StateName, statesShown } from '../journey-states.js';
import { type Vocabulary, patternOf, vocabularyOf } from '../vocabulary.js';
import { firstFound, untilAnyAttached } from './locate.js';
import { type MarkerConfig, RECOGNISED, recognisedSelectors, selectorFor } from './markers.js';
import { type Person, fillAsPerson } from './person.js';
import { withoutServiceData } from './service-data.js';
import type { StateBook } from './states.js';


/** What reading a consent form takes: the config's markers, the vocabulary's patterns, the minimum age its terms set. */
function consentHints(markers: MarkerConfig, vocabulary: Vocabulary, minimumAge: number | undefined, probe?: string): ConsentHints {
  const source = (words: string[]) => patternOf(words).source;
  return {
    form: markers.entry_form, termsText: markers.terms_text, termsVersion: markers.terms_version, boxes: markers.consent_boxes,
    words: { terms: source(vocabulary.terms), accept: source(vocabulary.accept), age: source(vocabulary.age), marketing: source(vocabulary.marketing) },
    ...(minimumAge === undefined ? {} : { minimumAge }),
    ...(probe ? { probe } : {}),
  };
}

/** Links a person can follow: not a jump within the page. */
const LINKS = 'a[href]:not([href^="#"])';
/** Those links, and the buttons a person can act on. */
const ACTIONS = `${LINKS}, button, [role=button], input[type=submit]`;
/** How long an element found on the page may take to be handed over: no time on a quiet machine, seconds on a busy one. */
const FOUND_MS = 10_000;

/** What a page shows, and what it is made of. */
export interface PageReading {
  shown: Shown[];
  features?: Fingerprint;
  /** The state shown, when it was recognised by the signature learned from the preview (not by a marker). */
  learned?: StateName;
}

/**
 * Any agency page: what it shows now, what it showed since a moment, and waiting until it shows
 * something. A state is recognised by the config's marker, which wins when it matches; else by
 * the signature the run learned from the preview (harness/pages/states.ts), when exactly one
 * learned state's signature is on the page.
 */
export class AgencyPage {
  private readonly selectors: string[];

  constructor(
    readonly page: Page,
    readonly markers: MarkerConfig,
    private readonly states?: StateBook,
    readonly vocabulary: Vocabulary = vocabularyOf(),
    /** The attribute of the harness's terms markup probe this run (RunFacts.probeMark): its elements are no feature of the page. */
    private readonly probe?: string,
  ) {
    this.selectors = recognisedSelectors(markers);
  }

  /** A moment to ask about later with `shownSince` (the browser session records them: `recordShown`). */
  mark(): Promise<ShownMark> {
    return outside(this.page, shownMark).catch(() => ({ document: 0, at: 0 }));
  }

  /** What the page showed at some time since the mark, as its record of changes saw it (CSS markers only). */
  async shownSince(mark: ShownMark): Promise<Shown[]> {
    const indices = await outside(this.page, shownSince, mark).catch((): number[] => []);
    return indices.map((index) => RECOGNISED[index]!.shown);
  }

  /** The words the page shows ('' when it cannot be read). */
  text(): Promise<string> {
    return this.page.locator('body').innerText().catch(() => '');
  }

  /** Every page kind and state recognised. */
  async shows(): Promise<Shown[]> {
    return (await this.read()).shown;
  }

  /**
   * Every page kind and state whose marker matches, the consent form when its boxes are there, else
   * the learned state the page carries; and the page's features, when they were read for that or
   * `withFeatures` asks for them.
   */
  async read(withFeatures = false): Promise<PageReading> {
    const { matched, features, consent } = await this.onLoadedPage(async () => {
      const [{ matches, features }, consent] = await Promise.all([this.recognised(withFeatures), outside(this.page, readConsent, consentHints(this.markers, this.vocabulary, undefined))]);
      return { matched: await Promise.all(matches.map((hit, index) => (hit ?? this.page.locator(this.selectors[index]!).count().then((count) => count > 0)))), features, consent };
    });
    const shown = RECOGNISED.filter((_item, index) => matched[index]).map((item) => item.shown);
    if (consent.hasForm && !shown.includes('page:consent')) shown.push('page:consent');
    if (features && !shown.includes('page:consent') && !shown.some((item) => item.startsWith('state:'))) {
      const [learned, ...others] = this.states?.carried(features) ?? [];
      if (learned && others.length === 0) {
        shown.push(`state:${learned}`);
        return { shown, features, learned };
      }
    }
    return { shown, ...(features ? { features } : {}) };
  }

  /** The page's own reading of its markers, and of its features when asked or when a learned state may be what it shows. */
  private async recognised(withFeatures: boolean): Promise<Awaited<ReturnType<typeof recognise>> & { features?: Fingerprint }> {
    const markers = await outside(this.page, recognise, { selectors: this.selectors });
    const learning = this.states?.learned && !markers.matches.some((hit, index) => hit === true && RECOGNISED[index]!.shown.startsWith('state:'));
    return withFeatures || learning ? { ...markers, features: await withoutServiceData(this.page, await outside(this.page, fingerprint, this.probe), this.states?.data) } : markers;
  }

  /**
   * A reading of the page, taken again once the next page loaded when the page navigated by itself
   * meanwhile (a wait page retrying): a reading is never of two documents.
   */
  private async onLoadedPage<T>(read: () => Promise<T>, attempt = 1): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (attempt >= 5 || !/context was destroyed|navigat/i.test((error as Error).message)) throw error;
      await this.page.waitForLoadState('domcontentloaded').catch(() => undefined);
      return this.onLoadedPage(read, attempt + 1);
    }
  }

  /**
   * Waits until the page shows `wanted`; gives up after `timeoutMs`, or after `graceMs` once it
   * settles on something else it recognises (another state, an error). Resolves with the last reading.
   */
  async waitFor(
    wanted: (shown: Shown[], reading: PageReading) => boolean | Promise<boolean>,
    options: { timeoutMs: number; graceMs?: number; other?: (shown: Shown[]) => boolean; withFeatures?: boolean },
  ): Promise<{ met: boolean; shown: Shown[] }> {
    const started = Date.now();
    let otherSince: number | undefined;
    for (;;) {
      const reading = await this.read(options.withFeatures).catch((): PageReading => ({ shown: [] }));
      const { shown } = reading;
      if (await wanted(shown, reading)) return { met: true, shown };
      const now = Date.now();
      otherSince = options.other?.(shown) ? (otherSince ?? now) : undefined;
      if (now - started >= options.timeoutMs || (otherSince !== undefined && now - otherSince >= (options.graceMs ?? 2000))) return { met: false, shown };
      await sleep(250);
    }
  }

  /** Waits up to `timeoutMs` until the page draws a landing page: its marker, the campaign's name, or an error. */
  async landingDrawn(campaignName: string | undefined, timeoutMs: number): Promise<void> {
    const drawn = [selectorFor(this.markers, 'page', 'landing'), selectorFor(this.markers, 'page', 'error')].map((selector) => this.page.locator(selector));
    if (campaignName) drawn.push(this.page.getByText(campaignName));
    await untilAnyAttached(drawn, timeoutMs);
  }

  /**
   * The way back to the entry after a refusal, pinned to the page as it is now, while it still shows
   * the refusal: a page that sent the entry again by itself has moved on to its result, whose links
   * lead elsewhere (a handle of the left page cannot be clicked; a locator would find the new one's).
   */
  async wayBack(consentUrl?: string): Promise<ElementHandle | undefined> {
    // A document the page is still parsing (it navigated by itself) has its header before its main content.
    await this.page.waitForLoadState('domcontentloaded').catch(() => undefined);
    const handle = await (await this.tryAgain(consentUrl))?.elementHandle({ timeout: FOUND_MS }).catch(() => null);
    if (!handle) return undefined;
    const movedOn = statesShown((await this.read(true)).shown).some((state) => state !== 'rate_limited' && state !== 'error');
    return movedOn ? undefined : handle;
  }

  /**
   * The way back to the entry after a refusal, when the page offers one: the configured one; else a
   * link to the page the consent form was sent from; else the one action of the page's main
   * content; else a link or button named like "try again" in a language of the vocabulary.
   */
  private async tryAgain(consentUrl?: string): Promise<Locator | undefined> {
    if (this.markers.try_again) return firstFound([this.page.locator(this.markers.try_again)]);
    const links = consentUrl ? await outside(this.page, linksOf, LINKS).catch((): Array<{ path: string; href: string }> => []) : [];
    const back = links.find(({ href }) => samePage(href, consentUrl!));
    if (back) return this.page.locator(back.path);
    const main = this.page.locator('main, [role=main]');
    const actions = ((await main.count()) === 1 ? main : this.page.locator('body')).locator(ACTIONS);
    if ((await actions.count()) === 1) return actions.first();
    const name = patternOf(this.vocabulary.try_again);
    return firstFound([this.page.getByRole('link', { name }), this.page.getByRole('button', { name })]);
  }
}

/** Whether two URLs are the same page: origin and path, whatever their query. */
function samePage(href: string, page: string): boolean {
  try {
    const [one, other] = [new URL(href), new URL(page)];
    return one.origin === other.origin && one.pathname === other.pathname;
  } catch {
    return false;
  }
}

type ConsentForm = Awaited<ReturnType<typeof readConsent>>;

/** How long a form may take to show once what opens it was clicked (an animated drawer). */
const OPEN_MS = 5000;
const OPENED_BY = { marker: 'markers.consent_open', reference: 'it names the form\'s container', disclosure: 'the summary of its disclosure', action: 'the one button of the main content' } as const;

/** The production consent form: the terms, the boxes and the button that sends it. */
export class ConsentPage {
  /** Where the form and its boxes were when last read (`read`): the page is never marked. */
  private where: ConsentForm['where'];

  /** `minimumAge`: the one the journey's terms set, so its box is known by its number in any language. */
  constructor(
    readonly page: Page,
    private readonly markers: MarkerConfig,
    private readonly vocabulary: Vocabulary = vocabularyOf(),
    private readonly minimumAge?: number,
    /** The attribute of the harness's terms markup probe this run (RunFacts.probeMark): its elements are counted. */
    private readonly probe?: string,
  ) {}

  /** The form as last read; nothing matches before it was read, or when there was none. */
  get root(): Locator {
    return this.where ? this.page.locator(this.where.root) : this.page.locator('html').and(this.page.locator('body'));
  }

  /** The form now (and where it is, for the locators below). */
  async read(): Promise<ConsentForm> {
    const form = await outside(this.page, readConsent, consentHints(this.markers, this.vocabulary, this.minimumAge, this.probe));
    this.where = form.where;
    return form;
  }

  /**
   * Shows the form when the page holds it hidden (a closed dialog, disclosure or drawer) as a person
   * would, by the one element that opens it (browser/openers.ts), clicked through `act`. Returns
   * what it clicked, for the evidence; undefined when the form was shown already or is not on the
   * page. Throws, naming markers.consent_open, when nothing or more than one thing could open it,
   * or when the click did not show it: the harness never guesses.
   */
  async open(act: (click: () => Promise<void>) => Promise<void>): Promise<string | undefined> {
    const form = await this.read();
    if (!form.where || form.visible) return undefined;
    const { by, openers } = await outside(this.page, consentOpeners, { root: form.where.root, ...(this.markers.consent_open ? { opener: this.markers.consent_open } : {}) });
    const named = openers.map(({ text }) => `"${text}"`).join(', ');
    if (openers.length === 0) throw new Error(`the consent form is on the page but hidden, and ${by === 'marker' ? 'markers.consent_open matches nothing shown' : 'nothing shown opens it'}: markers.consent_open names what does`);
    if (openers.length > 1) throw new Error(`the consent form is on the page but hidden, and ${openers.length} elements could open it (${named}): markers.consent_open names the one`);
    await act(() => this.page.locator(openers[0]!.path).click());
    if (!(await this.readWhen((now) => now.visible, OPEN_MS)).visible) throw new Error(`clicking ${named} did not show the consent form within ${OPEN_MS / 1000} s: markers.consent_open names what opens it`);
    return `the form was hidden; the harness clicked ${named} (${OPENED_BY[by]}) to show it`;
  }

  /** The form once `wanted` holds of it, read every 250 ms, or as it is after `timeoutMs`: a page that fetches its terms again redraws a moment later. */
  async readWhen(wanted: (form: ConsentForm) => boolean, timeoutMs: number): Promise<ConsentForm> {
    const deadline = Date.now() + timeoutMs;
    let form = await this.read();
    while (!wanted(form) && Date.now() < deadline) {
      await sleep(250);
      form = await this.read().catch(() => form);
    }
    return form;
  }

  /** Ticks the boxes whose role is wanted, unticks every other one. */
  async tick(boxes: ConsentBox[], wanted: Partial<Record<ConsentBox['role'], boolean>>): Promise<void> {
    for (const [index, box] of boxes.entries()) {
      const path = this.where?.boxes[index];
      if (path) await this.page.locator(path).setChecked(wanted[box.role] ?? false);
    }
  }

  /**
   * Fills every field of the form a person would fill, besides its boxes, as `person` would: what
   * each asks for by its type or its label, in any language of the vocabulary. Returns how many it filled.
   */
  async fill(person: Person): Promise<number> {
    return this.where ? fillAsPerson(this.page, this.where.root, person, this.vocabulary) : 0;
  }

  async disableValidation(): Promise<void> {
    if (this.where) await outside(this.page, disableValidation, this.where.root);
  }

  /** The form's submit button (a <button> without a type is one), else its only button, else one named like a submit in the vocabulary. */
  async submit(): Promise<Locator | undefined> {
    if (!this.where) await this.read();
    const buttons = this.root.locator('button, [role=button], input[type=submit]');
    const only = (await buttons.count()) === 1 ? [buttons] : [];
    return firstFound([this.root.locator('button[type=submit], button:not([type]), input[type=submit]'), ...only, this.root.getByRole('button', { name: patternOf(this.vocabulary.submit) })]);
  }
}

/** The consent form of a page under this config, for a journey whose terms set `minimumAge`; `probe`: the run's terms markup probe attribute. */
export function consentPageOf(page: Page, config: Pick<Config, 'markers' | 'vocabulary'>, minimumAge: number | undefined, probe?: string): ConsentPage {
  return new ConsentPage(page, config.markers, vocabularyOf(config.vocabulary), minimumAge, probe);
}
