/**
 * How the harness recognises what an agency's page shows, on pages it has never seen: the
 * reference agency's markers are only defaults, the config renames page and state names or gives
 * selectors of its own, and the consent form is found by the box that accepts the terms. The
 * config examples of harness/README.md parse as they are written.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { ConfigSchema } from '../../harness/config.js';
import { AgencyPage, ConsentPage } from '../../harness/pages/agency.js';
import { selectorFor } from '../../harness/pages/markers.js';
import { PreviewPage } from '../../harness/pages/preview.js';
import { packageRoot } from '../../harness/paths.js';
import { useChromium } from '../support/chromium.js';

const defaults = ConfigSchema.parse({}).markers;
/** The German single-page app of harness/README.md: state on <body>, its own names. */
const spa = ConfigSchema.parse({
  markers: {
    page: 'body[data-view="{name}"]', pages: { consent: 'einwilligung', result: 'ergebnis' },
    state: 'body[data-status="{name}"]', states: { won: 'gewonnen', lost: 'text=/Leider kein Gewinn/', error: 'fehler' },
  },
}).markers;

const browser = useChromium();
let page: Page;
beforeAll(async () => {
  page = await browser().newPage();
});

test('a plain name goes into the template; anything else is a selector of its own', () => {
  expect(selectorFor(defaults, 'state', 'won')).toBe('main[data-entry-state="won"]');
  expect(selectorFor(spa, 'state', 'won')).toBe('body[data-status="gewonnen"]');
  expect(selectorFor(spa, 'state', 'lost')).toBe('text=/Leider kein Gewinn/');
  expect(selectorFor(spa, 'state', 'pending')).toBe('body[data-status="pending"]');
  expect(selectorFor(spa, 'page', 'consent')).toBe('body[data-view="einwilligung"]');
});

test("the reference agency's markers are recognised by default, another agency's by its config", async () => {
  await page.setContent('<main data-page="result" data-entry-state="won"><h1>Congratulations</h1></main>');
  expect(await new AgencyPage(page, defaults).shows()).toEqual(['page:result', 'state:won']);
  expect(await new AgencyPage(page, spa).shows()).toEqual([]);
  await page.setContent('<body data-view="ergebnis" data-status="gewonnen"><main><h1>Gewonnen!</h1></main></body>');
  expect(await new AgencyPage(page, spa).shows()).toEqual(['page:result', 'state:won']);
  await page.setContent('<body data-view="ergebnis"><main><p>Leider kein Gewinn diesmal.</p></main></body>');
  expect(await new AgencyPage(page, spa).shows()).toEqual(['page:result', 'state:lost']);
});

test('the consent form is recognised by the box that accepts the terms, in German too, without any marker', async () => {
  await page.setContent(`<div id="app"><section><p>Teilnahmebedingungen: …</p>
    <label><input type="checkbox" id="a"> Ich akzeptiere die Teilnahmebedingungen</label>
    <label><input type="checkbox" id="b"> Ich bestätige, dass ich mindestens 18 Jahre alt bin</label>
    <label><input type="checkbox" id="c"> Ich möchte Neuigkeiten und Angebote per E-Mail</label>
    <button type="button">Jetzt teilnehmen</button></section></div>`);
  expect(await new AgencyPage(page, spa).shows()).toEqual(['page:consent']);
  const consent = new ConsentPage(page, spa);
  const form = await consent.read();
  expect([form.hasForm, form.boxes.map((box) => box.role)]).toEqual([true, ['terms', 'age', 'marketing']]);
  expect(await (await consent.submit())?.textContent()).toBe('Jetzt teilnehmen');
});

test('after a 429, the way back to the entry is found by its words (English or German), or by the configured selector', async () => {
  await page.setContent('<main><p>Bitte warte 8 Sekunden.</p><a href="#x">Zurück zur Teilnahme</a> <a href="#y">Impressum</a></main>');
  expect(await (await new AgencyPage(page, spa).wayBack())?.textContent()).toBe('Zurück zur Teilnahme');
  await page.setContent('<main><p>Please wait.</p><button>Try again</button></main>');
  expect(await (await new AgencyPage(page, defaults).wayBack())?.textContent()).toBe('Try again');
  await page.setContent('<main><p>Bitte warte.</p><a href="#r" data-retry>Weiter</a></main>');
  expect(await new AgencyPage(page, spa).wayBack()).toBeUndefined();
  expect(await (await new AgencyPage(page, { ...spa, try_again: 'a[data-retry]' }).wayBack())?.textContent()).toBe('Weiter');
});

test('a page that moved on to the result of the entry (it sent the entry again by itself) offers no way back, though its one link is the only action', async () => {
  await page.setContent('<main data-page="result" data-entry-state="rate_limited"><p>Please wait.</p><a href="/start">Scan another pack</a></main>');
  expect(await (await new AgencyPage(page, defaults).wayBack())?.textContent()).toBe('Scan another pack');
  await page.setContent('<main data-page="result" data-entry-state="lost"><p>No luck this time.</p><a href="/start">Scan another pack</a></main>');
  expect(await new AgencyPage(page, defaults).wayBack()).toBeUndefined();
});

test('a result page still arriving (the wait page sent the entry by itself) is read once parsed: its header link is not taken for the way back', async ({ onTestFinished }) => {
  // The header, then the main content a moment later: the page the browser is parsing when the harness looks.
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).write(`<!doctype html><header><a href="/callback">Home</a></header>${' '.repeat(2048)}`);
    setTimeout(() => res.end('<main data-page="result" data-entry-state="lost"><p>No luck this time.</p></main>'), 700);
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  onTestFinished(() => new Promise<void>((closed) => server.close(() => closed()).closeAllConnections()));
  await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/result`, { waitUntil: 'commit' });
  expect(await new AgencyPage(page, defaults).wayBack('http://127.0.0.1/callback?service_code=x')).toBeUndefined();
});

test("a client-rendered preview's links are found once its script has drawn them, by the configured marker first", async () => {
  await page.setContent(`<ul id="app"></ul><script>setTimeout(() => {
    document.getElementById('app').innerHTML = '<li><a href="/p/1">Ausstehend</a></li><li><a href="/vorschau/pending" data-szenario="pending">Gewonnen, Zustellung läuft</a></li>';
  }, 700)</script>`);
  const preview = new PreviewPage(page, ConfigSchema.parse({ markers: { preview_link: 'a[data-szenario="{scenario}"]' } }).markers);
  expect(await (await preview.link('pending', 5000))?.textContent()).toBe('Gewonnen, Zustellung läuft');
  expect(await preview.link('already_entered', 200)).toBeUndefined();
});

test('a page with no box accepting the terms shows no consent form', async () => {
  await page.setContent('<main><label><input type="checkbox"> Newsletter abonnieren</label><button>OK</button></main>');
  expect(await new AgencyPage(page, spa).shows()).toEqual([]);
});

test('the config examples of harness/README.md parse as written', () => {
  const readme = readFileSync(`${packageRoot()}/harness/README.md`, 'utf8');
  const examples = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => JSON.parse(match[1]!) as Record<string, unknown>).filter((json) => 'callback' in json);
  expect(examples.length).toBeGreaterThanOrEqual(2);
  for (const example of examples) expect(ConfigSchema.safeParse(example).error).toBeUndefined();
});
