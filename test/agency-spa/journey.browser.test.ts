/**
 * The single-page agency in real Chromium: the journeys whose behaviour lives in the page script
 * (entry by fetch, no navigation; the wait page; polling; re-asking after a terms change), the
 * callback's refusals, what the browser holds, axe-core, and the client-side defects. The page's
 * timers run on Playwright's clock and the agency on the test's, so waits are exact and instant.
 */
import { randomBytes } from 'node:crypto';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { Fixture } from '../../emulator/fixture.js';
import { updatePromotionContent } from '../../emulator/store/promotions.js';
import type { SpaDefectName } from '../../fixtures/agency-spa/defects.js';
import type { Teardown } from '../support/agency-world.js';
import { useChromium } from '../support/chromium.js';
import { ANNA, MARCO, type SpaWorld, type SpaWorldOptions, entries, issuedSessionTokens, packOf, spaWorld } from './world.js';

const browser = useChromium();

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

/** A world, and a phone's browser context whose page timers run on a clock the test moves. */
async function session(options: SpaWorldOptions, onFinished: Teardown) {
  const w = await spaWorld(options, onFinished);
  const context = await browser().newContext(PHONE);
  context.setDefaultTimeout(10_000);
  onFinished(() => context.close());
  const page = await context.newPage();
  await page.clock.install();
  const requests: Array<{ url: string; method: string; type: string; headers: Record<string, string> }> = [];
  page.on('request', (request) => requests.push({ url: request.url(), method: request.method(), type: request.resourceType(), headers: request.headers() }));
  const bodies: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(w.agency.url)) void response.text().then((text) => bodies.push(text), () => undefined);
  });
  /** The page's timers and the agency's clock, moved together as time passing would. */
  const pass = async (ms: number) => {
    w.advanceAgency(ms);
    await page.clock.runFor(ms);
  };
  return { w, context, page, requests, bodies, pass };
}

const shows = (page: Page, markers: Record<string, string>) =>
  page.locator(`body${Object.entries(markers).map(([name, value]) => `[data-${name}="${value}"]`).join('')}`).waitFor();

async function violations(page: Page): Promise<string[]> {
  const { violations: found } = await new AxeBuilder({ page }).analyze();
  const view = await page.locator('body').getAttribute('data-ansicht');
  return found.map((violation) => `${view}: ${violation.id}`);
}

