/**
 * Issue 7's sustained mixed load: agencies on 100 keys, each connection running one agency's flow
 * over and over (GET /campaign, POST /sessions, POST /session/entry, GET /session), taking the next
 * key each time round. Sandbox keys open sessions with the scenarios whose entries succeed (won,
 * lost, pending, failed); production keys exchange a code the journey issued (PKCE) and enter with
 * consent. The same mix runs against an Express + SQLite baseline answering the emulator's own JSON,
 * and both servers' resident memory is sampled all along.
 */
import { readFileSync } from 'node:fs';
import { type Contender, type LoadRun, type Measurement, type SessionPool, loadRun } from './load.js';
import type { Answer, ChildServer, IssuedCode } from './servers.js';

const API = '/api/experience/v1';
const SCENARIOS = ['won', 'lost', 'pending', 'failed'] as const;
/** Each flow is these four calls; a production flow uses one code. */
const CALLS_PER_FLOW = 4;
const RSS_EVERY_MS = 250;

export interface AgencyKeySecret {
  environment: 'sandbox' | 'production';
  secret: string;
}

export interface MixedMeasurement extends Measurement {
  /** Resident memory of the server: before the measured run, its peak and its last reading during it. */
  rss: { beforeMb: number; peakMb: number; endMb: number };
  /** Flows started during the measured run. */
  flows: number;
}

interface Flow {
  key: string;
  exchange: string;
  entry: string;
  token?: string;
}

/**
 * Hands out flows round the keys; production flows take the next code. The baseline answers any
 * code, so it gets one code for all; the emulator needs a fresh one per flow.
 */
export class FlowPlan {
  private next = 0;
  flows = 0;

  constructor(
    private readonly keys: AgencyKeySecret[],
    readonly codes: SessionPool<IssuedCode>,
  ) {}

  take(): Flow {
    const key = this.keys[this.next++ % this.keys.length]!;
    this.flows++;
    if (key.environment === 'sandbox') return { key: key.secret, exchange: JSON.stringify({ scenario: SCENARIOS[this.flows % SCENARIOS.length] }), entry: '{}' };
    const code = this.codes.next();
    return { key: key.secret, exchange: code.exchange, entry: code.entry };
  }

  /** Codes a run of this many requests takes. */
  codesFor(requests: number): number {
    const production = this.keys.filter((key) => key.environment === 'production').length / this.keys.length;
    return Math.ceil((requests / CALLS_PER_FLOW) * production);
  }
}

/** The answers a baseline gives for the four calls: the emulator's own, for a sandbox `won` flow. */
export async function sampleMixedAnswers(url: string, sandboxKey: string): Promise<Answer[]> {
  const call = async (method: 'GET' | 'POST', path: string, headers: Record<string, string>, body?: string): Promise<Answer> => {
    const res = await fetch(url + API + path, { method, headers: { authorization: `Bearer ${sandboxKey}`, ...headers }, body: body ?? null });
    const text = await res.text();
    if (!res.ok) throw new Error(`[bench] the emulator answered ${method} ${path} with ${res.status}: ${text}`);
    return { method, path: API + path, status: res.status, json: JSON.parse(text) as unknown };
  };
  const json = { 'content-type': 'application/json' };
  const campaign = await call('GET', '/campaign', {});
  const created = await call('POST', '/sessions', json, '{"scenario":"won"}');
  const session = { 'x-service-session': (created.json as { session_token: string }).session_token };
  const entry = await call('POST', '/session/entry', { ...json, ...session }, '{}');
  const poll = await call('GET', '/session', session);
  return [campaign, created, entry, poll];
}

/**
 * The mix against one server, as a contender of load.ts; it samples the server's RSS while it runs.
 * `startMeasuring` (after the warm-up) sets where RSS and flows are counted from.
 */
export class MixedLoad implements Contender {
  readonly pid: number;
  private samples: number[] = [];
  private rssBeforeMb = 0;
  private flowsBefore = 0;

  constructor(
    private readonly server: ChildServer,
    readonly plan: FlowPlan,
    private readonly connections: number,
  ) {
    this.pid = server.pid;
  }

  async run(seconds: number): Promise<LoadRun> {
    const sampler = setInterval(() => this.samples.push(rssMb(this.pid)), RSS_EVERY_MS);
    try {
      return await run(this.server.url, this.plan, this.connections, seconds);
    } finally {
      clearInterval(sampler);
      this.samples.push(rssMb(this.pid));
    }
  }

  startMeasuring(): void {
    this.rssBeforeMb = rssMb(this.pid);
    this.flowsBefore = this.plan.flows;
    this.samples = [];
  }

  /** The measured turns' figures with RSS and flows since `startMeasuring`. */
  measurement(figures: Omit<Measurement, 'pool'>): MixedMeasurement {
    const { codes } = this.plan;
    return {
      ...figures,
      pool: { taken: codes.taken, size: codes.size, reused: codes.reused },
      rss: { beforeMb: this.rssBeforeMb, peakMb: Math.max(this.rssBeforeMb, ...this.samples), endMb: this.samples.at(-1) ?? this.rssBeforeMb },
      flows: this.plan.flows - this.flowsBefore,
    };
  }
}

function run(url: string, plan: FlowPlan, connections: number, seconds: number): Promise<LoadRun> {
  const json = { 'content-type': 'application/json' };
  const flowOf = (context: object) => context as Flow;
  return loadRun(url, connections, seconds, [
    {
      method: 'GET',
      path: `${API}/campaign`,
      setupRequest: (req, context) => {
        const flow = Object.assign(context, plan.take());
        return { ...req, headers: { authorization: `Bearer ${flow.key}` } };
      },
    },
    {
      method: 'POST',
      path: `${API}/sessions`,
      setupRequest: (req, context) => ({ ...req, headers: { authorization: `Bearer ${flowOf(context).key}`, ...json }, body: flowOf(context).exchange }),
      onResponse: (status, body, context) => {
        flowOf(context).token = status === 201 ? (JSON.parse(body) as { session_token: string }).session_token : 'none';
      },
    },
    {
      method: 'POST',
      path: `${API}/session/entry`,
      setupRequest: (req, context) => ({
        ...req, headers: { authorization: `Bearer ${flowOf(context).key}`, 'x-service-session': flowOf(context).token!, ...json }, body: flowOf(context).entry,
      }),
    },
    {
      method: 'GET',
      path: `${API}/session`,
      setupRequest: (req, context) => ({ ...req, headers: { authorization: `Bearer ${flowOf(context).key}`, 'x-service-session': flowOf(context).token! } }),
    },
  ]);
}

function rssMb(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) / 1024;
}
