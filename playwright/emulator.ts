/**
 * One Playwright worker's emulator: started in the worker on a free port with a fresh data folder,
 * or attached to a running one. It talks to the control plane through the harness's client and
 * hands out packs through the harness's pack pool, so the fixtures and `harness verify` drive the
 * emulator the same way.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { defaultFixture } from '../emulator/cli/paths.js';
import { loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { type Running, startServer } from '../emulator/server.js';
import { EmulatorClient, type Env, type FaultSpec, type Pack, type PackKind, failureOf } from '../harness/emulator-client/client.js';
import { type PackOutcome, PackPool } from '../harness/emulator-client/packs.js';
import { coverSandbox, fetchPost } from './sandbox.js';

export type { Env, FaultSpec, Pack, PackOutcome };

/** A running agency: where the service sends collectors, and where its preview is. */
export interface AgencyUrls {
  callbackUrl: string;
  previewUrl?: string;
}

/** Starts your agency against this worker's emulator (its URL and keys in `env`); `close` stops it. */
export type StartAgency = (emulator: { url: string; env: Env }) => Promise<AgencyUrls & { close?(): Promise<void> }>;

export interface EmulatorOptions {
  /** Attach to this running emulator instead of starting one per worker. */
  url?: string;
  /** The control token of an attached emulator that runs off loopback. */
  controlToken?: string;
  /** The world a started emulator seeds (default: the built-in fixtures/default.json). */
  fixture?: string;
  seed?: string;
  /** The agency under test: its URLs when it already runs, or how to start one per worker. */
  agency?: AgencyUrls | StartAgency;
  /** Register the agency's URLs, make the six sandbox calls and approve, so scans reach the agency. */
  approve: boolean;
}

/** What a worker shares with its tests: the world's values, packs by outcome, and control of the clock and faults. */
export interface PromoEmulator {
  /** The emulator's origin, e.g. http://127.0.0.1:43117 */
  readonly url: string;
  /** A started emulator's data folder, with its `emulator.log`; removed when the worker ends. */
  readonly dataDir: string | undefined;
  /** Base URL, keys, reporting token, brand slug, promotion id. */
  readonly env: Env;
  /** The agency's URLs, when the fixtures know them. */
  readonly agency: AgencyUrls | undefined;
  /** The harness's control-plane client, for anything this object does not wrap. */
  readonly client: EmulatorClient;
  /** An unentered production pack whose seeded draw gives this outcome; never the same pack twice. */
  pack(outcome: PackOutcome): Promise<Pack>;
  readonly clock: {
    /** Moves the virtual clock: `30s`, `31m`, `2h`, `90d`. */
    advance(duration: string): Promise<void>;
    /** Stops it, now or at an ISO time. */
    freeze(at?: string): Promise<void>;
    /** Lets it run again from where it stands. */
    unfreeze(): Promise<void>;
    /** The virtual time now, ISO 8601. */
    now(): Promise<string>;
  };
  readonly faults: {
    /** The next matching experience calls answer with an error, or lose their connection. */
    arm(fault: FaultSpec): Promise<void>;
    clear(): Promise<void>;
  };
  /** Back to the fixture's world (and approved again): the whole emulator, so every worker attached to it. */
  reset(): Promise<void>;
}

export interface WorkerEmulator extends PromoEmulator {
  close(): Promise<void>;
}

/** Which worker of how many: an attached emulator's packs are shared out between the workers. */
export interface WorkerShare {
  index: number;
  of: number;
}

export async function workerEmulator(options: EmulatorOptions, share: WorkerShare): Promise<WorkerEmulator> {
  const started = options.url ? undefined : await startEmulator(options);
  let ownAgency: Awaited<ReturnType<StartAgency>> | undefined;
  try {
    const client = started ? new EmulatorClient(started.running.baseUrl) : new SharedClient(options.url!, options.controlToken, share);
    const url = client.origin;
    await client.health().catch(() => {
      throw new Error(`[promo-emulator] no emulator answers at ${url} (emulatorUrl, or PROMO_EMULATOR_URL): start it with \`npx emulator start\`, or leave emulatorUrl unset to start one per worker`);
    });
    const env = await client.env();
    ownAgency = typeof options.agency === 'function' ? await options.agency({ url, env }) : undefined;
    const agency = ownAgency ?? (options.agency as AgencyUrls | undefined);
    const approve = async () => {
      if (agency && options.approve) await approveAgency(client, env, agency);
    };
    await approve();
    const packs = new PackPool(client, env, `${env.promotion.slug} (${env.promotion.mechanic})`);
    await packs.load();
    const control = <T>(method: 'GET' | 'POST', path: string, body?: object) => controlCall<T>(client, options.controlToken, method, path, body);
    return {
      url,
      dataDir: started?.folder,
      env,
      agency: agency && { callbackUrl: agency.callbackUrl, previewUrl: agency.previewUrl },
      client,
      pack: (outcome) => packs.take([outcome]),
      clock: {
        advance: async (duration) => void (await client.advanceClock(duration)),
        freeze: async (at) => void (await control('POST', '/_emulator/clock', { freeze: at ?? true })),
        unfreeze: async () => void (await control('POST', '/_emulator/clock', { unfreeze: true })),
        now: async () => (await control<{ now: string }>('GET', '/_emulator/clock')).now,
      },
      faults: {
        arm: async (fault) => void (await client.arm(fault)),
        clear: async () => void (await client.clearFaults()),
      },
      async reset() {
        await control('POST', '/_emulator/reset', {});
        await approve();
        await packs.load();
      },
      async close() {
        await ownAgency?.close?.();
        await started?.close();
      },
    };
  } catch (error) {
    await ownAgency?.close?.();
    await started?.close();
    throw error;
  }
}

