/** Every page of the journey and the dashboard, checked with axe-core in Chromium; and a keyboard-only entry. */
import { describe, expect, it } from 'vitest';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { useChromium } from '../support/chromium.js';
import { journeyWorld } from './browser-world.js';

const browser = useChromium();

/** Axe's findings on the page as it stands: rule id and the elements, empty when accessible. */
async function violations(page: Page): Promise<Array<{ page: string; rule: string; targets: string[] }>> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.map((violation) => ({ page: new URL(page.url()).pathname, rule: violation.id, targets: violation.nodes.map((node) => node.target.join(' ')) }));
}

/** Lets a form go to the server with fields the browser would stop, to see the server's own error page. */
function skipBrowserValidation(page: Page): Promise<unknown> {
  return page.evaluate("document.querySelectorAll('form').forEach((form) => { form.noValidate = true; })");
}

describe.concurrent('accessibility (axe-core)', () => {
  it('finds no violations on the journey pages', { timeout: 120_000 }, async () => {
    const world = await journeyWorld(browser());
    const { page, journey, emulator, env } = world;
    const found = [];
    try {
      await page.goto(`${emulator.baseUrl}/q/NO-SUCH-PACK`);
      found.push(...(await violations(page)));
      await page.goto(`${emulator.baseUrl}/q/${env.recalled_packs[0]}`);
      found.push(...(await violations(page)));
      await page.goto(`${emulator.baseUrl}/q/${world.packCode('lost')}`);
      expect(journey.path()).toBe('/sign-in');
      found.push(...(await violations(page)));
      await page.getByLabel('Email').fill('not-an-email');
      await page.getByLabel('Country you are browsing from').selectOption('DE');
      await skipBrowserValidation(page);
      await page.getByRole('button', { name: 'Create account and sign in' }).click();
      found.push(...(await violations(page)));
      await journey.scan(world.packCode('lost'));
      expect(journey.path()).toBe('/authorize');
      found.push(...(await violations(page)));
      await page.goto(`${emulator.baseUrl}/authorize?request_token=x&state=short`);
      found.push(...(await violations(page)));

      await page.goto(`${emulator.baseUrl}/q/${env.test_packs[0]}`);
      found.push(...(await violations(page)));
      await page.getByRole('checkbox', { name: 'I accept the terms.' }).check();
      await skipBrowserValidation(page);
      await page.getByRole('button', { name: 'Enter', exact: true }).click();
      expect(await page.getByRole('alert').count()).toBe(1);
      found.push(...(await violations(page)));
      await journey.acceptAndEnter();
      found.push(...(await violations(page)));
      for (const path of ['/rewards', '/promotions', `/play/${env.packs[0]!.code}`]) {
        await page.goto(`${emulator.baseUrl}${path}`);
        found.push(...(await violations(page)));
      }
    } finally {
      await world.close();
    }
    expect(found).toEqual([]);
  });

  it('finds no violations on the dashboard, its notices and its refusals', { timeout: 120_000 }, async () => {
    const world = await journeyWorld(browser(), { approved: false });
    const { page, emulator } = world;
    const found = [];
    try {
      await page.goto(`${emulator.baseUrl}/`);
      found.push(...(await violations(page)));
      await page.getByRole('button', { name: 'Approve the agency experience' }).click();
      expect(await page.getByText('Not approved yet').count()).toBe(1);
      found.push(...(await violations(page)));
      await page.getByRole('button', { name: 'Create key' }).click();
      found.push(...(await violations(page)));
      await page.getByLabel('Production callback URL').fill('http://agency.example/cb');
      await page.getByRole('button', { name: 'Save callback URLs' }).click();
      found.push(...(await violations(page)));
    } finally {
      await world.close();
    }
    expect(found).toEqual([]);
  });

  it('lets a collector sign in and enter with the keyboard alone', async () => {
    const world = await journeyWorld(browser(), { approved: false });
    const { page, emulator } = world;
    try {
      await page.goto(`${emulator.baseUrl}/q/${world.packCode()}`);
      await page.getByRole('button', { name: 'Sign in as anna.weber@example.test' }).focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/play\//);
      await page.keyboard.press('Tab');
      expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
      await page.getByRole('checkbox', { name: 'I accept the terms.' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/play\//);
      expect(await page.getByRole('region', { name: 'Your result' }).textContent()).toContain('You won');
    } finally {
      await world.close();
    }
  });
});
