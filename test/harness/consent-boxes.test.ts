/**
 * The consent form in any language (issue 28, "What was seen" 1 and 8): its boxes are told apart by
 * what the page requires and by the minimum age the terms set before any word, then by one
 * vocabulary (harness/vocabulary.ts) of the service's markets; a box still unknown makes its check
 * inconclusive, naming `markers.consent_boxes`, never failed. The way back after a 429 and the
 * button that sends the form are found by structure first, words last.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import { CONSENT_CHECKS } from '../../harness/checks/consent.js';
import { ConfigSchema } from '../../harness/config.js';
import { stepForm } from '../../harness/browser/openers.js';
import { outside } from '../../harness/browser/outside.js';
import { AgencyPage, consentPageOf } from '../../harness/pages/agency.js';
import { PreviewPage } from '../../harness/pages/preview.js';
import { RunFacts } from '../../harness/run/facts.js';
import type { ConsentView } from '../../harness/browser/seen.js';
import type { ScenarioRun } from '../../harness/run/scenario-run.js';
import { STEPS } from '../../harness/run/steps.js';
import { confirmEntry, standingBeside } from '../../harness/run/consent-steps.js';
import type { BrowserSession } from '../../harness/run/browser-session.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();
let page: Page;
beforeAll(async () => {
  page = await browser().newPage();
});

const plain = ConfigSchema.parse({});

/** The form of a page, as the harness reads it for a journey whose terms set `minimumAge`. */
async function formOf(html: string, options: { minimumAge?: number; config?: unknown } = {}) {
  await page.setContent(`<main>${html}</main>`);
  return consentPageOf(page, ConfigSchema.parse(options.config ?? {}), options.minimumAge).read();
}

const roles = (form: Awaited<ReturnType<typeof formOf>>) => form.boxes.map((box) => `${box.role} by ${box.by}`);