/** An emulator in this worker, on a free port, with a data folder of its own that goes when it stops. */
async function startEmulator(options: EmulatorOptions): Promise<{ running: Running; folder: string; close(): Promise<void> }> {
  const folder = mkdtempSync(join(tmpdir(), 'promo-emulator-'));
  try {
    const logger = createLogger('emulator', {}, pino.destination({ dest: join(folder, 'emulator.log'), sync: true }));
    const running = await startServer({ fixture: loadFixture(options.fixture ?? defaultFixture()), seed: options.seed, data: folder, host: '127.0.0.1', port: 0, logger });
    return {
      running,
      folder,
      async close() {
        await running.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}

/** As a brand that approved the agency earlier: its URLs registered, the sandbox covered, the integration approved. */
async function approveAgency(client: EmulatorClient, env: Env, agency: AgencyUrls): Promise<void> {
  await ensureReachable(agency.callbackUrl);
  const overview = await client.overview();
  const change = await client.setCallbacks({ production: agency.callbackUrl, ...(agency.previewUrl ? { preview: agency.previewUrl } : {}) });
  if (!change.changed && overview.experience.approved_at) return;
  if (!env.sandbox_key) throw new Error('[promo-emulator] the fixture has no sandbox key, so the integration cannot be approved: set `approve: false`');
  await coverSandbox(fetchPost(env.base_url, env.sandbox_key));
  const approved = await client.approve();
  if (!approved.ok) throw new Error(`[promo-emulator] the emulator refused to approve the agency: ${approved.message}`);
}

/** How long the agency's callback has to answer before the fixtures register it: a site just started by a worker on a busy CI machine may take seconds for its first page (10 s timed out under load). */
const REACH_WITHIN_MS = 30_000;

/**
 * Before anything is registered: a callback that does not answer (the site is not running, a wrong
 * port) is said so in one line, and the emulator keeps the URLs and approval it had. Any HTTP
 * answer will do: what the page shows is the tests' to judge.
 */
async function ensureReachable(callbackUrl: string): Promise<void> {
  try {
    const answer = await fetch(callbackUrl, { redirect: 'manual', signal: AbortSignal.timeout(REACH_WITHIN_MS) });
    await answer.body?.cancel();
  } catch (error) {
    throw new Error(`[promo-emulator] the agency's callback ${callbackUrl} is not reachable (${failureOf(error, REACH_WITHIN_MS)}): start your site, or correct the \`agency\` option; nothing was registered or approved`);
  }
}

/** The control calls the harness's client does not make: it never reads or freezes the clock, nor resets. */
async function controlCall<T>(client: EmulatorClient, controlToken: string | undefined, method: 'GET' | 'POST', path: string, body?: object): Promise<T> {
  const response = await fetch(client.origin + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(controlToken ? { authorization: `Bearer ${controlToken}` } : {}) },
    body: body && JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const answer = (await response.json()) as T & { message?: string; error?: string };
  if (!response.ok) throw new Error(`[promo-emulator] ${method} ${path} answered ${response.status}: ${answer.message ?? answer.error}`);
  return answer;
}

/**
 * The client of an emulator the workers share: each worker sees only its share of the packs (by a
 * hash of the code, which does not move as packs are entered), so no two workers take the same one.
 */
class SharedClient extends EmulatorClient {
  constructor(
    url: string,
    controlToken: string | undefined,
    private readonly share: WorkerShare,
  ) {
    super(url, controlToken);
  }

  override async packs(): Promise<{ data: Pack[]; outcomes: PackKind[] }> {
    const { data, outcomes } = await super.packs();
    return { outcomes, data: data.filter((pack) => createHash('sha256').update(pack.code).digest().readUInt32BE(0) % this.share.of === this.share.index) };
  }
}
