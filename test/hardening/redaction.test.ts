/**
 * Issue 14, defect 2: the interaction log redacted only a top-level `authorization_code`,
 * `code_verifier` and `session_token`. A body carrying `state`, `service_code`, `service_request`,
 * a nested or array-wrapped verifier, an agency key or the reporting token was stored verbatim,
 * then shown by `/_emulator/interactions`, the console log and the dashboard. Now the whole body
 * is walked, with the names the log file redacts, and our own secrets are also found by their
 * shape wherever they sit: in any value, inside longer text, or as a field name.
 * @see spec §4.3 (callback page rules), §2.1, §2.3; secrets never reach logs, URLs or error messages
 */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../emulator/logger.js';
import { type TestWorld, VERIFIER, issueCodeFor, testWorld } from '../world.js';
import { assertProperty } from './support/fuzz.js';

const BASE64URL = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'];

/** Our secrets' shapes (emulator/domain/secrets.ts, domain/webhook-signing.ts), spelled out here. */
const shapedSecret = fc.oneof(
  fc.tuple(fc.constantFrom('pk_sandbox_', 'pk_live_', 'sess_', 'rt_', 'sc_', 'whsec_'), fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 32, maxLength: 32 })).map(([prefix, body]) => prefix + body),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 }).map((hex) => `pkd_${hex}`),
);

/** Field names the log file redacts too; the body's secrets under them may have any shape. */
const SECRET_NAMES = ['authorization_code', 'code_verifier', 'session_token', 'service_request', 'service_code', 'state', 'request_token', 'secret', 'key'];

/** Text with no secret in it: not starting a word with a secret's prefix. */
const plainText = fc.string({ maxLength: 20 }).filter((text) => !/(?:^|[^A-Za-z0-9])(?:pk_|pkd_|sess_|rt_|sc_|whsec_)/.test(text));
const plainName = plainText.filter((name) => !SECRET_NAMES.includes(name.toLowerCase()));
const plainValue: fc.Arbitrary<unknown> = fc.oneof(plainText, fc.integer(), fc.boolean(), fc.constant(null));

interface Planted {
  body: unknown;
  secrets: string[];
}

/** A JSON body with secrets planted anywhere: as a value, inside text, as a field name, under a secret's name, nested, in arrays. */
const plantedBody: fc.Arbitrary<Planted> = fc.letrec<{ node: Planted }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    plainValue.map((body) => ({ body, secrets: [] })),
    shapedSecret.map((secret) => ({ body: secret, secrets: [secret] })),
    fc.tuple(plainText, shapedSecret, plainText).map(([before, secret, after]) => ({ body: `${before} ${secret} ${after}`, secrets: [secret] })),
    fc.array(tie('node'), { maxLength: 4 }).map((items) => ({ body: items.map((item) => item.body), secrets: items.flatMap((item) => item.secrets) })),
    fc
      .array(
        fc.oneof(
          fc.tuple(plainName, tie('node')).map(([name, item]) => ({ name, ...item })),
          fc.tuple(shapedSecret, plainValue).map(([name, body]) => ({ name, body, secrets: [name] })),
          fc.tuple(fc.constantFrom(...SECRET_NAMES), fc.string({ minLength: 12, maxLength: 40 }).filter((text) => text.trim().length >= 12)).map(([name, value]) => ({ name, body: `${value}!`, secrets: [`${value}!`] })),
        ),
        { maxLength: 5 },
      )
      .map((fields) => ({ body: Object.fromEntries(fields.map((field) => [field.name, field.body])), secrets: fields.flatMap((field) => field.secrets) })),
  ),
})).node;

/**
 * The bodies the planted-secrets property sends. Each costs an experience call and the three reads
 * that show the log, some 30 ms on an idle machine (the dashboard most of it).
 */
const PLANTED_BODIES = 150;
/**
 * A bound on that work, not a measure of speed: a second a body covers a machine loaded 20-fold or
 * more (the suite on two shared cores) and the shrinking of a failure to its smallest body.
 */
const PLANTED_BOUND_MS = PLANTED_BODIES * 1000;

