/**
 * States learned from the preview, on pages the harness has never seen and whose language it does
 * not read: a French server-rendered site that marks each result as a class of a <section>
 * (like the one of issue 28), and a site whose pages differ only in their words. Each page is
 * read in Chromium (the fingerprint runs in the page); the six sandbox pages teach the signatures,
 * and production pages, with their own prize, code and CSRF token, are recognised by them.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { type Fingerprint, fingerprint } from '../../harness/browser/in-page.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ResultState, StateName } from '../../harness/journey-states.js';
import { AgencyPage } from '../../harness/pages/agency.js';
import { StateBook, learn, samePage, statesCarried } from '../../harness/pages/states.js';
import { withoutServiceData } from '../../harness/pages/service-data.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { type Expectation, RunFacts } from '../../harness/run/facts.js';
import type { PageSeen } from '../../harness/browser/seen.js';
import { useChromium } from '../support/chromium.js';

const SIX = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'] as const;
/** The reference agency's markers: none of them is on these pages. */
const defaults = ConfigSchema.parse({}).markers;

type Copy = { prize: string; code: string; token: string };

/** The French site: the state is a class of the <section>, its copy French. */
const FRENCH: Record<Exclude<StateName, never>, (copy: Copy) => [string, string]> = {
  won: ({ prize, code }) => ['gagne', `<h2>Félicitations !</h2><p>Vous avez gagné ${prize}.</p><p>Votre code : <code>${code}</code></p><p><a class="bouton" href="https://marque.example/utiliser">Utiliser votre gain</a></p>`],
  lost: () => ['perdu', "<h2>Pas de chance cette fois</h2><p>Merci d'avoir participé.</p>"],
  pending: ({ prize }) => ['en-attente', `<h2>Vous avez gagné !</h2><p>Votre gain ${prize} est en cours d'envoi. Cette page se met à jour toute seule.</p>`],
  failed: ({ prize }) => ['retard', `<h2>Vous avez gagné !</h2><p>La livraison de ${prize} est retardée ; votre gain vous reste acquis.</p>`],
  ineligible: () => ['non-eligible', "<h2>Non disponible dans votre pays</h2><p>Cette opération n'est pas ouverte là où vous êtes.</p>"],
  already_entered: () => ['deja-participe', '<h2>Paquet déjà utilisé</h2><p>Ce paquet a déjà servi à participer.</p>'],
  unavailable: () => ['indisponible', '<h2>Opération indisponible</h2><p>Retrouvez vos gains dans <a href="https://service.example/rewards">vos récompenses</a>.</p>'],
  invalid_session: () => ['session-expiree', '<h2>Veuillez scanner à nouveau</h2><p>Votre session a expiré.</p>'],
  rate_limited: () => ['patience', '<h2>Réessayez dans 8 secondes</h2><p><a href="/resultat">Retour</a></p>'],
  error: () => ['erreur', '<h2>Une erreur est survenue</h2><p>Veuillez réessayer dans un instant.</p>'],
};

function french(state: StateName, sandbox: boolean, copy: Copy): string {
  const [kind, content] = FRENCH[state](copy);
  return `<header><a href="/">Accueil</a></header><main>
    ${sandbox ? '<p class="apercu">Aperçu : ce résultat est fictif.</p>' : ''}
    <section class="resultat ${kind}" data-session="${copy.token.slice(0, 24)}" id="tx-${copy.code.length}${copy.token.length}">${content}</section>
    <form method="post" action="/deconnexion"><input type="hidden" name="csrf_token" value="${copy.token}"><button>Quitter</button></form>
  </main><footer>Mentions légales</footer>`;
}

