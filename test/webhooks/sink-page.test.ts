import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { openDb } from '../../emulator/store/db.js';
import { MIGRATIONS } from '../../emulator/store/schema.js';
import { sinkEventsAfter } from '../../emulator/store/sinks.js';
import type { SinkDelivery } from '../../emulator/control/sink.js';
import { signatureHeader } from '../../emulator/domain/webhook-signing.js';
import { oldDatabase } from '../support/raw-storage.js';
import { type CreatedSink, type RunningEmulator, recordScan, runningEmulator } from './emulator.js';

let t: RunningEmulator;
const temp: string[] = [];
afterEach(async () => {
  await t?.running.close();
  for (const dir of temp.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const deliveries = async (name: string, after = 0) => (await t.api.get(`/_emulator/sink/${name}/deliveries?after=${after}`).expect(200)).body.data as SinkDelivery[];
const unixNow = () => Math.floor(t.world.clock.now() / 1000);

/** A POST to the sink signed as the emulator signs, with the sink's own secret and the given time. */
function postSigned(sink: CreatedSink, body: object, at: number) {
  const text = JSON.stringify(body);
  return t.api.post(`/_emulator/sink/${sink.name}`).set('Content-Type', 'application/json').set('X-Service-Event', 'scan.processed')
    .set('X-Service-Signature', signatureHeader(sink.endpoint.secret, at, text)).send(text);
}

test('each delivery is kept with the headers it arrived with; credentials in a stray header are not', async () => {
  t = await runningEmulator();
  await t.createSink({ name: 'crm' });
  recordScan(t.world);
  const [received] = await t.received('crm', 1);
  await t.api.post('/_emulator/sink/crm').set('Authorization', 'Bearer secret-of-someone').set('Cookie', 'session=abc').send({ stray: true }).expect(400);
  const [sent, stray] = await deliveries('crm');
  expect(sent!.headers).toMatchObject({
    'content-type': 'application/json', 'user-agent': 'service-webhooks/1.0', 'x-service-event': 'scan.processed',
    'x-service-delivery': received!.delivery, 'x-service-signature': expect.stringMatching(/^t=\d+,v1=[0-9a-f]{64}$/),
  });
  expect(JSON.parse(sent!.body)).toEqual(received!.payload);
  expect(stray!.headers).toMatchObject({ authorization: '[redacted]', cookie: '[redacted]' });
  expect(JSON.stringify(await deliveries('crm'))).not.toContain('secret-of-someone');
});

test('the verdict is valid within 300 seconds of the virtual clock either way, too old beyond, invalid for a wrong signature', async () => {
  t = await runningEmulator();
  const sink = await t.createSink({ name: 'crm' });
  await t.api.post('/_emulator/clock').send({ advance: '2h' }).expect(200);
  const now = unixNow();
  await postSigned(sink, { n: 1 }, now - 300).expect(200);
  await postSigned(sink, { n: 2 }, now + 300).expect(200);
  await postSigned(sink, { n: 3 }, now - 301).expect(400);
  await postSigned(sink, { n: 4 }, now - 2 * 3600).expect(400);
  await postSigned({ ...sink, endpoint: { ...sink.endpoint, secret: 'whsec_not-this-one' } }, { n: 5 }, now).expect(400);
  await t.api.post('/_emulator/sink/crm').send({ n: 6 }).expect(400);
  const verdicts = (await deliveries('crm')).map((delivery) => [JSON.parse(delivery.body).n, delivery.verdict]);
  expect(verdicts).toEqual([[1, 'valid'], [2, 'valid'], [3, 'too_old'], [4, 'too_old'], [5, 'invalid'], [6, 'invalid']]);
});

test('deliveries?after= is a cursor: what arrived after that id, oldest first; the HTML lists them newest first', async () => {
  t = await runningEmulator();
  const sink = await t.createSink({ name: 'crm' });
  for (const n of [1, 2, 3]) await postSigned(sink, { n }, unixNow()).expect(200);
  const [first, ...rest] = await deliveries('crm');
  expect(rest.map((delivery) => JSON.parse(delivery.body).n)).toEqual([2, 3]);
  expect((await deliveries('crm', first!.id)).map((delivery) => delivery.id)).toEqual(rest.map((delivery) => delivery.id));
  expect(await deliveries('crm', rest[1]!.id)).toEqual([]);
  const fragment = await t.api.get(`/_emulator/sink/crm/deliveries?after=${first!.id}`).set('Accept', 'text/html').expect(200).expect('Content-Security-Policy', /default-src 'none'/);
  expect([...fragment.text.matchAll(/data-id="(\d+)"/g)].map((match) => Number(match[1]))).toEqual([rest[1]!.id, rest[0]!.id]);
  await t.api.get('/_emulator/sink/crm/deliveries?after=-1').expect(400);
  await t.api.get('/_emulator/sink/nobody/deliveries').expect(404);
});

test('the sink page shows each delivery newest first with its headers, verdict and a Redeliver button, all escaped', async () => {
  t = await runningEmulator();
  const sink = await t.createSink({ name: 'crm' });
  recordScan(t.world);
  const [sent] = await t.received('crm', 1);
  await postSigned(sink, { note: '</pre><script>alert(1)</script>' }, unixNow() - 301).expect(400);
  await t.api.post('/_emulator/sink/crm').set('X-Service-Event', '<img src=x onerror=alert(1)>').send({}).expect(400);
  const page = await t.api.get('/_emulator/sink/crm').set('Accept', 'text/html').expect(200);
  const articles = page.text.split('<article').slice(1);
  expect(articles).toHaveLength(3);
  expect(articles[0]).toContain('Signature invalid');
  expect(articles[0]).toContain('&lt;img src=x');
  expect(articles[1]).toContain('Signature too old');
  expect(articles[1]).toContain('&lt;/pre&gt;&lt;script&gt;');
  expect(articles[2]).toContain('Signature valid');
  expect(articles[2]).toContain(`data-redeliver="${sent!.delivery}"`);
  expect(articles[2]).toMatch(/<td><code>x-service-signature<\/code><\/td><td><code>t=\d+,v1=[0-9a-f]{64}<\/code>/);
  expect(page.text).not.toContain('<script>alert(1)');
  expect(page.text).toContain('<script src="/_emulator/sink/live.js"></script>');
  const script = await t.api.get('/_emulator/sink/live.js').expect(200).expect('Content-Type', /javascript/);
  expect(script.text).toContain('/deliveries?after=');
});

const sinkPageHtml = (query = '') => t.api.get(`/_emulator/sink/crm${query}`).set('Accept', 'text/html');

test('each delivery on the sink page says the status the sink answered: its respond_with when verified, 400 when not', async () => {
  t = await runningEmulator();
  const sink = await t.createSink({ name: 'crm', respond_with: 500 });
  await postSigned(sink, { n: 1 }, unixNow()).expect(500);
  await t.api.post('/_emulator/sink/crm').send({ n: 2 }).expect(400);
  const [unsigned, failed] = (await sinkPageHtml().expect(200)).text.split('<article').slice(1);
  expect(failed).toContain('Signature valid');
  expect(failed).toContain('answered <strong class="sink-answer">500</strong>');
  expect(failed).toMatch(/^ class="warning"/);
  expect(unsigned).toContain('answered <strong class="sink-answer">400</strong>');
});

test('the sink page folds each body and shows it with its secrets redacted, live updates too; the JSON keeps it as received', async () => {
  t = await runningEmulator();
  await t.createSink({ name: 'crm' });
  const secretShaped = `sess_${'a1'.repeat(12)}`;
  const body = { note: 'kept', token: 'tok-visible-123', nested: { code_verifier: 'verifier-visible-456' }, text: `saw ${secretShaped} here` };
  await t.api.post('/_emulator/sink/crm').send(body).expect(400);
  await t.api.post('/_emulator/sink/crm').set('Content-Type', 'application/json').send(`not json ${secretShaped}`).expect(400);
  const page = (await sinkPageHtml().expect(200)).text;
  const live = (await t.api.get('/_emulator/sink/crm/deliveries?after=0').set('Accept', 'text/html').expect(200)).text;
  for (const shown of [page, live]) {
    const articles = shown.split('<article').slice(1);
    expect(articles).toHaveLength(2);
    for (const article of articles) expect(article).toMatch(/<details><summary>Body \(\d+ bytes\)<\/summary><div class="table"><pre><code>[^<]*\[redacted\]/);
    expect(shown).toContain('&quot;note&quot;: &quot;kept&quot;');
    for (const secret of ['tok-visible-123', 'verifier-visible-456', secretShaped]) expect(shown).not.toContain(secret);
  }
  expect((await deliveries('crm')).map((delivery) => delivery.body)).toEqual([JSON.stringify(body), `not json ${secretShaped}`]);
});

test('secrets under any name built from a secret word are hidden on the page: X-Auth, pass, auth, signature, otp, pin, and their kin', async () => {
  t = await runningEmulator();
  await t.createSink({ name: 'crm' });
  const body = {
    pass: 'v-pass-1', auth: 'v-auth-2', signature: 'v-signature-3', otp: 'v-otp-4', pin: 'v-pin-5',
    userPassword: 'v-camel-6', otp_code: 'v-otp-code-7', 'X-Sig': 'v-sig-8', nested: [{ pinCode: 'v-pin-code-9', AUTH_TOKEN_V2: 'v-upper-10' }],
    author: 'kept-author', spinner: 'kept-spinner', passenger: 'kept-passenger', keynote: 'kept-keynote', design: 'kept-design',
  };
  await t.api.post('/_emulator/sink/crm').set('X-Auth', 'v-header-auth-11').set('X-Pass', 'v-header-pass-12').set('X_Otp', 'v-header-otp-13').send(body).expect(400);
  const page = (await sinkPageHtml().expect(200)).text;
  const live = (await t.api.get('/_emulator/sink/crm/deliveries?after=0').set('Accept', 'text/html').expect(200)).text;
  for (const shown of [page, live]) {
    for (const value of [...JSON.stringify(body).matchAll(/v-[a-z-]+-\d+/g)].map(([value]) => value)) expect(shown).not.toContain(value);
    for (const header of ['v-header-auth-11', 'v-header-pass-12', 'v-header-otp-13']) expect(shown).not.toContain(header);
    for (const kept of ['kept-author', 'kept-spinner', 'kept-passenger', 'kept-keynote', 'kept-design']) expect(shown).toContain(kept);
  }
});

test('the sink page shows the newest 20 deliveries, then older ones a page at a time; a bad page number is a 400', async () => {
  t = await runningEmulator();
  const sink = await t.createSink({ name: 'crm' });
  for (let n = 1; n <= 25; n++) await postSigned(sink, { n }, unixNow()).expect(200);
  const ids = (await deliveries('crm')).map((delivery) => delivery.id).reverse();
  const shownIds = (text: string) => [...text.matchAll(/<article [^>]*data-id="(\d+)"/g)].map((match) => Number(match[1]));
  const newest = (await sinkPageHtml().expect(200)).text;
  expect(shownIds(newest)).toEqual(ids.slice(0, 20));
  expect(newest).toContain(`<a href="/_emulator/sink/crm?before=${ids[19]}">Older deliveries</a>`);
  expect(newest).toContain('<script src="/_emulator/sink/live.js"></script>');
  const older = (await sinkPageHtml(`?before=${ids[19]}`).expect(200)).text;
  expect(shownIds(older)).toEqual(ids.slice(20));
  expect(older).not.toContain('Older deliveries');
  expect(older).toContain('<a href="/_emulator/sink/crm">Newest deliveries</a>');
  expect(older).not.toContain('live.js');
  for (const bad of ['?before=abc', '?before=0', '?before=-3', '?before=1.0', '?before=1e1', '?before=%201', '?before=1&before=2', '?limit=1001', `?before=${ids[19]}&utm_source=x`]) {
    const refused = await sinkPageHtml(bad).expect(400);
    expect(refused.body).toMatchObject({ error: 'invalid_request' });
  }
});

test('sink events kept before headers were recorded get a verdict from what was stored', () => {
  const folder = mkdtempSync(join(tmpdir(), 'sink-migration-'));
  temp.push(folder);
  const path = join(folder, 'emulator.sqlite');
  const before = MIGRATIONS.indexOf(MIGRATIONS.find((migration) => migration.includes('ADD COLUMN headers'))!);
  oldDatabase(path, before, `INSERT INTO webhook_endpoints (id, url, events, secret_serial, created_at) VALUES (1, '/_emulator/sink/crm', '[]', 1, 0);
    INSERT INTO sinks (id, name, endpoint_id, created_at) VALUES (1, 'crm', 1, 0);
    INSERT INTO sink_events (sink_id, received_at, verified, problem, body) VALUES (1, 0, 1, NULL, '{}'), (1, 0, 0, 't is more than 300 seconds from now', '{}'), (1, 0, 0, 'no X-Service-Signature header', '{}');`);
  const db = openDb(path);
  expect(sinkEventsAfter(db, 1, 0, 10).map(({ verdict, headers, answered }) => ({ verdict, headers, answered }))).toEqual([
    { verdict: 'valid', headers: '{}', answered: null }, { verdict: 'too_old', headers: '{}', answered: null }, { verdict: 'invalid', headers: '{}', answered: null },
  ]);
  db.close();
});