/** Everything that shows the interaction log: the control plane, the console's live log, the dashboard. */
async function shownLog(t: TestWorld): Promise<string> {
  const interactions = await t.api.get('/_emulator/interactions?limit=1000');
  const consoleLog = await t.api.get('/_emulator/console/log?limit=200');
  const dashboard = await t.api.get('/');
  expect([interactions.status, consoleLog.status, dashboard.status]).toEqual([200, 200, 200]);
  return [JSON.stringify(interactions.body), JSON.stringify(consoleLog.body), dashboard.text].join('\n');
}

describe('the interaction log redacts secrets anywhere in a body (issue 14, defect 2)', () => {
  it('redacts state, service_code, service_request, a nested and an array-wrapped verifier, an agency key and the reporting token', async () => {
    const t = testWorld();
    const code = issueCodeFor(t);
    const state = 'S'.repeat(43);
    const body = {
      authorization_code: code, code_verifier: VERIFIER, state, service_code: code, service_request: 'rt_abcdefghijklmnopqrstuvwxyz012345',
      nested: { code_verifier: `${VERIFIER}-nested` }, wrapped: [{ code_verifier: `${VERIFIER}-wrapped` }],
      copied_key: t.env.production_key, note: `token ${t.env.reporting_token} pasted`,
    };
    const res = await t.experience('post', '/sessions', t.env.production_key).send(body);
    expect(res.status).toBe(400);
    const shown = await shownLog(t);
    for (const secret of [code, VERIFIER, state, 'rt_abcdefghijklmnopqrstuvwxyz012345', `${VERIFIER}-nested`, `${VERIFIER}-wrapped`, t.env.production_key!, t.env.reporting_token]) {
      expect(shown, secret).not.toContain(secret);
    }
    const [recorded] = (await t.api.get('/_emulator/interactions')).body.data as Array<{ body: Record<string, unknown> }>;
    expect(recorded!.body).toEqual({
      authorization_code: '[redacted]', code_verifier: '[redacted]', state: '[redacted]', service_code: '[redacted]', service_request: '[redacted]',
      nested: { code_verifier: '[redacted]' }, wrapped: [{ code_verifier: '[redacted]' }], copied_key: '[redacted]', note: 'token [redacted] pasted',
    });
  });

  it('shows no planted secret for any generated body, on any experience route', async () => {
    const t = testWorld();
    const route = fc.constantFrom<['post' | 'get', string]>(['post', '/sessions'], ['post', '/session/entry'], ['get', '/campaign']);
    await assertProperty(
      fc.asyncProperty(plantedBody, route, async (planted, [method, path]) => {
        await t.experience(method, path).set('Content-Type', 'application/json').send(JSON.stringify(planted.body));
        const shown = await shownLog(t);
        for (const secret of planted.secrets) expect(shown, `${secret} in ${JSON.stringify(planted.body)}`).not.toContain(secret);
      }),
      PLANTED_BODIES,
    );
  }, PLANTED_BOUND_MS);

  it('records a body without secrets as it came', async () => {
    const t = testWorld();
    const clean: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, plainValue, fc.array(tie('node'), { maxLength: 4 }), fc.array(fc.tuple(plainName, tie('node')), { maxLength: 4 }).map((fields) => Object.fromEntries(fields))),
    })).node;
    await assertProperty(
      fc.asyncProperty(clean.filter((body) => body !== null), async (body) => {
        await t.experience('post', '/sessions').set('Content-Type', 'application/json').send(JSON.stringify(body));
        const rows = (await t.api.get('/_emulator/interactions?limit=1000')).body.data as Array<{ body: unknown }>;
        expect(rows.at(-1)!.body).toEqual(body);
      }),
      100,
    );
  });

  it('redacts by the same names as the log file', () => {
    const lines: string[] = [];
    const logger = createLogger('emulator', {}, new Writable({ write(chunk, _encoding, done) { lines.push(String(chunk)); done(); } }));
    const t = testWorld();
    for (const name of SECRET_NAMES) {
      const value = `value-of-${name}-0123456789`;
      logger.info({ body: { [name]: value } }, 'a body');
      expect(lines.join(''), name).not.toContain(value);
    }
    return Promise.all(SECRET_NAMES.map(async (name) => {
      const value = `value-of-${name}-0123456789`;
      await t.experience('post', '/sessions').send({ [name]: value });
      expect(await shownLog(t), name).not.toContain(value);
    }));
  });
});
