import { describe, expect, it } from 'vitest';
import request from 'supertest';
import { defaultPromotionId, getPromotion, listPromotions } from '../../emulator/store/promotions.js';
import { testWorld } from '../world.js';
import { coverSandbox } from '../support/sandbox-coverage.js';
import { CALLBACK, csrfOf } from '../journey/support.js';

async function dashboard() {
  const t = testWorld();
  const browser = request.agent(t.app);
  const page = await browser.get('/');
  const submit = (path: string, fields: Record<string, string> = {}) => browser.post(path).type('form').send({ csrf: csrfOf(page.text), ...fields });
  return { t, browser, page, submit };
}

describe('dashboard', () => {
  it('shows status, masked keys, callback URLs, checklist, approval and the interaction log', async () => {
    const { t, page } = await dashboard();
    expect(page.status).toBe(200);
    for (const heading of ['Spring Instant Win', 'Agency keys', 'Callback URLs', 'Checklist: sandbox API coverage', 'Approval', 'Interaction log']) {
      expect(page.text).toContain(heading);
    }
    expect(page.text).toMatch(/pk_live_…/);
    expect(page.text).not.toContain(t.env.production_key);
    expect(page.text).toContain('the brand has not approved the agency experience');
    expect(page.text).toContain('<script src="/console/live-log.js"></script>');
  });

  it('shows a created key\'s secret once, on the answer to the form only', async () => {
    const { browser, submit } = await dashboard();
    const created = await submit('/console/keys', { environment: 'production' });
    expect(created.status).toBe(201);
    const secret = /<p class="secret">([^<]+)<\/p>/.exec(created.text)![1]!;
    expect(secret).toMatch(/^pk_live_/);
    expect(created.headers['cache-control']).toBe('no-store');
    expect((await browser.get('/')).text).not.toContain(secret);
  });

  it('rotates and revokes keys from the table', async () => {
    const { t, submit } = await dashboard();
    const rotated = await submit('/console/keys/2/rotate');
    expect(rotated.text).toContain('to replace #2');
    const revoked = await submit('/console/keys/2/revoke');
    expect(revoked.headers.location).toBe('/?done=revoked');
    expect((await t.experience('get', '/campaign', t.env.production_key)).body.error).toBe('key_revoked');
  });

  it('refuses a bad callback URL with its reason and keeps what was typed', async () => {
    const { submit } = await dashboard();
    const res = await submit('/console/callbacks', { production: 'http://agency.example/cb', preview: '' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('The production callback URL must use https');
    expect(res.text).toContain('value="http://agency.example/cb"');
  });

  it('lists the missing items when approval is refused, and approves once complete', async () => {
    const { t, browser, submit } = await dashboard();
    const refused = await submit('/console/approve');
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('won: create a sandbox session');
    expect(refused.text).toContain('production callback must be set first');

    expect((await submit('/console/callbacks', { production: CALLBACK })).headers.location).toBe('/?done=callbacks_cleared');
    await coverSandbox((path, body, session) => t.experience('post', path, t.env.sandbox_key, session).send(body));
    expect((await submit('/console/approve')).headers.location).toBe('/?done=approved');
    const page = await browser.get('/?done=approved');
    expect(page.text).toContain('The agency experience is approved.');
    expect(page.text).toContain(`Production scans go to the agency at <code>${CALLBACK}</code>`);
  });

  it('pauses and resumes routing', async () => {
    const { browser, submit } = await dashboard();
    expect((await submit('/console/pause')).headers.location).toBe('/?done=paused');
    expect((await browser.get('/')).text).toContain('the brand paused routing to the agency');
    expect((await submit('/console/resume')).headers.location).toBe('/?done=resumed');
  });

  it('refuses forms without the CSRF value', async () => {
    const { t } = await dashboard();
    const res = await request(t.app).post('/console/pause').type('form').send({});
    expect(res.status).toBe(403);
    expect({ routing_paused: Number(getPromotion(t.world.db, defaultPromotionId(t.world.db)).routing_paused) }).toEqual({ routing_paused: 0 });
  });

  it('refuses a caller off loopback before it reads the form: a form announced over 100 KB is 403, not 413, and changes nothing', async () => {
    const { t } = await dashboard();
    const res = await request(t.app).post('/console/pause').set({ Host: 'agency.example', 'Content-Length': '200000' }).type('form').send('a=b');
    expect(res.status).toBe(403);
    expect(res.text).toContain('The dashboard answers on loopback only.');
    expect(getPromotion(t.world.db, defaultPromotionId(t.world.db)).routing_paused).toBe(false);
  });

  it('shows text from its own table, never from the URL', async () => {
    const { browser } = await dashboard();
    const page = await browser.get('/?done=%3Cb%3Ehi');
    expect(page.text).not.toContain('<b>hi');
    expect(page.text).not.toContain('role="status"');
    // Names every object inherits are no outcome of the table's.
    for (const inherited of ['toString', 'constructor', '__proto__']) expect((await browser.get(`/?done=${inherited}`)).text).not.toContain('role="status"');
  });

  it('shows the experience calls in the interaction log, keys masked', async () => {
    const { t, browser } = await dashboard();
    await t.experience('post', '/sessions', t.env.sandbox_key).send({ scenario: 'lost' });
    const page = await browser.get('/');
    expect(page.text).toContain('POST /api/experience/v1/sessions');
    expect(page.text).toContain('{&quot;scenario&quot;:&quot;lost&quot;}');
    expect(page.text).not.toContain(t.env.sandbox_key);
  });

  it('lists every promotion and opens each on its own page, whose forms act on that promotion only', async () => {
    const { t, browser, page } = await dashboard();
    for (const slug of ['nordkakao-cafe-codes', 'krispa-behind-the-crunch', 'alpenmilch-summer-white', 'krispa-winter-crunch']) expect(page.text).toContain(`href="/?promotion=${slug}"`);
    expect(page.text).toMatch(/<a href="\/" aria-current="page">Spring Instant Win<\/a> \(default\)/);
    expect(page.text).toContain('starts 2027-07-01');
    expect(page.text).toContain('ended 2026-02-28');

    const codes = await browser.get('/?promotion=nordkakao-cafe-codes');
    expect(codes.status).toBe(200);
    expect(codes.text).toContain('<h2 id="status">Nordkakao Café Codes</h2>');
    expect(codes.text).toContain('code unlock');
    expect(codes.text).toContain('action="/console/keys?promotion=nordkakao-cafe-codes"');
    // Its scans go to the hosted page already (not approved): no Pause button; the form's route still acts on it.
    expect(codes.text).not.toContain('action="/console/pause');
    const paused = await browser.post('/console/pause?promotion=nordkakao-cafe-codes').type('form').send({ csrf: csrfOf(codes.text) });
    expect(paused.headers.location).toBe('/?promotion=nordkakao-cafe-codes&done=paused');
    const routing = listPromotions(t.world.db).map(({ slug, routing_paused }) => ({ slug, routing_paused: Number(routing_paused) }));
    expect(routing).toEqual([
      { slug: 'spring-instant-win', routing_paused: 0 }, { slug: 'nordkakao-cafe-codes', routing_paused: 1 }, { slug: 'krispa-behind-the-crunch', routing_paused: 0 },
      { slug: 'alpenmilch-summer-white', routing_paused: 0 }, { slug: 'krispa-winter-crunch', routing_paused: 0 },
    ]);
    expect((await browser.get('/?promotion=no-such-promotion')).status).toBe(404);
    expect((await browser.post('/console/pause?promotion=no-such-promotion').type('form').send({ csrf: csrfOf(codes.text) })).status).toBe(404);
  });
});

describe('dashboard panels (issue 15)', () => {
  it("shows the open promotion's own known-outcome packs, each with a scan link and an inline SVG QR code of its public URL", async () => {
    const { t, browser } = await dashboard();
    for (const [path, slug] of [['/', 'spring-instant-win'], ['/?promotion=nordkakao-cafe-codes', 'nordkakao-cafe-codes']] as const) {
      const page = (await browser.get(path)).text;
      const panel = page.slice(page.indexOf('<section aria-labelledby="packs">'), page.indexOf('</section>', page.indexOf('<section aria-labelledby="packs">')));
      const codes = [...panel.matchAll(/<a href="\/q\/([^"]+)">Scan <code class="pack-code">/g)].map((match) => decodeURIComponent(match[1]!));
      const promotion = t.env.promotions.find((candidate) => candidate.slug === slug)!;
      expect(codes.toSorted()).toEqual(promotion.known_outcome_packs.map((pack) => pack.code).toSorted());
      expect(codes.length).toBeGreaterThan(0);
      expect(panel.match(/<svg /g)).toHaveLength(codes.length);
      expect(panel).toContain(`aria-label="QR code of pack ${codes[0]}`);
      for (const code of [...promotion.tester_packs, ...promotion.preview_packs]) expect(panel).not.toContain(code);
      expect(panel).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)[^"<\s]*\.(js|png)/);
    }
  });

  it('groups the packs by outcome: one heading per outcome, each pack under the outcome it gives', async () => {
    const { t, browser } = await dashboard();
    const page = (await browser.get('/')).text;
    const panel = page.slice(page.indexOf('<section aria-labelledby="packs">'), page.indexOf('</section>', page.indexOf('<section aria-labelledby="packs">')));
    const groups = [...panel.matchAll(/<h3>([^<]+)<\/h3><ul class="packs">(.*?)<\/ul>/gs)].map(([, outcome, list]) => ({
      outcome: outcome!, codes: [...list!.matchAll(/href="\/q\/([^"]+)"/g)].map((match) => decodeURIComponent(match[1]!)),
    }));
    const known = t.env.known_outcome_packs;
    expect(new Set(known.map((pack) => pack.outcome)).size).toBeGreaterThan(1);
    expect(groups.length).toBe(new Set(groups.map((group) => group.outcome)).size);
    expect(groups.flatMap((group) => group.codes).toSorted()).toEqual(known.map((pack) => pack.code).toSorted());
    for (const group of groups) {
      for (const code of group.codes) expect(group.outcome.startsWith(known.find((pack) => pack.code === code)!.outcome)).toBe(true);
    }
  });

  it('keeps the interaction log to the last 10 calls, bodies folded, with a link to every call', async () => {
    const { t, browser } = await dashboard();
    for (let n = 0; n < 40; n++) await t.experience('post', '/sessions', t.env.sandbox_key).send({ scenario: n === 39 ? 'pending' : 'lost' });
    const page = (await browser.get('/')).text;
    const log = page.slice(page.indexOf('<tbody id="log"'), page.indexOf('</tbody>', page.indexOf('<tbody id="log"')));
    expect(log.match(/<tr>/g)).toHaveLength(10);
    expect(log.match(/<details><summary>Body<\/summary><code>/g)).toHaveLength(10);
    expect(log).toContain('{&quot;scenario&quot;:&quot;pending&quot;}');
    expect(page).toContain('href="/_emulator/interactions"');
    const script = await browser.get('/console/live-log.js');
    expect(script.text).toContain('body.firstElementChild.remove()');
  });

  it('links to the webhook sinks, the API reference and the clock', async () => {
    const { t, browser } = await dashboard();
    await t.api.post('/_emulator/sinks').send({ name: 'crm' }).expect(201);
    const page = (await browser.get('/')).text;
    for (const link of ['href="#packs"', 'href="#sinks"', 'href="#clock"', 'href="/_emulator/api-docs"', 'href="/_emulator/sink/crm"', 'href="/_emulator/clock"']) expect(page).toContain(link);
    expect(page).toContain('The virtual clock is frozen: it shows <time datetime="2026-11-21T10:00:00.000Z">');
  });

  it('offers "Pause routing" only while scans go to the agency, and counts the steps to go in words', async () => {
    const { t, browser, submit } = await dashboard();
    const first = (await browser.get('/')).text;
    expect(first).toContain('Production scans go to the service\'s hosted page');
    expect(first).not.toContain('Pause routing');
    expect(first).toContain('Incomplete: 12 steps to go.');
    expect(first).not.toContain('step(s)');

    await submit('/console/callbacks', { production: CALLBACK });
    const scenarios = ['won', 'lost', 'pending', 'failed', 'ineligible', 'already_entered'];
    for (const scenario of scenarios) {
      const session = (await t.experience('post', '/sessions').send({ scenario })).body.session_token as string;
      if (scenario !== 'already_entered') await t.experience('post', '/session/entry', t.env.sandbox_key, session).send({});
    }
    expect((await browser.get('/')).text).toContain('Incomplete: 1 step to go.');
    await coverSandbox((path, body, session) => t.experience('post', path, t.env.sandbox_key, session).send(body));
    await submit('/console/approve');
    expect((await browser.get('/')).text).toContain('Pause routing to the agency');
  });
});
