/**
 * The step vocabulary of scenario files (schema.ts), one function each. Steps drive the browser
 * through page objects, shape the emulator through its control plane, and write what they see
 * into the run's facts; they judge nothing (checks do).
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BrowserSession } from '../browser/session.js';
import { ConsentPage } from '../pages/agency.js';
import { AuthorizePage, SignInPage } from '../pages/emulator.js';
import type { Step } from '../scenarios/schema.js';
import { isTerminalPoll, scheduleViolation } from './polling.js';
import type { ScenarioRun } from './scenario-run.js';
import { redactUrl } from './facts.js';
import { complete, entryCall, lastRequest, openPreview, probe, tamper } from './step-support.js';

type StepOf<K extends Step['do']> = Extract<Step, { do: K }>;
type Steps = { [K in Step['do']]: (run: ScenarioRun, step: StepOf<K>) => Promise<void> };

const FAULT_TARGETS = {
  exchange: { method: 'POST', path: '/sessions' },
  entry: { method: 'POST', path: '/session/entry' },
  session_read: { method: 'GET', path: '/session' },
} as const;

/** After Retry-After, a little more: the agency times the wait from when its answer arrived. */
const RETRY_AFTER_MARGIN_MS = 300;

export const STEPS: Steps = {
  async open_landing(run) {
    const session = await run.session('landing');
    await session.goto(run.facts.origins.callback);
    await run.observe(session);
  },

  async open_previews(run, step) {
    const preview = run.facts.origins.preview;
    if (!preview) throw new Error('no preview URL: pass --preview or set "preview" in the config');
    // Three browsers side by side: the previews are independent, and the production journeys wait for them.
    const queue = [...step.scenarios];
    await Promise.all([0, 1, 2].map(async (index) => {
      const session = index === 0 ? await run.session('preview') : await run.fresh(`preview-${index}`);
      for (let scenario = queue.shift(); scenario; scenario = queue.shift()) await openPreview(run, session, preview, scenario);
    }));
  },

  async scan(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const { facts } = run;
    const scan = `${facts.origins.emulator}/q/${encodeURIComponent(journey.pack.code)}`;
    // To add a state to the service's redirect, sign in first, then take the scan's redirect without following it.
    await session.goto(step.supply_state ? `${facts.origins.emulator}/sign-in?next=%2Fpromotions` : scan);
    const signIn = new SignInPage(session.page);
    if (signIn.isShown()) await signIn.signIn(journey.email, journey.country, (button) => session.clickAndWait(() => button.click()));
    if (step.supply_state) {
      const routed = await session.context.request.get(scan, { maxRedirects: 0, failOnStatusCode: false });
      const location = routed.headers().location;
      if (!location || !facts.isCallback(new URL(location, scan).href)) throw new Error(`the scan was not routed to the agency's callback (HTTP ${routed.status()}): is the integration approved?`);
      const url = new URL(location, scan);
      journey.suppliedState = randomBytes(32).toString('base64url');
      url.searchParams.set('state', journey.suppliedState);
      await session.goto(url.href);
    }
    journey.serviceRequest = lastRequest(run, step.journey, (url) => facts.isCallback(url.href) && url.searchParams.has('service_request'))?.searchParams.get('service_request') ?? undefined;
    const authorize = new AuthorizePage(session.page);
    const sent = authorize.isShown(facts.origins.emulator) ? new URL(session.page.url()) : lastRequest(run, step.journey, (url) => url.origin === facts.origins.emulator && url.pathname === '/authorize');
    if (sent) {
      const query = sent.searchParams;
      journey.authorize = { url: sent.href, state: query.get('state') ?? undefined, challenge: query.get('code_challenge') ?? undefined, method: query.get('code_challenge_method') ?? undefined };
    }
    if (!authorize.isShown(facts.origins.emulator) || (session.lastStatus ?? 200) >= 400) {
      await run.observe(session);
      throw new Error(`after the scan the browser shows ${redactUrl(session.page.url())} (HTTP ${session.lastStatus}), not the service's authorize page`);
    }
  },

  async authorize(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const { facts } = run;
    const authorize = new AuthorizePage(session.page);
    if (!authorize.isShown(facts.origins.emulator)) throw new Error(`not on the authorize page but ${redactUrl(session.page.url())}`);
    const isReturn = (url: URL) => facts.isCallback(url.href) && url.searchParams.has('service_code');
    if (step.hold) {
      // The service's redirect back, taken without following it: the callback URL is held, unopened.
      const form = await authorize.fields();
      const answer = await session.context.request.post(new URL('/authorize', facts.origins.emulator).href, { form, maxRedirects: 0, failOnStatusCode: false });
      const location = answer.headers().location;
      if (!location || !isReturn(new URL(location, facts.origins.emulator))) throw new Error(`Continue did not redirect to the callback (HTTP ${answer.status()})`);
      journey.issuedCallback = new URL(location, facts.origins.emulator).href;
      return;
    }
    const at = Date.now();
    await session.clickAndWait(() => authorize.continueButton.click());
    journey.issuedCallback = lastRequest(run, step.journey, isReturn)?.href;
    await complete(run, journey, session, at);
  },

  async callback(run, step) {
    const journey = run.journey(step.journey);
    const issued = journey.issuedCallback;
    if (!issued) throw new Error('no callback URL held: run "authorize" with "hold": true first');
    const code = new URL(issued).searchParams.get('service_code') ?? '';
    if (step.variant === 'as_issued') {
      const session = await run.session(step.journey);
      const at = Date.now();
      await session.goto(issued);
      await complete(run, journey, session, at);
      return;
    }
    let url = issued;
    let session: BrowserSession;
    if (step.variant === 'tampered_state') {
      const tampered = new URL(issued);
      tampered.searchParams.set('state', tamper(tampered.searchParams.get('state') ?? ''));
      url = tampered.href;
      session = await run.session(step.journey);
    } else if (step.variant === 'replay') {
      if (!journey.completion) throw new Error('nothing to replay: open the callback "as_issued" first');
      session = await run.session(step.journey);
    } else {
      session = await run.fresh(`${step.journey}-${step.variant}`);
      if (step.variant === 'unsolicited') {
        const unsolicited = new URL(issued);
        unsolicited.searchParams.set('state', randomBytes(32).toString('base64url'));
        url = unsolicited.href;
      }
    }
    await probe(run, step.variant, journey, session, url, code);
  },

  async inspect_consent(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const consent = new ConsentPage(session.page, run.env.config.markers);
    await consent.form.waitFor({ state: 'attached', timeout: 5000 }).catch(() => undefined);
    const view = await consent.read();
    journey.consent.push({ label: step.label, at: Date.now(), url: session.page.url(), ...view });
    await run.observe(session);
  },

  async enter(run, step) {
    const journey = run.journey(step.journey);
    const session = await run.session(step.journey);
    const consent = new ConsentPage(session.page, run.env.config.markers);
    // The page has loaded (every step waits for that): whether it shows the form is a question of now, not of waiting.
    if (step.if_form_shown && (await consent.form.count()) === 0) return;
    const shown = await consent.form.waitFor({ state: 'attached' }).then(() => true, () => false);
    if (!shown) throw new Error(`no entry form (${run.env.config.markers.entry_form}) on ${redactUrl(session.page.url())}`);
    const { boxes } = await consent.read();
    const found = { terms: boxes.some((box) => box.role === 'terms'), age: boxes.some((box) => box.role === 'age') };
    if (step.accept_terms && !found.terms) throw new Error('the consent form has no box to accept the terms');
    await consent.tick(boxes, { terms: step.accept_terms, age: step.confirm_age, marketing: step.marketing });
    if (step.bypass_validation) await consent.disableValidation();
    journey.submissions.push({ at: Date.now(), accept: step.accept_terms, age: step.confirm_age && found.age, bypass: step.bypass_validation, boxesFound: found });
    await session.clickAndWait(() => consent.submit.click());
    await run.observe(session);
  },

  async expect(run, step) {
    const session = await run.session(step.journey);
    const { markers } = run.env.config;
    const selector = `${markers.main}${step.page ? `[data-page="${step.page}"]` : ''}${step.state ? `[data-entry-state="${step.state}"]` : ''}`;
    const met = await session.page
      .locator(selector)
      .first()
      .waitFor({ state: 'attached', timeout: step.timeout_s * 1000 })
      .then(() => true, () => false);
    const seen = await run.observe(session);
    const shown = seen?.markers ?? {};
    run.facts.expectations.push({ scenario: run.scenario.id, journey: step.journey, environment: shown.environment === 'sandbox' ? 'sandbox' : 'production', page: step.page, state: step.state, met, shown, url: session.page.url() });
    if (!met) {
      const wanted = [step.page && `page "${step.page}"`, step.state && `state "${step.state}"`].filter(Boolean).join(', ');
      throw new Error(`expected ${wanted}; the page shows page "${shown.page ?? '?'}", state "${shown.entryState ?? '-'}"${shown.error ? `, error "${shown.error}"` : ''} (${redactUrl(session.page.url())})`);
    }
  },

  async fault(run, step) {
    const journey = run.journey(step.journey);
    const target = FAULT_TARGETS[step.on];
    await run.env.client.arm({
      ...target, status: step.status, error: step.error, retry_after: step.retry_after, drop: step.drop, times: step.times, match: { pack: journey.pack.code },
    });
    run.facts.faults.push({
      scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, on: step.on, at: Date.now(), status: step.status, error: step.error, retryAfter: step.retry_after, drop: step.drop,
    });
  },

  async edit_terms(run, step) {
    const journey = run.journey(step.journey);
    const country = run.facts.terms?.by_country[journey.country] ? journey.country : null;
    const set = JSON.parse(JSON.stringify(step.set).replaceAll('{run}', run.facts.runId)) as typeof step.set;
    await run.env.client.editTerms(country, set);
    run.facts.termsEdits.push({ scenario: run.scenario.id, journey: step.journey, at: Date.now(), country, set });
  },

  async settle_delivery(run, step) {
    const journey = run.journey(step.journey);
    await entryCall(run, journey);
    await run.env.client.settle(journey.pack.code, step.outcome);
  },

  async watch_polling(run, step) {
    const journey = run.journey(step.journey);
    const entry = await entryCall(run, journey);
    let until = entry.at + step.seconds * 1000;
    for (;;) {
      await sleep(400);
      const { now, data } = await run.env.client.observed(0, { pack: journey.pack.code });
      const polls = data.filter((call) => call.method === 'GET' && call.path === '/session' && call.at > entry.at);
      if (step.mode === 'schedule' && scheduleViolation(entry.at, polls)) until = Math.min(until, now);
      if (step.mode === 'stops') {
        const terminal = polls.find(isTerminalPoll);
        if (terminal) until = Math.min(until, terminal.at + step.quiet_seconds * 1000);
      }
      if (now >= until) break;
    }
    run.facts.polls.push({ scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, mode: step.mode, from: entry.at, until });
  },

  async probe_entry_endpoint(run, step) {
    const journey = run.journey(step.journey);
    const { config, facts } = run.env;
    const record = { scenario: run.scenario.id, journey: step.journey, pack: journey.pack.code, configured: Boolean(config.entry_endpoint), csrf: [] as Array<{ variant: 'missing' | 'forged'; at: number; status: number }>, burst: [] as number[] };
    facts.endpoint.push(record);
    if (!config.entry_endpoint) return;
    const session = await run.session(step.journey);
    const form = await new ConsentPage(session.page, config.markers).entryForm();
    if (!form) throw new Error(`no entry form on ${redactUrl(session.page.url())} to take the fields from`);
    const target = new URL(config.entry_endpoint.path, facts.origins.agency).href;
    Object.assign(record, { path: config.entry_endpoint.path });
    const post = async (fields: Array<[string, string]>) => (await session.context.request.post(target, { form: Object.fromEntries(fields), maxRedirects: 0, failOnStatusCode: false })).status();
    // A cross-site form: every box ticked, the page's hidden fields (its CSRF token) missing or forged.
    for (const variant of ['missing', 'forged'] as const) {
      const hidden = variant === 'missing' ? [] : form.hidden.map(([name]) => [name, randomBytes(24).toString('base64url')] as [string, string]);
      const at = Date.now();
      record.csrf.push({ variant, at, status: await post([...hidden, ...form.boxes]) });
    }
    // A burst with the real token and nothing accepted, so nothing can reach the service.
    for (let attempt = 0; attempt < config.entry_endpoint.max_attempts; attempt += 1) {
      const status = await post(form.hidden);
      record.burst.push(status);
      if (status === 429) break;
    }
  },

  async wait(_run, step) {
    await sleep(step.seconds * 1000);
  },

  async wait_retry_after(run, step) {
    const journey = run.journey(step.journey);
    const fault = run.facts.faults.filter((armed) => armed.scenario === run.scenario.id && armed.journey === step.journey && armed.status === 429).at(-1);
    const { now, data } = await run.env.client.observed(0, { pack: journey.pack.code });
    const limited = data.filter((call) => call.status === 429 && call.fault !== undefined).at(-1);
    if (!fault?.retryAfter || !limited) throw new Error(`no call of pack ${journey.pack.code} was answered with the armed 429`);
    await sleep(Math.max(0, limited.at + fault.retryAfter * 1000 + RETRY_AFTER_MARGIN_MS - now));
  },

  async clock(run, step) {
    await run.env.client.advanceClock(step.advance);
  },
};