/** A site whose result pages share every element: only their words tell them apart. */
function wordsOnly(state: StateName, sandbox: boolean, copy: Copy): string {
  const words: Partial<Record<StateName, string>> = {
    won: `Glückwunsch, gewonnen! Dein Code ${copy.code} für ${copy.prize}`, lost: 'Leider kein Gewinn, danke fürs Mitmachen', pending: `Gewonnen, ${copy.prize} wird zugestellt`,
    failed: `Gewonnen, die Zustellung von ${copy.prize} verzögert sich`, ineligible: 'In deinem Land nicht verfügbar', already_entered: 'Diese Packung wurde schon verwendet',
    unavailable: 'Aktion gerade pausiert',
  };
  return `<main>${sandbox ? '<p>Vorschau</p>' : ''}<div class="karte"><p>${words[state]}</p></div></main>`;
}

const browser = useChromium();
let page: Page;
beforeAll(async () => {
  page = await browser().newPage();
});

async function read(html: string): Promise<Fingerprint> {
  await page.setContent(html);
  return page.evaluate(fingerprint);
}

const sandboxCopy: Copy = { prize: 'Prix de démonstration', code: 'DEMOCODE', token: 'Zk8q2LmX0pR7vT3wY9aB4cD6eF1gH5iJ' };
const productionCopy: Copy = { prize: 'Tasse en céramique', code: 'QWERTYUIOP', token: 'Hq3Ws9Ed2Rf7Tg5Yh1Uj8Ik4Ol6Pa0Sz' };

describe('the French site: states as classes of a <section>, copy in French, no markers', () => {
  const book = new StateBook();
  beforeAll(async () => {
    // The six sandbox scenarios, and the won one again with its entry answered 500: the site's failure page.
    book.expect([...SIX, 'error']);
    for (const state of [...SIX, 'error'] as const) book.report(state, await read(french(state, true, sandboxCopy)));
  });

  test('each state is learned by the class only its page carries, a state marker that decides alone', () => {
    expect(book.learned!.unlearned).toEqual([]);
    expect(Object.fromEntries(book.learned!.signatures.map((signature) => [signature.state, signature.keys.length ? signature.keys : signature.features]))).toEqual({
      won: expect.arrayContaining(['section.gagne']), lost: ['section.perdu'], pending: ['section.en-attente'], failed: ['section.retard'],
      ineligible: ['section.non-eligible'], already_entered: ['section.deja-participe'], error: ['section.erreur'],
    });
  });

  test('values that differ per run are no features: the CSRF token, a random session attribute, an id with digits', async () => {
    const features = await read(french('won', false, productionCopy));
    expect(features.markup).toContain('section[data-session]');
    expect(features.markup.join(' ')).not.toMatch(/Hq3Ws9|tx-|csrf/);
    expect(features.text).not.toContain('8');
  });

  test('production pages, with their own prize, code and token and no preview notice, are recognised as their state', async () => {
    for (const state of SIX) {
      await page.setContent(french(state, false, productionCopy));
      const reading = await new AgencyPage(page, defaults, book).read();
      expect([state, reading.shown]).toEqual([state, [`state:${state}`]]);
      expect(reading.learned).toBe(state);
    }
  });

  test('the states the preview cannot show carry no learned signature: distinct, left to inference; the failure page shows error', async () => {
    await page.setContent(french('error', false, productionCopy));
    expect(await new AgencyPage(page, defaults, book).shows()).toEqual(['state:error']);
    for (const state of ['unavailable', 'invalid_session', 'rate_limited'] as const) {
      await page.setContent(french(state, false, productionCopy));
      expect([state, await new AgencyPage(page, defaults, book).shows()]).toEqual([state, []]);
    }
  });

  test('a page that carries two states’ signatures and words is not recognised: ambiguous; with one state’s words only, the whole page tells which', async () => {
    const marked = french('lost', false, productionCopy).replace('class="resultat perdu"', 'class="resultat perdu deja-participe"');
    expect(book.carried(await read(marked))).toEqual(['lost']);
    const both = marked.replace('</section>', `${FRENCH.already_entered(productionCopy)[1]}</section>`);
    expect(book.carried(await read(both))).toEqual(['lost', 'already_entered']);
    await page.setContent(both);
    expect(await new AgencyPage(page, defaults, book).shows()).toEqual([]);
  });

  test("a configured marker wins over the learned signature when it matches", async () => {
    const markers = ConfigSchema.parse({ markers: { state: 'section.resultat.{name}', states: { won: 'perdu' } } }).markers;
    await page.setContent(french('lost', false, productionCopy));
    expect(await new AgencyPage(page, markers, book).shows()).toEqual(['state:won']);
  });
});