/** The verdict of one consent check on a run whose only journey saw this form first. */
function verdictOn(id: string, view: Awaited<ReturnType<typeof formOf>>, config = plain) {
  const facts = new RunFacts(config, { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  facts.terms = { countries: ['FR'], default: { text: 'Règlement', url: 'https://marque.example/reglement', links: [], required: true, minimum_age: 18, version: 'v1' }, by_country: {} };
  const consent: ConsentView = { label: undefined as unknown as string, at: 1, url: 'http://127.0.0.1:3000/participation', ...view };
  facts.journeys.push({ scenario: 'consent', journey: 'main', pack: { code: 'P1', outcome: 'lost' }, country: 'FR', email: 'a@b.example', consent: [consent], submissions: [] });
  return CONSENT_CHECKS.find((check) => check.id === id)!.evaluate(facts);
}

const FRENCH = `<form action="/participer" method="post">
  <p><input type="checkbox" id="r" name="reglement" required><label for="r">J'ai lu et j'accepte le règlement du jeu.</label></p>
  <p><input type="checkbox" id="a" name="age" required><label for="a">Je confirme avoir au moins 18 ans.</label></p>
  <p><input type="checkbox" id="m" name="offres"><label for="m">J'accepte de recevoir les offres et la newsletter de la marque par e-mail.</label></p>
  <button>Participer</button></form>`;

describe('which box is which', () => {
  test("the French site's optional, unticked, separate «J'accepte de recevoir les offres et la newsletter…» is marketing, not terms: separate_from_marketing passes", async () => {
    const form = await formOf(FRENCH, { minimumAge: 18 });
    expect(roles(form)).toEqual(['terms by words', 'age by age', 'marketing by words']);
    expect(verdictOn('consent.separate_from_marketing', form)).toMatchObject({ status: 'pass' });
    // Without `required` on any box, the words still tell the opt-in from the terms.
    const unrequired = await formOf(FRENCH.replaceAll(' required', ''), { minimumAge: 18 });
    expect(roles(unrequired)).toEqual(['terms by words', 'age by age', 'marketing by words']);
  });

  test('one French box accepting the rules and the offers together fails separate_from_marketing', async () => {
    const form = await formOf(`<form><label><input type="checkbox" required> J'accepte le règlement et de recevoir les offres de la marque.</label><button>Participer</button></form>`);
    expect(verdictOn('consent.separate_from_marketing', form)).toMatchObject({ status: 'fail', reason: expect.stringMatching(/also asks for marketing/) });
  });

  test.for([
    ['Polish', 'Zapoznałem się z regulaminem i akceptuję go.', 'Potwierdzam, że mam ukończone 18 lat.', 'Chcę otrzymywać oferty i newsletter e-mailem.'],
    ['Czech', 'Souhlasím s pravidly soutěže.', 'Potvrzuji, že mi je alespoň 18 let.', 'Chci dostávat novinky a nabídky e-mailem.'],
    ['Swedish', 'Jag godkänner tävlingsvillkoren.', 'Jag bekräftar att jag är minst 18 år.', 'Skicka mig nyhetsbrev och erbjudanden.'],
  ])('a %s form without `required` anywhere: terms, age and marketing by their words and the number', async ([, terms, age, marketing]) => {
    const form = await formOf(`<form><label><input type="checkbox"> ${terms}</label><label><input type="checkbox"> ${age}</label><label><input type="checkbox"> ${marketing}</label><button type="submit">OK</button></form>`, { minimumAge: 18 });
    expect(roles(form)).toEqual(['terms by words', 'age by age', 'marketing by words']);
    expect(verdictOn('consent.separate_from_marketing', form)).toMatchObject({ status: 'pass' });
    expect(verdictOn('consent.age_confirmation', { ...form, boxes: form.boxes.filter((box) => box.role !== 'age') })).toMatchObject({ status: 'fail' });
  });

  test('a language the vocabulary lacks (Finnish): the required box is the terms, the one with the minimum age the age box, the optional one marketing', async () => {
    const form = await formOf(`<form><label><input type="checkbox" required> Hyväksyn kilpailun säännöt.</label><label><input type="checkbox" required> Olen vähintään 18-vuotias.</label><label><input type="checkbox"> Haluan uutiskirjeen.</label><button>Osallistu</button></form>`, { minimumAge: 18 });
    expect(roles(form)).toEqual(['terms by required', 'age by age', 'marketing by optional']);
    expect(verdictOn('consent.separate_from_marketing', form)).toMatchObject({ status: 'pass' });
  });

  test('boxes it cannot tell apart make the checks inconclusive, naming markers.consent_boxes, never failed; the config then names them', async () => {
    const html = `<form><label><input type="checkbox" id="s"> Hyväksyn säännöt.</label><label><input type="checkbox" id="u"> Haluan uutiskirjeen.</label><button>Osallistu</button></form>`;
    const unknown = await formOf(html);
    expect(roles(unknown)).toEqual(['other by structure', 'other by structure']);
    expect(verdictOn('consent.separate_from_marketing', unknown)).toMatchObject({ status: 'inconclusive', configure: expect.stringMatching(/markers\.consent_boxes\.terms/) });
    expect(verdictOn('consent.age_confirmation', unknown)).toMatchObject({ status: 'inconclusive', configure: expect.stringMatching(/markers\.consent_boxes\.age/) });
    const config = { markers: { consent_boxes: { terms: '#s', marketing: '#u' } } };
    const named = await formOf(html, { config });
    expect(roles(named)).toEqual(['terms by marker', 'marketing by marker']);
    expect(verdictOn('consent.separate_from_marketing', named, ConfigSchema.parse(config))).toMatchObject({ status: 'pass' });
  });

  test('the vocabulary config adds words, and rejects one that is not a regular expression', async () => {
    const config = { vocabulary: { terms: ['säännö'], marketing: ['uutiskirje'] } };
    const form = await formOf(`<form><label><input type="checkbox"> Hyväksyn säännöt.</label><label><input type="checkbox"> Haluan uutiskirjeen.</label><button>Osallistu</button></form>`, { config });
    expect(roles(form)).toEqual(['terms by words', 'marketing by words']);
    expect(ConfigSchema.safeParse({ vocabulary: { terms: ['(unclosed'] } }).error?.issues[0]).toMatchObject({ path: ['vocabulary', 'terms', 0], message: 'not a valid regular expression' });
  });

  test('a form whose only box offers marketing is not a consent form, in French too', async () => {
    await page.setContent(`<main><form><label><input type="checkbox"> Je souhaite recevoir la newsletter</label><button>OK</button></form></main>`);
    expect(await new AgencyPage(page, plain.markers).shows()).toEqual([]);
  });
});

describe('the button that sends it, and the way back after a 429', () => {
  test('the submit button, else the only button, else one named like a submit in the vocabulary; never a guessed last button', async () => {
    await formOf(`<section><label><input type="checkbox" required> J'accepte le règlement</label><button type="button">Participer</button></section>`);
    expect(await (await consentPageOf(page, plain, undefined).submit())?.textContent()).toBe('Participer');
    const consent = consentPageOf(page, plain, undefined);
    await page.setContent(`<main><section><label><input type="checkbox" required> Akceptuję regulamin</label><button type="button">Anuluj</button><button type="button">Weź udział</button></section></main>`);
    await consent.read();
    expect(await (await consent.submit())?.textContent()).toBe('Weź udział');
    await page.setContent(`<main><section><label><input type="checkbox" required> Hyväksyn säännöt</label><button type="button">Peruuta</button><button type="button">Osallistu</button></section></main>`);
    await consent.read();
    expect(await consent.submit()).toBeUndefined();
  });

  test('a link to the page the form was sent from, in any words, comes before the words of the vocabulary', async () => {
    await page.setContent(`<header><a href="http://127.0.0.1:3000/">Accueil</a></header><main><h1>Réessayez dans 8 secondes</h1>
      <p><a href="http://127.0.0.1:3000/regles">Le règlement</a> · <a href="http://127.0.0.1:3000/participation?t=1">Revenir</a></p></main>`);
    expect(await (await new AgencyPage(page, plain.markers).wayBack('http://127.0.0.1:3000/participation'))?.textContent()).toBe('Revenir');
  });

  test('the one action of the main content, whatever it says; else a French "Réessayer"', async () => {
    await page.setContent(`<header><a href="/">Accueil</a></header><main><p>Merci de patienter.</p><a href="/suite">Continuer</a></main>`);
    expect(await (await new AgencyPage(page, plain.markers).wayBack())?.textContent()).toBe('Continuer');
    await page.setContent(`<main><p>Merci de patienter.</p><a href="/regles">Règlement</a><button>Réessayer</button></main>`);
    expect(await (await new AgencyPage(page, plain.markers).wayBack())?.textContent()).toBe('Réessayer');
  });

  test("a preview link found by the attribute that names its scenario, whatever its words", async () => {
    await page.setContent(`<main><ul><li><a href="/apercu/gagne" data-cas="won">Gagné</a></li><li><a href="/apercu/perdu" data-cas="lost">Perdu</a></li></ul></main>`);
    expect(await (await new PreviewPage(page, plain.markers).link('lost', 1000))?.textContent()).toBe('Perdu');
  });
});

describe('a consent form the page holds hidden (issue 47 item 3)', () => {
  const TERMS = '<label><input type="checkbox" required> Acepto las bases</label><label><input type="checkbox" checked> Quiero recibir ofertas</label><button>Enviar</button>';
  /** Shows the form the way a person would, each click as the harness makes it; returns what it says it clicked. */
  const openOn = async (html: string, config = plain) => {
    await page.setContent(`<main><h1>Verano</h1>${html}</main>`);
    const consent = consentPageOf(page, config, undefined);
    return { consent, opened: await consent.open((click) => click()) };
  };

  test("a native <dialog> behind the main content's one button, whatever it says: opened, and its preselected box fails consent.not_preselected", async () => {
    const { consent, opened } = await openOn(`<button id="open">Quiero participar</button><dialog id="d"><form method="dialog">${TERMS}</form></dialog>
      <script>document.getElementById('open').onclick = () => document.getElementById('d').showModal();</script>`);
    expect(opened).toBe('the form was hidden; the harness clicked "Quiero participar" (the one button of the main content) to show it');
    const form = await consent.read();
    expect([form.visible, form.boxes.map((box) => box.checked)]).toEqual([true, [false, true]]);
    expect(verdictOn('consent.not_preselected', Object.assign(form, { opened }))).toMatchObject({ status: 'fail', evidence: expect.arrayContaining([expect.objectContaining({ label: expect.stringContaining('clicked "Quiero participar"') })]) });
  });

  test('a disclosure by its summary; a drawer by the button that names it, among others', async () => {
    expect((await openOn(`<details><summary>Mitmachen</summary><form>${TERMS}</form></details>`)).opened).toContain('"Mitmachen" (the summary of its disclosure)');
    const drawer = await openOn(`<button>Delen</button><button id="b" aria-controls="drawer">Meedoen</button><div id="drawer" hidden><form>${TERMS}</form></div>
      <script>document.getElementById('b').onclick = () => { document.getElementById('drawer').hidden = false; };</script>`);
    expect(drawer.opened).toContain(`"Meedoen" (it names the form's container)`);
  });

  test('never a guess between two buttons: an error naming markers.consent_open, which then picks one; a form already shown is left as it is', async () => {
    const two = `<button id="a">Partager</button><button id="b">Participer</button><dialog id="d"><form>${TERMS}</form></dialog>
      <script>document.getElementById('b').onclick = () => document.getElementById('d').show();</script>`;
    await expect(openOn(two)).rejects.toThrow('2 elements could open it ("Partager", "Participer"): markers.consent_open names the one');
    expect((await openOn(two, ConfigSchema.parse({ markers: { consent_open: '#b' } }))).opened).toContain('"Participer" (markers.consent_open)');
    expect((await openOn(`<form>${TERMS}</form>`)).opened).toBeUndefined();
  });

  test('a step page before the form: the one form of the main content with its one button; none when that is not one', async () => {
    const step = async (html: string) => {
      await page.setContent(`<header><form><input name="q"><button>Suchen</button></form></header><main>${html}</main>`);
      return outside(page, stepForm);
    };
    expect(await step('<form><label for="b">Geburtsdatum</label><input type="date" id="b"><button>Weiter</button></form>')).toMatchObject({ text: 'Weiter' });
    expect(await step('<form><button>Ja</button><button>Nein</button></form>')).toEqual({ several: ['Ja', 'Nein'] });
    expect(await step('<form><button>Weiter</button></form><form><button>Abbrechen</button></form>')).toEqual({ several: ['Weiter', 'Abbrechen'] });
    expect(await step('<p>Danke</p>')).toBeUndefined();
    // The config names the step's button: taken with its form.
    expect(await outside(page, stepForm, { button: 'main button[value=yes]' })).toBeUndefined();
    await page.setContent('<main><form><button name="adult" value="yes">Ja</button><button name="adult" value="no">Nein</button></form></main>');
    expect(await outside(page, stepForm, { button: 'main button[value=yes]' })).toMatchObject({ text: 'Ja', form: expect.stringMatching(/> form:nth-child\(1\)$/) });
  });
});

describe('a page asking to confirm the consent form once sent (issue 47 item 3)', () => {
  /** A run whose entry never reaches the service, on this page (only its page object, config and person are real). */
  const runOn = async (html: string, config = plain) => {
    await page.setContent(`<main>${html}</main>`);
    const facts = new RunFacts(config, { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
    const run = { facts, env: { config }, view: () => new AgencyPage(page, config.markers), journey: () => ({ country: 'ES' }) } as unknown as ScenarioRun;
    const session = { page, journey: 'main', act: (action: () => Promise<void>) => action() } as unknown as BrowserSession;
    return { run, session };
  };
  /** What confirmEntry does on this page. */
  const confirmOn = async (html: string, config = plain) => {
    const { run, session } = await runOn(html, config);
    return confirmEntry(run, session, async () => false);
  };
  /** What confirmEntry does once the consent form on this page was sent as submitConsent sends it: what stood beside it read first, its box ticked, its button clicked. */
  const sendAndConfirm = async (html: string) => {
    const { run, session } = await runOn(html);
    const standing = await standingBeside(run, session);
    await page.locator('#accept').check();
    await page.locator('#send').click();
    return confirmEntry(run, session, async () => false, standing);
  };
  // Either button ends on an error page the harness recognises, so nothing is waited for after the click.
  const SUMMARY = `<form onsubmit="event.preventDefault(); document.body.innerHTML = '<main data-page=error>Error</main>'"><p>Has aceptado las bases.</p>
    <button name="go" value="yes">Confirmar</button><button name="go" value="no">Volver</button></form>`;

  test('never a guess between two buttons: an error naming markers.consent_step, which then picks one, the click said', async () => {
    await expect(confirmOn(SUMMARY)).rejects.toThrow(/offers 2 buttons \("Confirmar", "Volver"\) and the entry did not reach the service: markers\.consent_step names the one a person takes/);
    expect(await confirmOn(SUMMARY, ConfigSchema.parse({ markers: { consent_step: 'main button[value=yes]' } }))).toEqual([
      expect.stringMatching(/^after the consent form was sent, a page at \S+: the harness filled its form as the journey's person and clicked "Confirmar"$/),
    ]);
  });

  /** A single-page app's consent form: once sent, it stays in the page (hidden, or not) and a summary is drawn beside it, whose one button ends on an error page the harness recognises. */
  const spa = (hide: boolean, beside = '') => `<form id="f"><label><input type="checkbox" id="accept" required> Acepto las bases</label><button id="send">Participar</button></form>${beside}
    <script>document.getElementById('f').addEventListener('submit', (event) => {
      event.preventDefault();
      const summary = document.createElement('section');
      summary.innerHTML = '<p role="status">Has aceptado las bases.</p><button type="button">Confirmar</button>';
      event.target.hidden = ${hide};
      event.target.after(summary);
      summary.querySelector('button').onclick = () => { document.body.innerHTML = '<main data-page=error>Error</main>'; };
    });</script>`;

  test.for([true, false])('a single-page app that draws its summary beside the consent form it keeps (hidden: %s): its one button is clicked, the click said', async (hide) => {
    expect(await sendAndConfirm(spa(hide))).toEqual([expect.stringMatching(/^after the consent form was sent, a page at \S+: the harness filled its form as the journey's person and clicked "Confirmar"$/)]);
  });

  test('the consent form shown again beside what stood there before it was sent (a form of its own, a button) is no step: nothing is clicked', async () => {
    const refused = `<form id="f" onsubmit="event.preventDefault(); document.getElementById('problem').textContent = 'Acepta las bases.'"><label><input type="checkbox" id="accept" required> Acepto las bases</label>
      <p id="problem" role="alert"></p><button id="send">Participar</button></form><form><button>Suscribirme</button></form><script>document.querySelector('form:not(#f)').onsubmit = () => { document.body.innerHTML = '<main>clicked</main>'; };</script>`;
    expect(await sendAndConfirm(refused)).toEqual([]);
    expect(await page.locator('#problem').textContent()).toBe('Acepta las bases.');
  });
});

describe("the terms' markup probe (issue 48 item 1)", () => {
  test('every value the terms-change scenario writes into the terms is drawn per run: no word a page could match on, a version and a link label of each run\'s own, the version in mixed case (issue 48 item 6)', async () => {
    const scenario = JSON.parse(readFileSync(new URL('../../scenarios/terms-change.json', import.meta.url), 'utf8')) as { steps: Array<{ do: string }> };
    const editsOf = async (facts: RunFacts) => {
      const run = { facts, scenario: { id: 'terms-change' }, journey: () => ({ country: 'CH' }), env: { client: { editTerms: async () => undefined } } } as unknown as ScenarioRun;
      for (const step of scenario.steps.filter((step) => step.do === 'edit_terms')) await STEPS.edit_terms(run, step as Parameters<typeof STEPS.edit_terms>[1]);
      return facts.termsEdits.map((edit) => edit.set);
    };
    const origins = { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' };
    const [one, two] = await Promise.all([editsOf(new RunFacts(plain, origins, '/tmp')), editsOf(new RunFacts(plain, origins, '/tmp'))]);
    expect(JSON.stringify(one)).not.toMatch(/harness|probe|\{\w+\}/i);
    const versions = one.map((set) => set.version!);
    expect(new Set(versions).size).toBe(2);
    for (const version of versions) expect(version.toLowerCase()).not.toBe(version);
    expect(two.map((set) => set.version)).not.toEqual(versions);
    const label = one[0]!.links!.find((link) => link.url.startsWith('javascript:'))!.label;
    expect(two[0]!.links!.find((link) => link.url.startsWith('javascript:'))!.label).not.toBe(label);
  });

  test('its attribute is drawn per run: a page that strips the one it could know still shows the run\'s probe as elements, and terms.html_inert fails it', async () => {
    const editOf = async (facts: RunFacts) => {
      const scenario = JSON.parse(readFileSync(new URL('../../scenarios/terms-change.json', import.meta.url), 'utf8')) as { steps: Array<{ do: string }> };
      const run = { facts, scenario: { id: 'terms-change' }, journey: () => ({ country: 'CH' }), env: { client: { editTerms: async () => undefined } } } as unknown as ScenarioRun;
      await STEPS.edit_terms(run, scenario.steps.find((step) => step.do === 'edit_terms') as Parameters<typeof STEPS.edit_terms>[1]);
      return facts.termsEdits[0]!;
    };
    const origins = { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' };
    const [facts, other] = [new RunFacts(plain, origins, '/tmp'), new RunFacts(plain, origins, '/tmp')];
    const edit = await editOf(facts);
    expect(facts.probeMark).toMatch(/^data-[a-z]{8}$/);
    expect(other.probeMark).not.toBe(facts.probeMark);
    expect(edit.set.text).toContain(`<b ${facts.probeMark}="b">`);
    expect(edit.set.text).not.toMatch(/harness/i);
    expect((await editOf(other)).set.text).not.toContain(facts.probeMark);
    // A page that renders the terms as markup, then removes what carries the attribute it expects the harness to use.
    await page.setContent(`<main><form><p id="t">${edit.set.text}</p><input type="checkbox" id="r" required><label for="r">I accept the terms</label><button>Enter</button></form></main>
      <script>document.querySelectorAll('[data-harness-probe], [data-probe]').forEach((element) => element.remove());</script>`);
    const view = await consentPageOf(page, plain, undefined, facts.probeMark).read();
    expect(view.probeElements).toBe(2);
    facts.journeys.push({ scenario: 'terms-change', journey: 'main', pack: { code: 'P1', outcome: 'lost' }, country: 'CH', email: 'a@b.example', consent: [{ label: 'after', at: edit.at + 1, url: 'http://127.0.0.1:3000/entry', ...view }], submissions: [] });
    expect(CONSENT_CHECKS.find((check) => check.id === 'terms.html_inert')!.evaluate(facts)).toMatchObject({ status: 'fail', reason: 'markup in terms.text became 2 element(s) on the consent page' });
  });
});
