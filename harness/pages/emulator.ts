/** Page objects for the service's own pages a collector passes through: sign-in and authorize. */
import type { Locator, Page } from 'playwright-core';
import { readForm } from '../browser/in-page.js';

/**
 * The simulated collector sign-in. The harness signs in as its own collector of the journey's
 * country, creating it the first time, so repeated runs do not fill the emulator with collectors.
 */
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

  existing(email: string): Locator {
    return this.page.getByRole('button', { name: `Sign in as ${email} (` });
  }

  /** The account's button when it exists, else the filled-in form's; `submit` clicks and waits. */
  async signIn(email: string, country: string, submit: (button: Locator) => Promise<void>): Promise<void> {
    if ((await this.existing(email).count()) > 0) return submit(this.existing(email).first());
    await this.email.fill(email);
    await this.country.selectOption(country);
    await submit(this.create);
    // Another journey created it meanwhile: the page now lists it.
    if (this.isShown() && (await this.existing(email).count()) > 0) await submit(this.existing(email).first());
  }
}

/** `authorize_url`: the campaign and a Continue button. */
export class AuthorizePage {
  readonly continueButton: Locator;

  constructor(readonly page: Page) {
    this.continueButton = page.getByRole('button', { name: 'Continue' });
  }

  isShown(emulatorOrigin: string): boolean {
    return this.isAt(new URL(this.page.url()), emulatorOrigin);
  }

  /** Whether a URL is this page. */
  isAt(url: URL, emulatorOrigin: string): boolean {
    return url.origin === emulatorOrigin && url.pathname === '/authorize';
  }

  /** The Continue form's fields (CSRF token, request token, state, challenge), to send it without following its redirect. */
  fields(): Promise<Record<string, string>> {
    return this.page.evaluate(readForm, 'form[action="/authorize"]');
  }
}
