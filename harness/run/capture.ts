/**
 * The advisory part of each state the agency's pages show: axe-core's violations, and a mobile
 * and a desktop screenshot for the brand's visual review. Each state (page kind, entry state,
 * error, environment) is captured once per run, the first time a scenario reaches it.
 *
 * axe runs as @axe-core/playwright's legacy mode runs it, in the page itself: its default opens a
 * second page per analysis to merge the frames' results, which doubled its cost (decisions/014).
 * Only violations are reported, so axe gathers only those. The harness injects axe-core itself,
 * its minified build once per frame, where AxeBuilder sends the full build twice (decisions/016).
 */
import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Frame, Page } from 'playwright-core';
import type { BrowserSession } from './browser-session.js';
import { DESKTOP_VIEWPORT, MOBILE } from '../browser/device.js';
import type { Capture, RunFacts } from './facts.js';
import type { PageSeen } from '../browser/seen.js';

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: unknown[];
}

/** What AxeBuilder's legacy mode configures in every frame it injects: frames of the page's own origin answer the top one. */
const CONFIGURE = ';axe.configure({ allowedOrigins: ["<same_origin>"], branding: { application: "playwright" } });';
/**
 * As AxeBuilder's legacy mode waits for a frame other than the top one to take the script: past
 * this, that frame goes unanalysed. The wait does not hold the process open once the run is done.
 */
const FRAME_INJECT_MS = 1000;

/** One state of the agency's pages: what it was recognised as showing, in which environment (else its title). */
/** A screenshot's bounds in CSS pixels: this many viewports wide, this tall. */
export const SHOT_LIMIT = { viewports: 2, height: 8000 };

/** The page's whole size in CSS pixels, as the browser lays it out (read from outside the page, which cannot change the answer). */
async function contentSize(page: Page): Promise<{ width: number; height: number } | undefined> {
  const cdp = await page.context().newCDPSession(page).catch(() => undefined);
  if (!cdp) return undefined;
  try {
    return (await cdp.send('Page.getLayoutMetrics')).cssContentSize;
  } catch {
    return undefined;
  } finally {
    await cdp.detach().catch(() => undefined);
  }
}

export function stateKey(seen: PageSeen): string {
  const shown = seen.shows.map((item) => item.replace(/^(page|state):/, '')).join('-');
  return `${seen.environment}:${shown || seen.title.trim().toLowerCase().replace(/\s+/g, '-') || 'page'}`;
}

export class Capturer {
  private axe: Promise<string | undefined> | undefined;
  /** What every other scenario's capture waits for (leadUntil). */
  private lead: Promise<void> = Promise.resolve();
  /** The states being captured now: a scenario reaching one meanwhile leaves it to that capture. */
  private readonly taking = new Set<string>();

  constructor(
    private readonly facts: RunFacts,
    private readonly options: { axe: boolean; screenshots: boolean },
  ) {}

  get enabled(): boolean {
    return this.options.axe || this.options.screenshots;
  }

  /**
   * Until `watches` settles, only the lead's captures run: the others' axe runs and screenshots
   * (the previews', which run beside it) would take the cores it needs on its way to its watch.
   */
  leadUntil(watches: Promise<void>): void {
    this.lead = watches;
  }

  /** `leads`: the capture is the run's lead's (ScenarioRun.leads), which waits for nothing. */
  async capture(session: BrowserSession, seen: PageSeen, leads = false): Promise<void> {
    if (!this.enabled) return;
    const key = stateKey(seen);
    const earlier = this.facts.captures.get(key);
    // A state axe could not analyse (the page went away mid-analysis) is analysed at its next visit; it is never counted as analysed without it.
    const axe = this.options.axe && !earlier?.axe;
    const screenshots = this.options.screenshots && !earlier?.screenshots.mobile;
    if ((!axe && !screenshots) || this.taking.has(key)) return;
    const capture: Capture = earlier ?? { key, scenario: session.scenario, url: seen.url, screenshots: {} };
    this.facts.captures.set(key, capture);
    this.taking.add(key);
    try {
      if (!leads) await this.lead;
      await this.take(session.page, seen.url, capture, { axe, screenshots });
    } finally {
      this.taking.delete(key);
    }
  }