/**
 * A Dutch site whose preview shows the sandbox prize, a voucher with its code and a redeem link,
 * while production gives another kind of prize, concert tickets, with neither: the won page's own
 * copy ("Gefeliciteerd!") is all the two share. No class or attribute names a state.
 */
const DUTCH: Partial<Record<StateName, (prize: string) => string>> = {
  won: (prize) => `<h2>Gefeliciteerd!</h2><p>Je hebt <strong>${prize}</strong> gewonnen.</p>`,
  lost: () => '<h2>Helaas, deze keer niet</h2><p>Bedankt voor je deelname.</p>',
  pending: (prize) => `<h2>Je hebt gewonnen!</h2><p>Je hebt <strong>${prize}</strong> gewonnen. De levering wordt verwerkt.</p><p role="status">Deze pagina kijkt zelf opnieuw.</p>`,
  failed: (prize) => `<h2>Je hebt gewonnen!</h2><p>Je hebt <strong>${prize}</strong> gewonnen. De levering is vertraagd; je prijs blijft bewaard.</p>`,
  ineligible: () => '<h2>Niet beschikbaar</h2><p>Deze actie is niet open in jouw land.</p>',
  already_entered: () => '<h2>Verpakking al gebruikt</h2><p>Met deze verpakking is al meegedaan.</p>',
};
const VOUCHER = { prize: '5 € tegoedbon', code: 'SANDBOX-K3JQXWAB', redeem: 'https://winkel.example/inwisselen' };
const TICKETS = 'Concerttickets voor twee';

function dutch(state: StateName, sandbox: boolean, prize: string): string {
  // The code block and the redeem link are there only when the entry has them: the sandbox voucher does, the tickets do not.
  const extra = state === 'won' && sandbox ? `<p>Je code:</p><ul class="codes"><li><code>${VOUCHER.code}</code></li></ul><p><a class="knop" href="${VOUCHER.redeem}">Verzilver je prijs</a></p>` : '';
  return `<header><h1>Lentecampagne</h1></header><main>${sandbox ? '<p class="voorbeeld">Voorbeeld: deze uitslag is verzonnen.</p>' : ''}<section class="uitslag">${DUTCH[state]!(prize)}${extra}</section><p><a href="https://service.example/rewards">Naar je beloningen</a></p></main>`;
}

describe('a site whose production prize is unlike the preview’s: the service’s data is no part of a state', () => {
  const book = new StateBook();
  beforeAll(async () => {
    // What the service answered, as the emulator observed it: the sandbox entries' voucher, its code and link, and the delivered tickets.
    const answers = [{ prize: VOUCHER.prize, codes: [VOUCHER.code], redemption_url: VOUCHER.redeem }, { prize: TICKETS, codes: [], redemption_url: null }];
    book.data.note(answers.map((answer) => ({ answer }) as ObservedCall));
    book.data.name('Lentecampagne');
    book.expect(SIX);
    for (const state of SIX) {
      await page.setContent(dutch(state, true, VOUCHER.prize));
      book.report(state, await withoutServiceData(page, await page.evaluate(fingerprint), book.data));
    }
  });

  test('the won signature holds none of the voucher, its code, its code list with its label, or its redeem link', () => {
    expect(book.signatureOf('won')).toMatchObject({ tier: 'text', features: ['gefeliciteerd'] });
  });

  test('a production won page with the tickets, no code and no redeem link, is recognised as won; the others as their state', async () => {
    for (const state of SIX) {
      await page.setContent(dutch(state, false, TICKETS));
      expect([state, (await new AgencyPage(page, defaults, book).read()).shown]).toEqual([state, [`state:${state}`]]);
    }
  });
});

