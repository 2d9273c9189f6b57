/**
 * Issue 48, items 1 and 6: a page cannot tell the harness from a person. What the harness records
 * and reads, it does from a world of its own (no global, attribute or call the page can see), and
 * the consent form is filled as a person fills it: what a person sees (not an off-screen honeypot or
 * a transparent field), by what each label asks in its language, with values that look like a
 * person's and change per run, including a required field the page adds while the person reads.
 */
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { outside } from '../../harness/browser/outside.js';
import { BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { AgencyPage, consentPageOf } from '../../harness/pages/agency.js';
import { recognisedSelectors } from '../../harness/pages/markers.js';
import { personOf } from '../../harness/pages/person.js';
import { RunFacts } from '../../harness/run/facts.js';
import { sendFilled } from '../../harness/run/steps.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let server: Server;
let origin: string;
const posted: Array<Record<string, string>> = [];

/** What the page's own script notices of anyone else: attributes set, globals added, DOM functions called, the title of a page after it. */
const WATCHER = `<script>
  window.noticed = [];
  const own = new Set(Object.getOwnPropertyNames(window));
  new MutationObserver((records) => { for (const r of records) if (r.type === 'attributes' && !/^(value|checked|class|style|disabled)$/.test(r.attributeName)) window.noticed.push('attribute ' + r.attributeName); })
    .observe(document, { subtree: true, attributes: true });
  for (const [proto, name] of [[Document.prototype, 'querySelector'], [Document.prototype, 'querySelectorAll'], [Element.prototype, 'querySelectorAll'], [Element.prototype, 'setAttribute'], [Element.prototype, 'closest']]) {
    const original = proto[name];
    proto[name] = function (...args) { window.noticed.push('called ' + name); return original.apply(this, args); };
  }
  setInterval(() => { for (const name of Object.getOwnPropertyNames(window)) if (!own.has(name) && name !== 'noticed') window.noticed.push('global ' + name); }, 50);
</script>`;

/**
 * The consent form: an e-mail field whose name says "name", a phone field labelled in German, an
 * off-screen honeypot and a transparent one, and a required city field added after 3 s, until
 * which the button is disabled. A state marker shown for a moment, for the record.
 */
const FORM = `<!doctype html><html lang="de"><head><title>Gewinnspiel</title>${WATCHER}</head><body><main>
  <form method="post" action="/entry">
    <label for="a">Your e-mail</label><input id="a" name="name" type="text">
    <label for="b">Telefon</label><input id="b" name="contact" type="text">
    <label for="c">Vorname</label><input id="c" name="first" type="text">
    <div style="position:absolute; left:-9999px"><label for="h">Website</label><input id="h" name="website" type="text"></div>
    <label for="o">Fax</label><input id="o" name="fax" type="text" style="opacity:0">
    <label><input type="checkbox" name="terms" required> Ich akzeptiere die Teilnahmebedingungen</label>
    <span id="late"></span>
    <button type="submit" disabled>Teilnehmen</button>
  </form></main>
  <script>
    setTimeout(() => { const m = document.createElement('main'); m.dataset.entryState = 'won'; document.body.append(m); setTimeout(() => m.remove(), 100); }, 300);
    setTimeout(() => { document.getElementById('late').outerHTML = '<label for="s">Nachname</label><input id="s" name="extra" required>'; document.querySelector('button').disabled = false; }, 3000);
  </script></body></html>`;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      if (req.method === 'POST') posted.push(Object.fromEntries(new URLSearchParams(body)));
      // UTF-8, so that the form posts the drawn person's letters (ü, ł, é) as the test compares them.
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(req.method === 'POST' ? `<!doctype html><title>Danke</title>${WATCHER}<main data-page="done">Danke</main>` : FORM);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test('the page notices nothing of the harness reading, recording and filling it, and the harness fills what a person sees, by its labels, late fields included', async () => {
  const config = ConfigSchema.parse({});
  const facts = new RunFacts(config, { agency: origin, emulator: 'http://127.0.0.1:1', callback: `${origin}/callback` }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'unseen', 'main', { trace: 'off', recorded: recognisedSelectors(config.markers) });
  try {
    const view = new AgencyPage(session.page, config.markers);
    const mark = await view.mark();
    await session.goto(`${origin}/`);
    const consent = consentPageOf(session.page, config, undefined);
    const form = await consent.read();
    expect(form.boxes.map((box) => box.role)).toEqual(['terms']);
    expect(await view.shows()).toContain('page:consent');
    // The record, kept outside the page, saw the won marker that was there for a moment.
    await expect.poll(() => view.shownSince(mark)).toContain('state:won');
    const person = personOf(facts.runId, 'DE');
    await consent.fill(person);
    await consent.tick(form.boxes, { terms: true });
    const noticed = await session.page.evaluate(() => (globalThis as unknown as { noticed: string[] }).noticed);
    expect(noticed).toEqual([]);
    const submit = (await consent.submit())!;
    const sentSince = (at: number) => facts.requests.some((request) => request.method === 'POST' && request.at >= at);
    await sendFilled(consent, person, () => session.act(() => submit.click()), sentSince);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toEqual({ name: person.email, contact: person.tel, first: person.given, website: '', fax: '', terms: 'on', extra: person.family });
    // The page the form led to sees nothing of the harness either.
    await view.shows();
    expect(await session.page.title()).toBe('Danke');
    expect(await session.page.evaluate(() => (globalThis as unknown as { noticed: string[] }).noticed)).toEqual([]);
  } finally {
    await session.close();
  }
});

test('each document is read from the harness\'s world, the one kept for it or made again after a navigation, to another site (another renderer) and back', async () => {
  const page = await browser().newPage();
  try {
    type Scope = { location: { href: string }; noticed?: unknown };
    // What the harness reads: the document's address, and whether it sees the page's own global (it must not).
    const read = () => outside(page, () => ({ href: (globalThis as unknown as Scope).location.href, pageGlobal: typeof (globalThis as unknown as Scope).noticed }));
    const port = (server.address() as AddressInfo).port;
    for (const address of [`${origin}/one`, `${origin}/two`, `http://localhost:${port}/three`, `${origin}/four`]) {
      await page.goto(address);
      expect(await read()).toEqual({ href: address, pageGlobal: 'undefined' });
      expect(await read()).toEqual({ href: address, pageGlobal: 'undefined' });
    }
    // A navigation the page makes itself, heard of only by its events.
    await page.evaluate((to) => ((globalThis as unknown as Scope).location.href = to), `${origin}/five`);
    await page.waitForURL(`${origin}/five`);
    expect(await read()).toEqual({ href: `${origin}/five`, pageGlobal: 'undefined' });
  } finally {
    await page.close();
  }
});

test("the person typed in is someone of the journey's country, another each run, the same for every journey of a run", () => {
  const [one, again, next] = [personOf('run-a', 'DE'), personOf('run-a', 'DE'), personOf('run-b', 'DE')];
  expect(again).toEqual(one);
  expect(next.email).not.toBe(one.email);
  expect(one.email).toMatch(/^[a-z]+\.[a-z]+\d\d@example\.(com|net|org)$/);
  expect(one.tel).toMatch(/^\+49 15\d{8}$/);
  expect(JSON.stringify([one, next])).not.toMatch(/harness|test/i);
  const age = new Date().getUTCFullYear() - Number(one.birth.slice(0, 4));
  expect(age).toBeGreaterThanOrEqual(25);
});
