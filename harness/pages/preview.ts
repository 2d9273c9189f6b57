import type { Locator, Page } from 'playwright-core';
import type { MarkerConfig } from './markers.js';
import { firstFound, untilAnyAttached } from './locate.js';

/** The preview callback URL: one link (or button) per sandbox scenario. */
export class PreviewPage {
  constructor(
    readonly page: Page,
    private readonly markers: MarkerConfig,
  ) {}

  /**
   * The configured link, else a link or button with an attribute whose value is the scenario's name
   * (`data-szenario="won"`), else one named after the scenario, else a link whose address names it. A client-rendered preview draws its links after `load`, so this waits up to
   * `timeoutMs` for any of them to appear.
   */
  async link(scenario: string, timeoutMs: number): Promise<Locator | undefined> {
    const name = new RegExp(`\\b${scenario.replace('_', '[ _-]?')}\\b`, 'i');
    const candidates = [
      this.page.locator(this.markers.preview_link.replaceAll('{scenario}', scenario)),
      this.page.locator(`xpath=//*[self::a or self::button][@*="${scenario}"]`),
      this.page.getByRole('link', { name }),
      this.page.getByRole('button', { name }),
      this.page.locator(`a[href*="${scenario}"]`),
    ];
    await untilAnyAttached(candidates, timeoutMs);
    return firstFound(candidates);
  }
}
