/**
 * The callback URL /rueckruf, its flow: the landing page, the journey's start with a fresh state
 * and PKCE, the return that must carry that state, and a failed exchange. @see spec §1 rules, §4.3
 */
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { SpaClient, bodyMarkers } from './spa-client.js';
import { type SpaWorld, callbackUrl, exchanges, scan, spaRule, spaWorld } from './world.js';

const STATE = /^[A-Za-z0-9_-]{32,128}$/;
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

function withState(url: string, state: string): string {
  const changed = new URL(url);
  changed.searchParams.set('state', state);
  return changed.href;
}

/** Opens a held callback URL with its state changed in each way, in the browser that started it; then as issued. */
async function tamperings(w: SpaWorld, change: Record<string, (state: string) => string>) {
  const browser = new SpaClient();
  const url = await callbackUrl(w, browser);
  const state = new URL(url).searchParams.get('state')!;
  const seen: Record<string, unknown> = {};
  for (const [name, alter] of Object.entries(change)) {
    const page = await browser.open(withState(url, alter(state)));
    seen[name] = page.status === 400 ? bodyMarkers(page).fehler : `HTTP ${page.status} at ${new URL(page.url).pathname}`;
  }
  return { seen, exchanges: exchanges(w).length };
}

describe('the landing page', () => {
  spaRule({
    defect: 'landing-needs-scan',
    title: 'is the callback URL without service_request: the shell, and the campaign for the script to show',
    observe: async (w) => {
      const browser = new SpaClient();
      const page = await browser.open(w.agency.callbackUrl);
      const campaign = await browser.api('GET', w.at('/api/kampagne'));
      return { status: page.status, markers: bodyMarkers(page), script: page.text.includes('<script type="module" src="/app.js"></script>'), campaign: campaign.data };
    },
    holds: {
      status: 200, markers: { ansicht: 'laden' }, script: true,
      campaign: { name: 'Spring Instant Win', aufruf: 'Scan a participating pack to play', preise: ['5 € voucher', 'Concert tickets for two', 'Alpine picnic set', 'Weekend in the Alps'] },
    },
    broken: { status: 400, markers: { ansicht: 'fehler', fehler: 'ungueltiger_link' } },
  });
});

