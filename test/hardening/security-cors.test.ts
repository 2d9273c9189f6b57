/**
 * No CORS on any endpoint of either API, answered or refused, and no preflight is ever granted:
 * every call must come from the agency's (or the brand's) server. The control plane is in the
 * table too: its guard relies on a cross-origin JSON POST needing a preflight the emulator never
 * answers, and `/_emulator/env` holds the keys.
 * @see spec §1 ("The interface sends no browser CORS headers")
 */
import { expect, test } from 'vitest';
import { BRAND } from '../reporting/reporting.js';
import { type TestWorld, productionSession, testWorld } from '../world.js';

const ORIGIN = 'https://agency.example';
type Credentials = 'experience' | 'session' | 'reporting' | 'none';

const EXPERIENCE = '/api/experience/v1';
const REPORTING = '/api/v1';
const SKU = `${REPORTING}/brands/${BRAND}/skus/1`;

const ENDPOINTS: Array<['GET' | 'POST', string, Credentials]> = [
  ['GET', `${EXPERIENCE}/campaign`, 'experience'],
  ['POST', `${EXPERIENCE}/sessions`, 'experience'],
  ['POST', `${EXPERIENCE}/session/entry`, 'session'],
  ['GET', `${EXPERIENCE}/session`, 'session'],
  ['GET', `${EXPERIENCE}/no-such-route`, 'experience'],
  ['GET', `${REPORTING}/brands`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/scans`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/scans/1`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/collectors`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/collectors/1`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/redemptions`, 'reporting'],
  ['GET', `${REPORTING}/brands/${BRAND}/skus`, 'reporting'],
  ['POST', `${REPORTING}/brands/${BRAND}/skus`, 'reporting'],
  ['POST', `${SKU}/batches`, 'reporting'],
  ['GET', `${SKU}/batches/1/download`, 'reporting'],
  ['GET', `${REPORTING}/no-such-route`, 'reporting'],
  ['GET', '/_emulator/env', 'none'],
];

/** Preflight only: answering these for real would change the world. */
const CONTROL_CHANGES = ['/_emulator/reset', '/_emulator/clock', '/_emulator/console/approve', '/_emulator/console/keys', '/_emulator/webhooks'];

let shared: Promise<{ t: TestWorld; session: string }> | undefined;
const world = () => (shared ??= (async () => {
  const t = testWorld();
  return { t, session: await productionSession(t) };
})());

const corsHeaders = (headers: Record<string, string>) => Object.keys(headers).filter((name) => name.startsWith('access-control-'));

function headersFor(credentials: Credentials, t: TestWorld, session: string): Record<string, string> {
  switch (credentials) {
    case 'experience':
      return { Authorization: `Bearer ${t.env.production_key}` };
    case 'session':
      return { Authorization: `Bearer ${t.env.production_key}`, 'X-Service-Session': session };
    case 'reporting':
      return { Authorization: `Bearer ${t.env.reporting_token}` };
    case 'none':
      return {};
  }
}

test.each(ENDPOINTS)('%s %s with an Origin, with and without credentials: no Access-Control-* header', async (method, path, credentials) => {
  const { t, session } = await world();
  for (const headers of [{ ...headersFor(credentials, t, session), Origin: ORIGIN }, { Origin: ORIGIN }]) {
    const call = method === 'GET' ? t.api.get(path) : t.api.post(path).send({});
    const res = await call.set(headers);
    expect(corsHeaders(res.headers), `${res.status} ${JSON.stringify(headers)}`).toEqual([]);
  }
});

test.each([...ENDPOINTS.map(([method, path]) => [method, path] as const), ...CONTROL_CHANGES.map((path) => ['POST', path] as const)])(
  'OPTIONS preflight for %s %s is not granted: no Access-Control-* header',
  async (method, path) => {
    const { t } = await world();
    const res = await t.api
      .options(path)
      .set({ Origin: ORIGIN, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'authorization, content-type, x-service-session' });
    expect(corsHeaders(res.headers), String(res.status)).toEqual([]);
  },
);
