/**
 * States told apart by the whole page (issue 42, item 1), on an Italian site the harness has never
 * seen, whose states differ by a class and their words, and whose pending page alone carries a
 * `role="status"` paragraph. Its 429 page shares that paragraph (a feature unique among the six
 * learned states, not among all): it is not pending, since it shows none of pending's words, so
 * the 429 can be inferred. A pending page whose settled delivery was swapped in by the page itself
 * (an HTMX fragment: pending's class kept, won's words shown) reads as won without a marker. A
 * reading of a state the service's answer rules out (pending after a 429) is not counted.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Fingerprint, fingerprint } from '../../harness/browser/in-page.js';
import { ConfigSchema } from '../../harness/config.js';
import type { StateName } from '../../harness/journey-states.js';
import { AgencyPage } from '../../harness/pages/agency.js';
import { StateBook, samePage } from '../../harness/pages/states.js';
import { ruledOut } from '../../harness/run/state-steps.js';
import { useChromium } from '../support/chromium.js';

const defaults = ConfigSchema.parse({}).markers;

const CONTENT: Partial<Record<StateName, [string, string]>> = {
  won: ['vinto', '<h2>Complimenti, hai vinto!</h2><p>Ecco il tuo codice premio da riscattare.</p>'],
  lost: ['perso', '<h2>Peccato, non hai vinto</h2><p>Grazie per aver partecipato.</p>'],
  pending: ['attesa', '<h2>Hai vinto!</h2><p role="status">Stiamo preparando la consegna del premio, questa pagina si aggiorna da sola.</p>'],
  failed: ['ritardo', '<h2>Hai vinto!</h2><p>La consegna del premio è in ritardo, resta tuo.</p>'],
  ineligible: ['escluso', '<h2>Non disponibile nel tuo paese</h2><p>Il concorso non è aperto dove ti trovi.</p>'],
  already_entered: ['usato', '<h2>Confezione già usata</h2><p>Questa confezione ha già partecipato.</p>'],
  error: ['errore', '<h2>Qualcosa è andato storto</h2><p>Riprova fra un momento.</p>'],
  rate_limited: ['troppi', '<h2>Troppi tentativi</h2><p role="status">Riprova fra <span>8</span> secondi.</p><p><a href="/partecipa">Torna al modulo</a></p>'],
};

const pageOf = (state: StateName, sandbox = false, inner?: string) => {
  const [kind, content] = CONTENT[state]!;
  return `<header><a href="/">Home</a></header><main>${sandbox ? '<p class="prova">Anteprima</p>' : ''}<section class="esito ${kind}">${inner ?? content}</section></main><footer>Note legali</footer>`;
};

const browser = useChromium();
let page: Page;
const book = new StateBook();
const SEVEN = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered', 'error'] as const;

async function read(html: string): Promise<Fingerprint> {
  await page.setContent(html);
  return page.evaluate(fingerprint);
}

beforeAll(async () => {
  page = await browser().newPage();
  book.expect(SEVEN);
  for (const state of SEVEN) book.report(state, await read(pageOf(state, true)));
});

describe('an Italian site whose pending page alone has a role="status" paragraph', () => {
  test("the 429 page shares pending's feature but none of its words: no learned state, so the 429 is left to inference; it read as pending before", async () => {
    const limited = await read(pageOf('rate_limited'));
    expect(limited.markup).toEqual(expect.arrayContaining(['p[role="status"]']));
    expect(book.carried(limited)).toEqual([]);
    await page.setContent(pageOf('rate_limited'));
    expect(await new AgencyPage(page, defaults, book).shows()).toEqual([]);
  });

  test('production pages of the six learned states and the error page are still recognised, and the evidence names what matched', async () => {
    for (const state of SEVEN) {
      await page.setContent(pageOf(state));
      const reading = await new AgencyPage(page, defaults, book).read(true);
      expect([state, reading.shown]).toEqual([state, [`state:${state}`]]);
    }
    expect(book.matched(await read(pageOf('pending')), 'pending')).toMatch(/^markup .*section\.attesa.*; text .*\(\d+ of \d+ words only its page shows\)$/);
  });

  test("a pending page whose settled delivery the page swapped in itself (pending's class kept, won's words) reads as won", async () => {
    const swapped = pageOf('pending', false, CONTENT.won![1]);
    expect(book.carried(await read(swapped))).toEqual(['won']);
  });
});

test('a page that only ticks digits (a countdown, a clock, a timer\'s aria-valuenow) reads the same from tick to tick: it has settled', async () => {
  await page.setContent(`${pageOf('rate_limited')}<p role="timer" aria-valuenow="8">00:00:<b id="clock">08</b></p>
    <script>let left = 8; setInterval(() => { left -= 1; document.querySelector('span').textContent = String(left);
      document.querySelector('#clock').textContent = String(left).padStart(2, '0'); document.querySelector('[role=timer]').setAttribute('aria-valuenow', String(left)); }, 100);</script>`);
  const first = await page.evaluate(fingerprint);
  await page.waitForFunction(() => (globalThis as unknown as { document: { querySelector(selector: string): { textContent: string } } }).document.querySelector('span').textContent !== '8');
  expect(samePage(first, await page.evaluate(fingerprint))).toBe(true);
});

test("a learned reading of a state that needs an entry is ruled out by an answer other than 200; a marker's reading, or a 200, is not", () => {
  expect(ruledOut({ learned: 'pending' }, { status: 429, error: 'rate_limited', entryState: null })).toBe(true);
  expect(ruledOut({ learned: 'ineligible' }, { status: 429, error: 'rate_limited', entryState: null })).toBe(false);
  expect(ruledOut({}, { status: 429, error: 'rate_limited', entryState: null })).toBe(false);
  expect(ruledOut({ learned: 'pending' }, { status: 200, entryState: 'won' })).toBe(false);
});
