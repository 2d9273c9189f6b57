/**
 * The advisory part of each state the agency's pages show: axe-core's violations, and a mobile
 * and a desktop screenshot for the brand's visual review. Each state (page kind, entry state,
 * error, environment) is captured once per run, the first time a scenario reaches it.
 *
 * axe runs in its legacy mode, in the page itself: the default opens a second page per analysis to
 * merge the frames' results, which doubled its cost (decisions/014). Only violations are reported,
 * so axe gathers only those.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserSession } from '../browser/session.js';
import { DESKTOP_VIEWPORT, MOBILE } from '../browser/session.js';
import type { Capture, RunFacts } from './facts.js';
import type { PageSeen } from './browser-seen.js';

interface AxeBuilder {
  setLegacyMode(legacy: boolean): AxeBuilder;
  options(options: { resultTypes: Array<'violations'> }): AxeBuilder;
  analyze(): Promise<{ violations: Array<{ id: string; impact?: string | null; help: string; nodes: unknown[] }> }>;
}
type AxeBuilderClass = new (options: { page: import('playwright-core').Page }) => AxeBuilder;

/** One state of the agency's pages: what it was recognised as showing, in which environment (else its title). */
export function stateKey(seen: PageSeen): string {
  const shown = seen.shows.map((item) => item.replace(/^(page|state):/, '')).join('-');
  return `${seen.environment}:${shown || seen.title.trim().toLowerCase().replace(/\s+/g, '-') || 'page'}`;
}

export class Capturer {
  private axe: Promise<AxeBuilderClass | undefined> | undefined;

  constructor(
    private readonly facts: RunFacts,
    private readonly options: { axe: boolean; screenshots: boolean },
  ) {}

  get enabled(): boolean {
    return this.options.axe || this.options.screenshots;
  }

  async capture(session: BrowserSession, seen: PageSeen): Promise<void> {
    if (!this.enabled) return;
    const key = stateKey(seen);
    const earlier = this.facts.captures.get(key);
    // A state axe could not analyse (the page went away mid-analysis) is analysed at its next visit; it is never counted as analysed without it.
    if (earlier && (earlier.axe || !this.options.axe)) return;
    const capture: Capture = earlier ?? { key, scenario: session.scenario, url: seen.url, screenshots: {} };
    this.facts.captures.set(key, capture);
    const { page } = session;
    if (this.options.axe) {
      const AxeBuilder = await this.axeBuilder();
      if (AxeBuilder) {
        try {
          const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).options({ resultTypes: ['violations'] }).analyze();
          capture.axe = violations.map((violation) => ({ id: violation.id, impact: violation.impact ?? null, help: violation.help, nodes: violation.nodes.length }));
          delete capture.axeError;
        } catch (error) {
          capture.axeError = `axe-core could not analyse ${seen.url}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
        }
      }
    }
    if (this.options.screenshots && !earlier) {
      const folder = join(this.facts.outDir, 'screenshots');
      mkdirSync(folder, { recursive: true });
      const file = key.replace(/[^a-z0-9_-]+/gi, '-');
      try {
        capture.screenshots.mobile = join(folder, `${file}.mobile.png`);
        await page.screenshot({ path: capture.screenshots.mobile, fullPage: true });
        await page.setViewportSize(DESKTOP_VIEWPORT);
        capture.screenshots.desktop = join(folder, `${file}.desktop.png`);
        await page.screenshot({ path: capture.screenshots.desktop, fullPage: true });
      } catch {
        // The page navigated away meanwhile (a polling reload); the next visit of this state is not captured again.
      } finally {
        await page.setViewportSize(MOBILE.viewport).catch(() => undefined);
      }
    }
  }

  private axeBuilder(): Promise<AxeBuilderClass | undefined> {
    this.axe ??= import('@axe-core/playwright').then(
      (module) => (module as unknown as { AxeBuilder: AxeBuilderClass }).AxeBuilder,
      () => {
        this.facts.axeProblem = '@axe-core/playwright is not installed: run `npm install`';
        return undefined;
      },
    );
    return this.axe;
  }
}