test('a code block labelled inside its line or by a term of a list, and a redeem button, are data blocks; the copy around them is not', async () => {
  const data = new StateBook().data;
  data.note([{ answer: { prize: 'Tasse', codes: ['QWERTYUIOP'], redemption_url: 'https://marque.example/utiliser' } } as ObservedCall]);
  await page.setContent(`<main><h2>Félicitations !</h2><p>Vous avez gagné une belle <b>Tasse</b> offerte par la marque.</p>
    <p class="code">Votre code : <code>QWERTYUIOP</code></p><dl class="gain"><dt>Référence</dt><dd>QWERTYUIOP</dd></dl>
    <a class="bouton" href="https://marque.example/utiliser">Utiliser</a></main>`);
  const features = await withoutServiceData(page, await page.evaluate(fingerprint), data);
  expect(features.markup.filter((feature) => /code|gain|bouton/.test(feature))).toEqual([]);
  expect(features.structure.filter((feature) => /dl|>code|>a$/.test(feature))).toEqual([]);
  expect(features.text).toEqual(expect.arrayContaining(['félicitations', 'vous', 'avez', 'gagné', 'belle', 'offerte', 'marque']));
  expect(features.text.filter((word) => ['tasse', 'votre', 'code', 'référence', 'utiliser', 'qwertyuiop'].includes(word))).toEqual([]);
});

describe('a site whose result pages differ only in their words', () => {
  let learned: ReturnType<typeof learn>;
  beforeAll(async () => {
    const pages: Array<[StateName, Fingerprint]> = [];
    for (const state of SIX) pages.push([state, await read(wordsOnly(state, true, sandboxCopy))]);
    learned = learn(pages);
  });

  test('its states are learned from their words, the last resort, and recognised in production', async () => {
    expect(learned.signatures.map((signature) => [signature.state, signature.tier])).toEqual(SIX.map((state) => [state, 'text']));
    for (const state of SIX) expect([state, statesCarried(learned, await read(wordsOnly(state, false, productionCopy)))]).toEqual([state, [state]]);
    expect(statesCarried(learned, await read(wordsOnly('unavailable', false, productionCopy)))).toEqual([]);
  });

  test('two readings of one page are the same page; two states are not', async () => {
    expect(samePage(await read(wordsOnly('lost', false, productionCopy)), await read(wordsOnly('lost', false, productionCopy)))).toBe(true);
    expect(samePage(await read(wordsOnly('lost', false, productionCopy)), await read(wordsOnly('ineligible', false, productionCopy)))).toBe(false);
  });
});

test('a state whose preview page carries nothing the other five do not is not learned', async () => {
  const pages: Array<[StateName, Fingerprint]> = [];
  for (const state of SIX) pages.push([state, await read(french(state === 'failed' ? 'pending' : state, true, sandboxCopy))]);
  const learned = learn(pages);
  expect(learned.unlearned).toEqual(['pending', 'failed']);
});