/** Sign in at the service, scan, Continue: ends on the app's consent form. */
async function toConsent(w: SpaWorld, page: Page, options: { outcome?: string; email?: string } = {}): Promise<void> {
  await page.goto(`${w.emulator.baseUrl}/q/${packOf(w, options.outcome ?? 'won')}`);
  await page.getByRole('button', { name: `Sign in as ${options.email ?? ANNA}` }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await shows(page, { ansicht: 'einwilligung' });
}

async function consentAndSend(page: Page, age = true): Promise<void> {
  await page.getByRole('checkbox', { name: 'Ich habe die Teilnahmebedingungen gelesen und akzeptiere sie.' }).check();
  if (age) await page.getByRole('checkbox', { name: 'Ich bestätige, dass ich mindestens 18 Jahre alt bin.' }).check();
  await page.getByRole('button', { name: 'Jetzt teilnehmen' }).click();
}

describe.concurrent('in Chromium', { timeout: 120_000 }, () => {
  test('won: entered by fetch without a navigation; the browser holds no secret and talks to no third party', async ({ onTestFinished }) => {
    const { w, context, page, requests, bodies } = await session({}, onTestFinished);
    await page.goto(w.agency.callbackUrl);
    await shows(page, { ansicht: 'start' });
    const found = await violations(page);
    await toConsent(w, page);
    expect(page.url()).toBe(w.at('/teilnahme'));
    found.push(...(await violations(page)));
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    await consentAndSend(page);
    await shows(page, { ansicht: 'ergebnis', ergebnis: 'gewonnen' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Glückwunsch, du hast gewonnen!');
    expect(await page.locator('[data-code]').allTextContents()).toEqual([expect.stringMatching(/^AM-/)]);
    expect(await page.locator('a[data-einloesen]').getAttribute('href')).toBe('https://shop.alpenmilch.example/redeem');
    found.push(...(await violations(page)));
    expect(found).toEqual([]);

    const entry = requests.find((request) => request.url === w.at('/api/teilnahme'))!;
    expect([navigations, page.url(), entry.type, entry.method, entry.headers['x-csrf-token']]).toEqual([0, w.at('/teilnahme'), 'fetch', 'POST', expect.stringMatching(/^[A-Za-z0-9_-]{43}$/)]);
    expect([...new Set(requests.map((request) => new URL(request.url).origin))].sort()).toEqual([w.agency.url, w.emulator.baseUrl].sort());
    const cookie = (await context.cookies()).find((candidate) => candidate.name === 'spa_sitzung')!;
    expect([cookie.httpOnly, cookie.sameSite]).toEqual([true, 'Lax']);

    const secrets = [w.env.sandbox_key!, w.env.production_key!, ...issuedSessionTokens(w), String(w.spy.of('POST', '/sessions')[0]!.body!.code_verifier)];
    const storage = await page.evaluate('JSON.stringify([{ ...localStorage }, { ...sessionStorage }, document.cookie, document.documentElement.outerHTML])');
    const held = [storage, JSON.stringify(await context.cookies()), ...bodies, ...requests.flatMap((request) => [request.url, request.headers.referer ?? ''])].join('\n');
    expect(secrets.filter((secret) => held.includes(secret))).toEqual([]);
  });

  test('confirmStep: the form, once sent, is hidden and a summary drawn below it without a navigation; only its one button sends the entry; a refusal shows the form again', async ({ onTestFinished }) => {
    const { w, page } = await session({ build: { confirmStep: true } }, onTestFinished);
    await toConsent(w, page);
    let navigations = 0;
    page.on('framenavigated', () => (navigations += 1));
    const form = page.locator('form[data-teilnahme-formular]');
    const confirm = page.getByRole('button', { name: 'Teilnahme bestätigen' });
    await form.evaluate((element: { noValidate: boolean }) => void (element.noValidate = true));
    await page.getByRole('button', { name: 'Jetzt teilnehmen' }).click();
    await confirm.click();
    await page.getByRole('alert').filter({ hasText: 'Bitte akzeptiere die Teilnahmebedingungen' }).waitFor();
    expect([await form.isVisible(), await confirm.count(), entries(w).length]).toEqual([true, 0, 0]);
    await consentAndSend(page);
    await confirm.waitFor();
    expect([await form.isHidden(), entries(w).length]).toEqual([true, 0]);
    await confirm.click();
    await shows(page, { ansicht: 'ergebnis', ergebnis: 'gewonnen' });
    expect([navigations, entries(w).length]).toEqual([0, 1]);
  });

  test('pending: the page asks when told, the service is read from 2 s on, the delivered code is shown, then the page stops asking', async ({ onTestFinished, expect }) => {
    const { w, page, requests, pass } = await session({}, onTestFinished);
    await toConsent(w, page, { outcome: 'pending' });
    await consentAndSend(page);
    await shows(page, { ergebnis: 'ausstehend', abfrage: 'aktiv' });
    expect(await violations(page)).toEqual([]);
    const asks = () => requests.filter((request) => request.url === w.at('/api/zustand')).length;
    expect(w.spy.of('GET', '/session').length).toBe(0);
    await pass(2000);
    // Answered, still pending: only then does the delivery arrive.
    await expect.poll(() => w.spy.of('GET', '/session').filter((call) => call.status === 200).length).toBe(1);
    expect(w.spy.of('GET', '/session')[0]!.response).toMatchObject({ delivery: { state: 'processing' } });
    w.world.clock.advance(30_000);
    // The page sets its next timer when the answer arrives; a second at a time until it has asked again.
    for (let second = 0; second < 30 && w.spy.of('GET', '/session').length < 2; second += 1) await pass(1000);
    await shows(page, { ergebnis: 'gewonnen', abfrage: 'beendet', 'abfrage-ende': 'zugestellt' });
    expect(await page.locator('[data-code]').count()).toBe(1);
    const settled = asks();
    await pass(120_000);
    expect([asks() - settled, w.spy.of('GET', '/session').length]).toEqual([0, 2]);
  });

  test('terms changed (422): the new terms are shown, nothing ticked, and asked for again; then lost', async ({ onTestFinished }) => {
    const { w, page } = await session({}, onTestFinished);
    await toConsent(w, page, { outcome: 'lost', email: MARCO });
    const content = structuredClone(w.world.fixture.promotion);
    content.terms.by_country.CH = { ...content.terms.by_country.CH!, text: 'Neue Bedingungen für die Schweiz.', version: 'ch-2026-04' };
    updatePromotionContent(w.world.db, w.env.promotion_id, content);
    await consentAndSend(page, false);
    await shows(page, { ansicht: 'einwilligung', hinweis: 'bedingungen_geaendert' });
    expect(await page.getByRole('status').textContent()).toBe('Die Teilnahmebedingungen haben sich geändert. Bitte lies sie und bestätige sie erneut.');
    expect([await page.locator('[data-bedingungen-text]').textContent(), await page.locator('[data-bedingungen-version]').textContent()]).toEqual(['Neue Bedingungen für die Schweiz.', 'ch-2026-04']);
    expect(await page.locator('input[type=checkbox]:checked').count()).toBe(0);
    await consentAndSend(page, false);
    await shows(page, { ansicht: 'ergebnis', ergebnis: 'verloren' });
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Leider kein Gewinn');
    expect(entries(w).map((call) => [call.status, (call.body!.consent as { terms_version: string }).terms_version])).toEqual([[422, 'ch-2026-03'], [200, 'ch-2026-04']]);
  });

  test('429: a wait page counts Retry-After down, sends nothing sooner, then sends the entry by itself', async ({ onTestFinished }) => {
    const { w, page, pass } = await session({}, onTestFinished);
    await toConsent(w, page, { outcome: 'lost' });
    w.spy.fail('POST', '/session/entry', { status: 429, headers: { 'retry-after': '8' }, body: { error: 'rate_limited', message: 'Too many requests.' } });
    await consentAndSend(page);
    await shows(page, { ansicht: 'warten', ergebnis: 'zu_viele_anfragen', 'warte-s': '8' });
    expect([await page.getByRole('heading', { level: 1 }).textContent(), await page.locator('form').count()]).toEqual(['Bitte warte 8 Sekunden', 0]);
    expect(await violations(page)).toEqual([]);
    await pass(7000);
    await shows(page, { ansicht: 'warten', 'warte-s': '1' });
    expect([await page.getByRole('heading', { level: 1 }).textContent(), entries(w).length]).toEqual(['Bitte warte 1 Sekunde', 1]);
    await pass(1000);
    await shows(page, { ansicht: 'ergebnis', ergebnis: 'verloren' });
    expect(entries(w).map((call) => call.status)).toEqual([429, 200]);
  });

  test('the callback refuses a tampered state and an unsolicited return with an error page; the issued one still works once', async ({ onTestFinished }) => {
    const { w, context, page } = await session({}, onTestFinished);
    await page.goto(`${w.emulator.baseUrl}/q/${packOf(w, 'won')}`);
    await page.getByRole('button', { name: `Sign in as ${ANNA}` }).click();
    const form = (await page.evaluate('Object.fromEntries(new FormData(document.querySelector(\'form[action="/authorize"]\')))')) as Record<string, string>;
    const continued = await context.request.post(`${w.emulator.baseUrl}/authorize`, { form, maxRedirects: 0 });
    const issued = new URL(continued.headers().location!);
    const state = issued.searchParams.get('state')!;
    const refusals: Array<[number | undefined, string | null, string | null]> = [];
    for (const tampered of [state.slice(0, -1) + (state.endsWith('A') ? 'B' : 'A'), state.slice(0, 32), state.toUpperCase()]) {
      const url = new URL(issued);
      url.searchParams.set('state', tampered);
      const response = await page.goto(url.href);
      await shows(page, { ansicht: 'fehler' });
      refusals.push([response?.status(), await page.locator('body').getAttribute('data-fehler'), await page.getByRole('heading', { level: 1 }).textContent()]);
    }
    expect(refusals).toEqual(Array(3).fill([400, 'state_abweichung', 'Dieser Link passt nicht zu deiner Teilnahme']));
    expect(await violations(page)).toEqual([]);

    const stranger = await (await browser().newContext(PHONE)).newPage();
    onTestFinished(() => stranger.context().close());
    const unsolicited = new URL(issued);
    unsolicited.searchParams.set('state', randomBytes(32).toString('base64url'));
    const response = await stranger.goto(unsolicited.href);
    await shows(stranger, { ansicht: 'fehler', fehler: 'unbekannter_ablauf' });
    expect(response?.status()).toBe(400);

    await page.goto(issued.href);
    await shows(page, { ansicht: 'einwilligung' });
    expect([page.url(), w.spy.of('POST', '/sessions').map((call) => call.status)]).toEqual([w.at('/teilnahme'), [201]]);
  });
});

describe('the client-side defects in Chromium', () => {
  /** German terms with markup and a javascript: link, as the harness's terms probe sends them. */
  const probingTerms = (fixture: Fixture) => {
    const terms = fixture.promotion.terms.by_country.DE!;
    terms.text = 'Teilnahme ab 18. <b data-probe="b">Fett</b><img data-probe="img" src="x" alt="">';
    terms.links.push({ label: 'Spielregeln', url: "javascript:document.title='probe'" });
    return fixture;
  };

  /** What the consent form shows with one switch on (or none). */
  async function consentWith(defect: SpaDefectName | undefined, onFinished: Teardown) {
    const { w, page } = await session({ defects: defect ? [defect] : [], fixture: probingTerms }, onFinished);
    await toConsent(w, page);
    return {
      markup: await page.locator('[data-probe]').count(),
      javascriptLinks: await page.locator('a[href^="javascript:"]').count(),
      ticked: await page.locator('input[type=checkbox]:checked').count(),
      newsletterInTermsBox: /Newsletter/.test((await page.locator('label[for="agb"]').textContent()) ?? ''),
    };
  }

  const clean = { markup: 0, javascriptLinks: 0, ticked: 0, newsletterInTermsBox: false };

  test('each switch changes its own rule only; without one, the terms stay text, the link text, the boxes unticked and apart', async ({ onTestFinished }) => {
    expect(await consentWith(undefined, onTestFinished)).toEqual(clean);
    expect(await consentWith('terms-innerhtml', onTestFinished)).toEqual({ ...clean, markup: 2 });
    expect(await consentWith('terms-links-unchecked', onTestFinished)).toEqual({ ...clean, javascriptLinks: 1 });
    expect(await consentWith('consent-prechecked', onTestFinished)).toEqual({ ...clean, ticked: 1 });
    expect(await consentWith('consent-with-newsletter', onTestFinished)).toEqual({ ...clean, newsletterInTermsBox: true });
  });

  test('--defect third-party-font: the browser fetches the font stylesheet', async ({ onTestFinished }) => {
    const { w, page, requests } = await session({ defects: ['third-party-font'] }, onTestFinished);
    await page.route('https://fonts.example.net/**', (route) => route.fulfill({ status: 200, contentType: 'text/css', body: '' }));
    await page.goto(w.agency.callbackUrl);
    await shows(page, { ansicht: 'start' });
    expect(requests.map((request) => request.url)).toContain('https://fonts.example.net/css2?family=Inter');
  });
});
