/** Page objects for the service's own pages a collector passes through: sign-in and authorize. */
import type { Locator, Page } from 'playwright-core';
import { readForm } from '../browser/in-page.js';

/** The simulated collector sign-in: the harness creates a new collector per journey. */
export class SignInPage {
  readonly email: Locator;
  readonly country: Locator;
  readonly create: Locator;

  constructor(readonly page: Page) {
    this.email = page.locator('#email');
    this.country = page.locator('#country');
    this.create = page.getByRole('button', { name: 'Create account and sign in' });
  }

  isShown(): boolean {
    return new URL(this.page.url()).pathname === '/sign-in';
  }

  async fill(email: string, country: string): Promise<void> {
    await this.email.fill(email);
    await this.country.selectOption(country);
  }
}

/** `authorize_url`: the campaign and a Continue button. */
export class AuthorizePage {
  readonly continueButton: Locator;

  constructor(readonly page: Page) {
    this.continueButton = page.getByRole('button', { name: 'Continue' });
  }

  isShown(emulatorOrigin: string): boolean {
    const url = new URL(this.page.url());
    return url.origin === emulatorOrigin && url.pathname === '/authorize';
  }

  /** The Continue form's fields (CSRF token, request token, state, challenge), to send it without following its redirect. */
  fields(): Promise<Record<string, string>> {
    return this.page.evaluate(readForm, 'form[action="/authorize"]');
  }
}
