/**
 * Issue 14, defect 3, in real Chromium: cookies are not separated by port, so a page on another
 * localhost port (any dev server the developer runs) could plant `promo_csrf`, repeat the same
 * value in a form, and post it to the dashboard: the old double-submit token was tied to nothing.
 * Here such a page plants the cookie and posts revoke, approve, pause and create-key forms; each is
 * refused with 403 and nothing changes.
 * @see README "Security" (the control plane)
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { listAgencyKeys } from '../../emulator/store/keys.js';
import { defaultPromotionId, getPromotion } from '../../emulator/store/promotions.js';
import { CALLBACK } from '../journey/support.js';
import { useChromium } from '../support/chromium.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';

const browser = useChromium();
let emulator: Running;
let attacker: Server;
let attackerUrl: string;

/** A value of the shape the emulator itself puts in `promo_csrf`. */
const PLANTED = 'p'.repeat(43);

/** The attacker's page: plants the cookie for the whole host (all ports), then posts the form to the emulator. */
function attackPage(target: string, fields: Record<string, string>): string {
  const inputs = Object.entries({ csrf: PLANTED, ...fields }).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join('');
  return `<!doctype html><html><body><form id="f" method="post" action="${target}">${inputs}</form>
    <script>document.cookie = 'promo_csrf=${PLANTED}; path=/'; document.getElementById('f').submit();</script></body></html>`;
}

beforeAll(async () => {
  emulator = await startServer({
    fixture: { ...DEFAULT_FIXTURE, history: { scans: 0 } }, data: ':memory:', host: '127.0.0.1', port: 0,
    clock: { mode: 'frozen', frozenAt: FROZEN_AT }, logger: createLogger('emulator', { level: 'silent' }),
  });
  // Everything approval needs, so that a forged approve would succeed.
  const change = setCallbacks(emulator.world, { production: CALLBACK });
  if (isRefused(change)) throw new Error('callbacks refused');
  await coverSandbox(fetchPost(emulator.baseUrl, envValues(emulator.world).sandbox_key!));
  attacker = createServer((req, res) => {
    const url = new URL(req.url!, 'http://attacker');
    const target = `${emulator.baseUrl}${url.searchParams.get('path')}`;
    res.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(target, Object.fromEntries([...url.searchParams].filter(([name]) => name !== 'path'))));
  });
  await new Promise<void>((ready) => attacker.listen(0, '127.0.0.1', ready));
  attackerUrl = `http://127.0.0.1:${(attacker.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  attacker?.close();
  await emulator?.close();
});

function brandState() {
  const { db } = emulator.world;
  const { routing_paused, approved_at } = getPromotion(db, defaultPromotionId(db));
  return {
    keys: listAgencyKeys(db).map(({ id, revoked_at }) => ({ id, revoked_at })),
    promotion: { routing_paused: Number(routing_paused), approved_at },
  };
}

it('refuses revoke, approve, pause and create-key forms posted by a page on another localhost port that planted promo_csrf', async () => {
  const before = brandState();
  const attacks: Array<[string, Record<string, string>]> = [
    ['/console/keys/2/revoke', {}],
    ['/console/approve', {}],
    ['/console/pause', {}],
    ['/console/keys', { environment: 'production' }],
  ];
  for (const [path, fields] of attacks) {
    const context = await browser().newContext();
    try {
      const page = await context.newPage();
      const answer = page.waitForResponse((response) => response.url() === `${emulator.baseUrl}${path}` && response.request().method() === 'POST');
      await page.goto(`${attackerUrl}/?${new URLSearchParams({ path, ...fields })}`);
      const response = await answer;
      expect((await context.cookies(emulator.baseUrl)).find((cookie) => cookie.name === 'promo_csrf')?.value, `the cookie was planted for ${path}`).toBe(PLANTED);
      expect(response.status(), path).toBe(403);
      expect(brandState(), path).toEqual(before);
    } finally {
      await context.close();
    }
  }
});

it('still takes the dashboard\'s own forms in the same browser', async () => {
  const context = await browser().newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${emulator.baseUrl}/`);
    await page.getByRole('button', { name: 'Approve the agency experience' }).click();
    await expect.poll(() => brandState().promotion.approved_at).not.toBeNull();
    await page.getByRole('button', { name: 'Pause routing to the agency' }).click();
    await expect.poll(() => brandState().promotion.routing_paused).toBe(1);
    await page.getByRole('button', { name: 'Resume routing to the agency' }).click();
    await expect.poll(() => brandState().promotion.routing_paused).toBe(0);
  } finally {
    await context.close();
  }
});