describe('the start of a journey', () => {
  test('sends the browser to authorize with a fresh state and the S256 challenge of the verifier it exchanges later', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const url = await callbackUrl(w, browser);
    const begun = browser.hops.find((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?service_request=`))!;
    const query = Object.fromEntries(new URL(begun.headers.get('location')!).searchParams);
    expect([begun.status, Object.keys(query).sort()]).toEqual([303, ['code_challenge', 'code_challenge_method', 'request_token', 'state']]);
    expect(query).toMatchObject({ code_challenge_method: 'S256', state: expect.stringMatching(STATE) });
    expect((await browser.open(url)).url).toBe(w.at('/teilnahme'));
    const verifiers = exchanges(w).map((call) => call.body!.code_verifier as string);
    expect(verifiers).toEqual([expect.stringMatching(VERIFIER)]);
    expect(createHash('sha256').update(verifiers[0]!).digest('base64url')).toBe(query.code_challenge);
  });

  test('ignores a state the browser supplies', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const routed = await scan(w, browser);
    const serviceRequest = browser.hops.find((hop) => hop.url.startsWith(`${w.agency.callbackUrl}?service_request=`))!.url;
    const supplied = 'b'.repeat(43);
    const begun = await browser.request('GET', `${serviceRequest}&state=${supplied}`);
    const state = new URL(begun.headers.get('location')!).searchParams.get('state');
    expect([begun.status, state === supplied, state === new URL(routed.url).searchParams.get('state')]).toEqual([303, false, false]);
  });

  spaRule({
    defect: 'challenge-plain',
    title: 'sends code_challenge_method=S256, never the verifier',
    observe: async (w) => {
      const query = new URL((await scan(w, new SpaClient())).url).searchParams;
      return { method: query.get('code_challenge_method'), challenge: query.get('code_challenge') };
    },
    holds: { method: 'S256', challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    broken: { method: 'plain', challenge: expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) },
  });
});

describe('the return', () => {
  spaRule({
    defect: 'callback-answers-in-place',
    title: 'redirects at once to the clean URL /teilnahme after the exchange',
    observe: async (w) => {
      const browser = new SpaClient();
      const returned = await browser.request('GET', await callbackUrl(w, browser));
      return { status: returned.status, location: returned.headers.get('location'), exchanged: exchanges(w).map((call) => call.status) };
    },
    holds: { status: 303, location: '/teilnahme', exchanged: [201] },
    broken: { status: 200, location: null, exchanged: [201] },
  });

  spaRule({
    defect: 'state-prefix-compare',
    title: 'refuses a state that differs anywhere: last character, truncated, extended, empty',
    observe: (w) =>
      tamperings(w, {
        last: (state) => state.slice(0, -1) + (state.endsWith('A') ? 'B' : 'A'),
        truncated: (state) => state.slice(0, 20),
        extended: (state) => `${state}A`,
        empty: () => '',
      }),
    holds: { seen: { last: 'state_abweichung', truncated: 'state_abweichung', extended: 'state_abweichung', empty: 'ungueltiger_link' }, exchanges: 0 },
    broken: { seen: { last: 'state_abweichung', truncated: 'HTTP 200 at /teilnahme' }, exchanges: 1 },
  });

  spaRule({
    defect: 'state-case-folded',
    title: 'refuses a state whose letters changed case',
    observe: (w) => tamperings(w, { swapped: (state) => state.replace(/[a-z]/gi, (char) => (char === char.toLowerCase() ? char.toUpperCase() : char.toLowerCase())) }),
    holds: { seen: { swapped: 'state_abweichung' }, exchanges: 0 },
    broken: { seen: { swapped: 'HTTP 200 at /teilnahme' }, exchanges: 1 },
  });

  test('refuses an unsolicited callback (no journey in this browser), without calling the service', async () => {
    const w = await spaWorld();
    const page = await new SpaClient().open(`${w.agency.callbackUrl}?service_code=sc_nobody&state=${'u'.repeat(43)}`);
    expect([page.status, bodyMarkers(page), exchanges(w).length]).toEqual([400, { ansicht: 'fehler', fehler: 'unbekannter_ablauf' }, 0]);
  });

  spaRule({
    defect: 'transactions-global',
    title: 'refuses the callback in another browser, without the cookie that started the journey',
    observe: async (w) => {
      const url = await callbackUrl(w, new SpaClient());
      const page = await new SpaClient().open(url);
      return { status: page.status, fehler: bodyMarkers(page).fehler, exchanges: exchanges(w).length };
    },
    holds: { status: 400, fehler: 'unbekannter_ablauf', exchanges: 0 },
    broken: { status: 200, exchanges: 1 },
  });

  spaRule({
    defect: 'transaction-kept',
    title: 'consumes the transaction once: a replayed callback is refused',
    observe: async (w) => {
      const browser = new SpaClient();
      const url = await callbackUrl(w, browser);
      await browser.open(url);
      const again = await browser.open(url);
      return { status: again.status, fehler: bodyMarkers(again).fehler, exchanges: exchanges(w).length };
    },
    holds: { status: 400, fehler: 'unbekannter_ablauf', exchanges: 1 },
    broken: { exchanges: 2 },
  });

  test('refuses a journey that comes back after ten minutes, and a return that also carries service_request', async () => {
    const w = await spaWorld();
    const browser = new SpaClient();
    const url = await callbackUrl(w, browser);
    const mixed = await browser.open(`${url}&service_request=rt_again`);
    w.advanceAgency(10 * 60_000 + 1);
    const late = await browser.open(url);
    expect([bodyMarkers(mixed).fehler, bodyMarkers(late).fehler, exchanges(w).length]).toEqual(['ungueltiger_link', 'unbekannter_ablauf', 0]);
  });
});

describe('a failed exchange', () => {
  spaRule({
    defect: 'exchange-retried-once',
    title: 'is never retried: the page asks to scan the pack again',
    observe: async (w) => {
      const browser = new SpaClient();
      const url = await callbackUrl(w, browser);
      w.spy.fail('POST', '/sessions', 'drop', 2);
      const page = await browser.open(url);
      return { status: page.status, fehler: bodyMarkers(page).fehler, exchanges: exchanges(w).length, session: (await browser.api('GET', w.at('/api/zustand'))).data.ansicht };
    },
    holds: { status: 502, fehler: 'austausch_fehlgeschlagen', exchanges: 1, session: 'keine' },
    broken: { exchanges: 2 },
  });
});