describe('journey.state.* on inferred states and ambiguous pages (made-up facts)', () => {
  const fp = (...markup: string[]): Fingerprint => ({ markup, structure: ['body', 'body>main'], text: [] });
  const seen = (features: Fingerprint): PageSeen => ({ scenario: 's', journey: 'main', environment: 'production', at: 0, url: 'http://127.0.0.1:3000/r', status: 200, shows: [], links: [], title: 'Aktion', text: '', features });
  const expectation = (state: ResultState, error: string, status: number, page: PageSeen, how?: string): Expectation => ({
    scenario: `entry-${state}`, journey: 'main', environment: 'production', wanted: 'result', state, met: how !== undefined, page, answer: { status, error, entryState: null }, ...(how ? { how } : {}),
  });
  const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  const check = (state: ResultState) => CHECKS.find((candidate) => candidate.id === `journey.state.${state}`)!;

  test('an inferred state passes when its page is its own, and fails when it is the very page shown for another answer', () => {
    const run = facts();
    run.expectations.push(
      expectation('unavailable', 'unavailable', 410, seen(fp('section.oops')), 'inferred: …'),
      expectation('invalid_session', 'invalid_session', 401, seen(fp('section.oops')), 'inferred: …'),
      expectation('rate_limited', 'rate_limited', 429, seen(fp('section.wait')), 'inferred: …'),
    );
    expect(check('unavailable').evaluate(run)).toMatchObject({ status: 'fail', reason: expect.stringContaining('the page is the same as the one shown for invalid_session') });
    expect(check('invalid_session').evaluate(run)?.status).toBe('fail');
    expect(check('rate_limited').evaluate(run)).toMatchObject({ status: 'pass' });
  });

  test('a state the preview shows as the agency\'s failure page, and production too, fails; a page of its own sharing only the markup is inconclusive', () => {
    const words = (markup: string, ...text: string[]): Fingerprint => ({ markup: [markup], structure: ['body', 'body>main'], text });
    const failure = words('section.oops', 'une', 'erreur', 'est', 'survenue');
    const verdict = (page: Fingerprint) => {
      const run = facts();
      // The preview's ineligible page is the failure page (the won scenario made to fail): the preview teaches neither.
      run.states.expect(['lost', 'ineligible', 'already_entered', 'error']);
      run.states.report('lost', words('section.notice', 'pas', 'gagné'));
      run.states.report('ineligible', failure);
      run.states.report('already_entered', words('section.warning', 'paquet', 'déjà', 'utilisé'));
      run.states.report('error', failure);
      run.expectations.push(expectation('ineligible', 'ineligible', 403, seen(page)));
      return check('ineligible').evaluate(run);
    };
    expect(verdict(failure)).toMatchObject({ status: 'fail', reason: expect.stringContaining("the page is the agency's failure page") });
    expect(verdict(words('section.oops', 'non', 'disponible', 'dans', 'votre', 'pays'))).toMatchObject({ status: 'inconclusive' });
  });

  test('a state shown as the very page another scenario waited for (its consent form) fails, naming that page, not "undefined"', () => {
    const run = facts();
    const form = seen(fp('form.teilnahme'));
    run.expectations.push(
      { scenario: 'entry-invalid-session', journey: 'other', environment: 'production', wanted: 'consent_form', met: true, page: form },
      expectation('already_entered', 'already_entered', 409, seen(fp('form.teilnahme'))),
    );
    expect(check('already_entered').evaluate(run)).toMatchObject({ status: 'fail', reason: expect.stringContaining("the page is the same as the one shown for entry-invalid-session/other's consent form") });
  });

  test("a page carrying two learned states' signatures is inconclusive, saying so; a page carrying the failure page's signature fails", () => {
    const run = facts();
    run.states.expect(['lost', 'already_entered', 'error']);
    run.states.report('lost', fp('section.perdu'));
    run.states.report('already_entered', fp('section.deja'));
    run.states.report('error', fp('section.erreur'));
    run.expectations.push(expectation('already_entered', 'already_entered', 409, seen(fp('section.perdu', 'section.deja'))));
    expect(check('already_entered').evaluate(run)).toMatchObject({ status: 'inconclusive', evidence: [{ label: expect.stringContaining('carries the signatures of lost and already_entered') }] });
    const shownAsError = facts();
    shownAsError.expectations.push(expectation('unavailable', 'unavailable', 410, { ...seen(fp('section.erreur')), shows: ['state:error'] }));
    expect(check('unavailable').evaluate(shownAsError)).toMatchObject({ status: 'fail', reason: expect.stringContaining('the page shows error') });
  });
});
