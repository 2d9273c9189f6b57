/**
 * What the two reference agencies' tests share: an emulator on a frozen clock, a recording spy in
 * front of it, the agency on its own movable clock writing its log to `logLines`, and (by default)
 * approved. The agencies themselves stay independent; each world passes its own starter and logger.
 */
import { Writable } from 'node:stream';
import type { DestinationStream, Logger } from 'pino';
import { expect, test } from 'vitest';
import { approve } from '../../emulator/use-cases/console/approval.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { type Limits, SPEC_LIMITS } from '../../emulator/domain/limits.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import type { Fixture } from '../../emulator/fixture.js';
import { createLogger } from '../../emulator/logger.js';
import { startServer } from '../../emulator/server.js';
import type { Keys } from '../../fixtures/agency-reference/config.js';
import { type ServiceSpy, startServiceSpy } from '../agency/service-spy.js';
import { DEFAULT_FIXTURE, FROZEN_AT } from '../world.js';
import { coverSandbox, fetchPost } from './sandbox-coverage.js';

export interface AgencyWorldOptions<Defect> {
  defects?: Defect[];
  fixture?: (fixture: Fixture) => Fixture;
  limits?: Partial<Limits>;
  /** The agency's clock: moved by the test (default), or the system's for a real browser's timers. */
  agencyClock?: 'manual' | 'real';
  /** Default true: callbacks set to the agency, sandbox covered, approved; scans route to the agency. */
  approved?: boolean;
}

/** The options both agencies' `start…Agency` take, as the tests fill them. */
export interface StartOptions<Defect> {
  port: number;
  emulatorUrl: string;
  defects: readonly Defect[];
  keys: Keys;
  logger: Logger;
  now: () => number;
}

export interface StartedAgency {
  url: string;
  callbackUrl: string;
  previewUrl: string;
  close(): Promise<void>;
}

export type Teardown = (teardown: () => Promise<void>) => void;

/** `onFinished` registers the teardown; concurrent tests pass their context's `onTestFinished`. */
export async function agencyWorldWith<Defect, Agency extends StartedAgency>(
  start: (options: StartOptions<Defect>) => Promise<Agency>,
  agencyLogger: (destination: DestinationStream) => Logger,
  options: AgencyWorldOptions<Defect>,
  onFinished: Teardown,
) {
  const fixture = options.fixture ? options.fixture(structuredClone(DEFAULT_FIXTURE)) : DEFAULT_FIXTURE;
  const emulator = await startServer({
    fixture, data: ':memory:', host: '127.0.0.1', port: 0, clock: { mode: 'frozen', frozenAt: FROZEN_AT },
    logger: createLogger('emulator', { level: 'silent' }), config: { limits: { ...SPEC_LIMITS, ...options.limits } },
  });
  const spy = await startServiceSpy(emulator.baseUrl);
  const env = envValues(emulator.world);
  const logLines: string[] = [];
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  const clock = { at: Date.now() };
  const agency = await start({
    port: 0, emulatorUrl: spy.url, defects: options.defects ?? [], keys: { sandbox: env.sandbox_key, production: env.production_key },
    logger: agencyLogger(sink), now: options.agencyClock === 'real' ? Date.now : () => clock.at,
  });
  onFinished(async () => {
    await agency.close();
    await spy.close();
    await emulator.close();
  });
  if (options.approved !== false) {
    const change = setCallbacks(emulator.world, { production: agency.callbackUrl, preview: agency.previewUrl });
    if (isRefused(change)) throw new Error(JSON.stringify(change.refused));
    await coverSandbox(fetchPost(emulator.baseUrl, env.sandbox_key!));
    const approval = approve(emulator.world);
    if (isRefused(approval)) throw new Error(`not approved: ${JSON.stringify(approval.refused)}`);
  }
  return {
    emulator, world: emulator.world, env, spy, agency, logLines,
    /** Moves the agency's clock only; `world.clock` is the emulator's. */
    advanceAgency: (ms: number) => void (clock.at += ms),
    /** Both clocks, as real time passing would. */
    advance: (ms: number) => {
      clock.at += ms;
      emulator.world.clock.advance(ms);
    },
  };
}

/** `rule` for the world `build` makes: a rule of the spec the agency keeps, and its defect switch breaks (the observation differs as stated). */
export function rulesOf<Defect, World, Options extends AgencyWorldOptions<Defect> = AgencyWorldOptions<Defect>>(build: (options: Options) => Promise<World>) {
  return function rule<T extends object>(spec: {
    defect: Defect;
    title: string;
    world?: Omit<Options, 'defects'>;
    observe: (w: World) => Promise<T>;
    holds: { [K in keyof T]?: unknown };
    broken: { [K in keyof T]?: unknown };
  }): void {
    test(spec.title, async () => {
      expect(await spec.observe(await build({ ...spec.world } as Options))).toMatchObject(spec.holds);
    });
    test(`--defect ${spec.defect} breaks it`, async () => {
      expect(await spec.observe(await build({ ...spec.world, defects: [spec.defect] } as Options))).toMatchObject(spec.broken);
    });
  };
}

/** The session tokens the emulator issued, as the spy saw them come back. */
export function issuedSessionTokens(w: { spy: ServiceSpy }): string[] {
  return w.spy.calls.flatMap((call) => (typeof call.response?.session_token === 'string' ? [call.response.session_token] : []));
}
