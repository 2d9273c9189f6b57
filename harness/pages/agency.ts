/**
 * Page objects for the agency's pages, through the DOM markers the reference agency documents
 * (its README, "DOM markers"); harness.config.json can point them elsewhere.
 */
import type { Locator, Page } from 'playwright-core';
import type { Config } from '../config.js';
import { disableValidation, readConsent, readEntryForm } from '../browser/in-page.js';
import type { ConsentBox } from '../run/facts.js';

type MarkerConfig = Config['markers'];

/** The production consent form: the terms, the boxes and the submit button. */
export class ConsentPage {
  readonly form: Locator;
  readonly boxes: Locator;
  readonly submit: Locator;

  constructor(
    readonly page: Page,
    private readonly markers: MarkerConfig,
  ) {
    this.form = page.locator(markers.entry_form).first();
    this.boxes = this.form.locator('input[type=checkbox]');
    this.submit = this.form.locator('button[type=submit], input[type=submit], button:not([type])').first();
  }

  read() {
    return this.page.evaluate(readConsent, { form: this.markers.entry_form, termsText: this.markers.terms_text, termsVersion: this.markers.terms_version });
  }

  /** Ticks the boxes whose role is wanted, unticks every other one. */
  async tick(boxes: ConsentBox[], wanted: Partial<Record<ConsentBox['role'], boolean>>): Promise<void> {
    for (const [index, box] of boxes.entries()) await this.boxes.nth(index).setChecked(wanted[box.role] ?? false);
  }

  async disableValidation(): Promise<void> {
    await this.page.evaluate(disableValidation, this.markers.entry_form);
  }

  entryForm() {
    return this.page.evaluate(readEntryForm, this.markers.entry_form);
  }
}

/** The preview callback URL: one link per sandbox scenario. */
export class PreviewPage {
  constructor(
    readonly page: Page,
    private readonly markers: MarkerConfig,
  ) {}

  link(scenario: string): Locator {
    return this.page.locator(this.markers.preview_link.replace('{scenario}', scenario)).first();
  }
}
