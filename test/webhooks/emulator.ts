/** Builders for webhook tests: a listening emulator (deliveries need a real socket) on a frozen clock. */
import { type IncomingHttpHeaders, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import request from 'supertest';
import { afterAll, beforeAll, vi } from 'vitest';
import type { Context } from '../../emulator/context.js';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { s256 } from '../../emulator/domain/pkce.js';
import { issueAuthCode } from '../../emulator/store/codes.js';
import { findCollectorByEmail } from '../../emulator/store/collectors.js';
import { defaultPromotionId, getPromotion } from '../../emulator/store/promotions.js';
import { insertScan } from '../../emulator/store/scans.js';
import { findUnitByCode, productionUnitsOfBrand } from '../../emulator/store/units.js';
import { DEFAULT_FIXTURE, FROZEN_AT, VERIFIER, consentFor } from '../world.js';

export async function runningEmulator(options: { data?: string } = {}) {
  const logLines: string[] = [];
  const logs = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  const running = await startServer({
    fixture: DEFAULT_FIXTURE, data: options.data ?? ':memory:', clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'debug' }, logs), host: '127.0.0.1', port: 0,
  });
  const api = request(running.baseUrl);
  const sinkEvents = async (name: string) => (await api.get(`/_emulator/sink/${name}`).set('Accept', 'application/json').expect(200)).body.data as SinkEvent[];
  return {
    running,
    world: running.world,
    api,
    logLines,
    createSink: async (body: Record<string, unknown>) => (await api.post('/_emulator/sinks').send(body).expect(201)).body as CreatedSink,
    sinkEvents,
    /** Waits until the sink holds `count` events, newest first. */
    received: (name: string, count: number) =>
      vi.waitFor(async () => {
        const events = await sinkEvents(name);
        if (events.length < count) throw new Error(`sink ${name} has ${events.length} of ${count} events`);
        return events;
      }, { timeout: 5000, interval: 20 }),
  };
}

export type RunningEmulator = Awaited<ReturnType<typeof runningEmulator>>;

/** One running emulator for the enclosing file or describe block, started before its tests and closed after them. */
export function useRunningEmulator(): () => RunningEmulator {
  let t: RunningEmulator | undefined;
  beforeAll(async () => {
    t = await runningEmulator();
  });
  afterAll(async () => {
    await t?.running.close();
  });
  return () => {
    if (!t) throw new Error('useRunningEmulator: the emulator is not started yet (use it inside a test or a later beforeAll)');
    return t;
  };
}

export interface CreatedSink {
  name: string;
  url: string;
  endpoint_id: number;
  respond_with: number;
  endpoint: { id: number; url: string; events: string[]; secret: string };
}

export interface SinkEvent {
  id: number;
  received_at: string;
  event: string;
  delivery: string;
  verified: boolean;
  problem: string | null;
  payload: { id: string; event: string; occurred_at: string; brand: { id: number; slug: string; name: string; prefix: string }; data: unknown };
}

/** What the journey does when a pack is scanned: a scan row, then the domain event. */
export function recordScan(world: Context, options: { code?: string; email?: string | null; tester?: boolean } = {}): number {
  // Without a code: the first production pack of the world, the default promotion's brand's.
  const unit = options.code ? findUnitByCode(world.db, options.code)! : productionUnitsOfBrand(world.db, getPromotion(world.db, defaultPromotionId(world.db)).brand_id)[0]!;
  const email = options.email === undefined ? 'anna.weber@example.test' : options.email;
  const collector = email === null ? undefined : findCollectorByEmail(world.db, email)!;
  const scanId = insertScan(world.db, {
    unitId: unit.id, brandId: unit.brand_id, collectorId: collector?.id ?? null, tester: options.tester ?? false,
    country: collector?.country ?? 'DE', city: collector?.city ?? 'Berlin', deviceType: 'mobile', scannedAt: world.clock.now(),
  });
  world.events.emit('scan.recorded', { scanId });
  return scanId;
}

/** A production entry through the experience API, as an agency backend makes it after the journey. */
export async function enterProduction(t: RunningEmulator): Promise<{ id: number; state: string }> {
  const env = envValues(t.world);
  const unit = findUnitByCode(t.world.db, env.packs.find((pack) => pack.outcome === 'won')!.code)!;
  const code = issueAuthCode(t.world.db, t.world.seed, {
    promotionId: env.promotion_id, collectorId: 1, unitId: unit.id, country: 'DE', codeChallenge: s256(VERIFIER), now: t.world.clock.now(),
  });
  const auth = { Authorization: `Bearer ${env.production_key}` };
  const session = await t.api.post('/api/experience/v1/sessions').set(auth).send({ authorization_code: code, code_verifier: VERIFIER }).expect(201);
  const entered = await t.api.post('/api/experience/v1/session/entry').set(auth).set('X-Service-Session', session.body.session_token).send(consentFor(session.body.terms)).expect(200);
  return entered.body.entry;
}

export interface Captured {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver written by hand, as a brand would: it keeps the raw requests and answers 200. */
export async function captureReceiver() {
  const requests: Captured[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({ method: req.method!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
