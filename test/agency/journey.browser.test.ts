/**
 * The reference agency in real Chromium: the production journey end to end, what the browser
 * holds, the requests it makes, axe-core, and polling by meta refresh. Each test has its own
 * emulator, agency and browser context, in parallel.
 */
import { AxeBuilder } from '@axe-core/playwright';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { SANDBOX_SCENARIOS } from '../../fixtures/agency-reference/preview.js';
import type { Teardown } from '../support/agency-world.js';
import { useChromium } from '../support/chromium.js';
import { type AgencyWorld, type WorldOptions, agencyWorld, issuedSessionTokens } from './world.js';

const browser = useChromium();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A world and a fresh browser context recording every request, both closed after the test. */
async function session(options: WorldOptions, onFinished: Teardown) {
  const w = await agencyWorld(options, onFinished);
  const context: BrowserContext = await browser().newContext(PHONE);
  context.setDefaultTimeout(10_000);
  onFinished(() => context.close());
  const page = await context.newPage();
  const requests: Array<{ url: string; referer: string | undefined }> = [];
  page.on('request', (request) => requests.push({ url: request.url(), referer: request.headers().referer }));
  const documents: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document' && response.status() < 300) void response.text().then((text) => documents.push(text), () => undefined);
  });
  return { w, context, page, requests, documents };
}

/** Clicks and waits for the load event of the page the redirect chain lands on. */
async function submit(page: Page, name: string | RegExp): Promise<void> {
  const landed = page.waitForEvent('load');
  await page.getByRole('button', { name }).click();
  await landed;
}

async function violations(page: Page): Promise<Array<{ path: string; rule: string }>> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  return found.map((violation) => ({ path: new URL(page.url()).pathname, rule: violation.id }));
}

/** Sign in at the service, scan, continue: ends on the agency's consent page. */
async function toConsent(w: AgencyWorld, page: Page): Promise<void> {
  await page.goto(`${w.emulator.baseUrl}/q/${w.env.packs.find((pack) => pack.outcome === 'won')!.code}`);
  await submit(page, 'Sign in as anna.weber@example.test');
  await submit(page, 'Continue');
}

describe.concurrent('in Chromium', { timeout: 120_000 }, () => {
  test('a collector enters through the production journey; the browser holds no secret and talks to no third party', async ({ onTestFinished }) => {
    const { w, context, page, requests, documents } = await session({}, onTestFinished);
    await page.goto(w.agency.callbackUrl);
    const found = await violations(page);
    await toConsent(w, page);
    expect(page.url()).toBe(`${w.agency.url}/result`);
    found.push(...(await violations(page)));
    await page.getByRole('checkbox', { name: 'I have read and accept the terms and conditions.' }).check();
    await page.getByRole('checkbox', { name: 'I confirm that I am at least 18 years old.' }).check();
    await submit(page, 'Send my entry');
    expect(await page.locator('main').getAttribute('data-entry-state')).toBe('won');
    expect(await page.locator('[data-code]').count()).toBe(1);
    found.push(...(await violations(page)));
    expect(found).toEqual([]);

    const origins = new Set(requests.map((request) => new URL(request.url).origin));
    expect([...origins].sort()).toEqual([w.agency.url, w.emulator.baseUrl].sort());
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'agency_session')!;
    expect([cookie.httpOnly, cookie.sameSite]).toEqual([true, 'Lax']);

    const secrets = [w.env.sandbox_key!, w.env.production_key!, ...issuedSessionTokens(w), String(w.spy.of('POST', '/sessions')[0]!.body!.code_verifier)];
    const storage = await page.evaluate('JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, document.documentElement.outerHTML])');
    const held = [storage, JSON.stringify(await context.cookies()), ...documents, ...requests.flatMap((request) => [request.url, request.referer ?? ''])].join('\n');
    expect(secrets.filter((secret) => held.includes(secret))).toEqual([]);
  });

  test('a pending result polls with its same-origin script on schedule, then shows the delivery', async ({ onTestFinished }) => {
    const { w, page, requests } = await session({ agencyClock: 'real' }, onTestFinished);
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Uncaught/.test(message.text())) refused.push(message.text());
    });
    await page.goto(`${w.agency.previewUrl}/pending`);
    expect(await page.locator('main').getAttribute('data-entry-state')).toBe('pending');
    expect(await violations(page)).toEqual([]);
    w.world.clock.advance(30_000);
    // The page polls at 2, 5, 10 s...: after a slow axe run on a loaded machine the next poll can be 10 s away.
    await page.waitForSelector('main[data-entry-state="won"]', { timeout: 35_000 });
    expect(await page.locator('main').getAttribute('data-polling')).toBe('stopped');
    expect(requests.filter((request) => request.url.endsWith('/result/status')).length).toBeGreaterThan(0);
    const [entry] = w.spy.of('POST', '/session/entry');
    const [firstPoll] = w.spy.of('GET', '/session');
    expect(firstPoll!.at - entry!.at).toBeGreaterThanOrEqual(2_000);
    expect(refused).toEqual([]);
  });

  test('every other page passes axe-core: landing on a desktop, preview, each scenario, errors', async ({ onTestFinished }) => {
    const { w, page } = await session({}, onTestFinished);
    const desktopContext = await browser().newContext({ viewport: { width: 1280, height: 800 } });
    onTestFinished(() => desktopContext.close());
    const desktop = await desktopContext.newPage();
    await desktop.goto(w.agency.callbackUrl);
    const found = await violations(desktop);
    const paths = ['/preview', ...SANDBOX_SCENARIOS.map((scenario) => `/preview/${scenario}`), `/callback?service_code=sc_x&state=${'x'.repeat(43)}`, '/nowhere'];
    for (const path of paths) {
      await page.goto(w.agency.url + path);
      found.push(...(await violations(page)));
    }
    expect(found).toEqual([]);
  });

  test('--defect third-party-script: the browser fetches the analytics tag', async ({ onTestFinished }) => {
    const { w, page, requests } = await session({ defects: ['third-party-script'] }, onTestFinished);
    await page.route('https://analytics.example.net/**', (route) => route.fulfill({ status: 200, contentType: 'text/javascript', body: '' }));
    await page.goto(w.agency.callbackUrl);
    expect(requests.map((request) => request.url)).toContain('https://analytics.example.net/tag.js');
  });

  test('--defect inaccessible-consent: axe-core finds the unlabelled checkboxes', async ({ onTestFinished }) => {
    const { w, page } = await session({ defects: ['inaccessible-consent'] }, onTestFinished);
    await toConsent(w, page);
    expect((await violations(page)).map((violation) => violation.rule)).toContain('label');
  });
});