  private async take(page: Page, url: string, capture: Capture, { axe, screenshots }: { axe: boolean; screenshots: boolean }): Promise<void> {
    if (axe) {
      const script = await this.axeScript();
      if (script) {
        try {
          const violations = await analyse(page, script);
          capture.axe = violations.map((violation) => ({ id: violation.id, impact: violation.impact ?? null, help: violation.help, nodes: violation.nodes.length }));
          delete capture.axeError;
        } catch (error) {
          capture.axeError = `axe-core could not analyse ${url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        }
      }
    }
    if (screenshots) {
      const folder = join(this.facts.outDir, 'screenshots');
      mkdirSync(folder, { recursive: true });
      const file = capture.key.replace(/[^a-z0-9_-]+/gi, '-');
      try {
        await this.shoot(page, capture, 'mobile', join(folder, `${file}.mobile.png`));
        await page.setViewportSize(DESKTOP_VIEWPORT);
        await this.shoot(page, capture, 'desktop', join(folder, `${file}.desktop.png`));
      } catch {
        // The page navigated away meanwhile (a polling reload): what was not taken is not listed, and the state's next visit takes it.
      } finally {
        await page.setViewportSize(MOBILE.viewport).catch(() => undefined);
      }
    }
  }

  /**
   * The whole page at its CSS size, cut at SHOT_LIMIT (the run's notes say where): a page as tall or
   * wide as the agency likes cannot make the browser draw, or the harness receive, an image without
   * end. The path is recorded only once the file is written.
   */
  private async shoot(page: Page, capture: Capture, size: 'mobile' | 'desktop', path: string): Promise<void> {
    const viewport = page.viewportSize() ?? MOBILE.viewport;
    const bound = { width: viewport.width * SHOT_LIMIT.viewports, height: SHOT_LIMIT.height };
    await page.screenshot({ path, fullPage: true, scale: 'css', clip: { x: 0, y: 0, ...bound } });
    capture.screenshots[size] = path;
    const whole = await contentSize(page);
    if (whole && (whole.width > bound.width || whole.height > bound.height)) {
      this.facts.noteLimit(`${capture.scenario}: the ${size} screenshot of ${capture.key} shows the first ${bound.width} x ${bound.height} px of a ${Math.round(whole.width)} x ${Math.round(whole.height)} px page (the harness bounds a screenshot's size)`);
    }
  }

  /** axe-core's minified build, the version @axe-core/playwright pins, configured as its legacy mode does. */
  private axeScript(): Promise<string | undefined> {
    this.axe ??= (async () => {
      const axeCore = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright')).resolve('axe-core/axe.min.js');
      return `${await readFile(axeCore, 'utf8')}${CONFIGURE}`;
    })().catch(() => {
      this.facts.axeProblem = '@axe-core/playwright is not installed: run `npm install`';
      return undefined;
    });
    return this.axe;
  }
}

/**
 * axe-core's violations on the page, as AxeBuilder's legacy mode finds them: axe in the top frame
 * (which must take it) and in every other frame that takes it within FRAME_INJECT_MS, then run from
 * the top frame.
 */
async function analyse(page: Page, script: string): Promise<Violation[]> {
  const inject = (frame: Frame) => frame.evaluate(script);
  const others = page.frames().filter((frame) => frame !== page.mainFrame());
  await Promise.all([
    inject(page.mainFrame()),
    ...others.map((frame) => Promise.race([inject(frame), sleep(FRAME_INJECT_MS, undefined, { ref: false })]).catch(() => undefined)),
  ]);
  const outcome = await page.evaluate(
    (options) => (globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: Violation[] }> } }).axe.run({ include: [], exclude: [] }, options)
      .then(({ violations }) => ({ violations, error: null }), (error: Error) => ({ violations: [], error: error.message })),
    { resultTypes: ['violations'] },
  );
  if (outcome.error !== null) throw new Error(outcome.error);
  return outcome.violations;
}
