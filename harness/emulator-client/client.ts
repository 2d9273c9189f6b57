/**
 * The harness's side of the emulator: the control plane (health, env, faults, observed calls,
 * secrets, packs, terms), the brand's console (callbacks, checklist, approval) and, to mint packs
 * when a world runs short, the reporting API. Every call has a timeout; a refused connection
 * becomes a HarnessError that says how to start the emulator. Off loopback (the emulator in
 * another container), the control token goes with every control call as the guard expects it:
 * `Authorization: Bearer <token>` (emulator/control/guard.ts).
 */
import type { Checklist, Env, FaultSpec, ObservedCall, Pack, PackKind, Promotion, Secrets, Terms } from '../../emulator/wire-contract.js';
import { HarnessError } from '../errors.js';

export type { Checklist, Env, FaultSpec, ObservedCall, Pack, PackKind, Promotion, Secrets, Terms, VerifierVerdict } from '../../emulator/wire-contract.js';

const TIMEOUT_MS = 10_000;

/** An earlier run as the emulator names it: `started_at` of a recovered one, `message` of one still under way. */
export interface EarlierRun {
  id: string;
  pid: number;
  host: string;
  started_at?: string;
  message?: string;
}

export type RunStart = { id: string; recovered: EarlierRun | null } | { active: EarlierRun };

export class EmulatorClient {
  readonly origin: string;
  /**
   * The promotion every console call, env, terms and packs read acts on (`?promotion=`); until it
   * is set, the emulator's default one. Faults, observed calls, settling and secrets need none:
   * they are matched by pack, and a pack enters exactly one promotion.
   */
  private promotion: number | undefined;

  constructor(
    url: string,
    private readonly controlToken?: string,
  ) {
    this.origin = new URL(url).origin;
  }

  /** From now on, act on this promotion. */
  usePromotion(id: number): void {
    this.promotion = id;
  }

  /** Every promotion; with a callback URL, those whose production or preview callback it is. */
  async promotions(callback?: string): Promise<Promotion[]> {
    return (await this.get<{ data: Promotion[] }>(`/_emulator/promotions${callback === undefined ? '' : `?${new URLSearchParams({ callback })}`}`)).data;
  }

  health(): Promise<{ status: string; base_url: string }> {
    return this.get('/_emulator/health');
  }

  env(): Promise<Env> {
    return this.get(this.scoped('/_emulator/env'));
  }

  /** Whether this emulator has the harness's control endpoints (an older build has not). */
  async hasFaults(): Promise<boolean> {
    const response = await this.fetch('/_emulator/faults');
    return response.ok;
  }

  setCallbacks(callbacks: { production: string; preview?: string }): Promise<{ changed: boolean; approvalCleared: boolean; warnings: string[] }> {
    return this.post(this.scoped('/_emulator/console/callbacks'), callbacks);
  }

  overview(): Promise<{
    promotion: { name: string; live: boolean };
    experience: { approved_at: string | null; routing_paused: boolean; routing: { to: 'agency' | 'hosted'; reasons?: string[] } };
  }> {
    return this.get(this.scoped('/_emulator/console'));
  }

  checklist(): Promise<Checklist> {
    return this.get(this.scoped('/_emulator/console/checklist'));
  }

  /** Approval, or what is still missing. */
  async approve(): Promise<{ ok: true } | { ok: false; message: string }> {
    const response = await this.fetch(this.scoped('/_emulator/console/approve'), { method: 'POST', body: '{}' });
    const body = (await response.json()) as { message?: string };
    return response.ok ? { ok: true } : { ok: false, message: body.message ?? `approval answered ${response.status}` };
  }

  /**
   * Opens this run on the promotion: the emulator keeps what the brand had (callback URLs,
   * checklist, approval) and puts it back at endRun, or when a later run finds this one gone
   * (emulator/use-cases/console/harness-runs.ts). `active`: another run holds the promotion.
   */
  async startRun(holder: { pid: number; host: string; replaces?: string }): Promise<RunStart> {
    const response = await this.fetch(this.scoped('/_emulator/console/harness-runs'), { method: 'POST', body: JSON.stringify(holder) });
    if (response.status === 409) {
      const { message, details } = (await response.json()) as { message: string; details: Record<string, [string]> };
      return { active: { id: details.id![0], pid: Number(details.pid![0]), host: details.host![0], message } };
    }
    if (!response.ok) throw await this.refused('POST', '/_emulator/console/harness-runs', response);
    return (await response.json()) as RunStart;
  }

  /** Keeps the run's lease; false once the emulator no longer knows it. */
  async renewRun(id: string): Promise<boolean> {
    const response = await this.fetch(`/_emulator/console/harness-runs/${encodeURIComponent(id)}/renew`, { method: 'POST', body: '{}' });
    await response.arrayBuffer();
    return response.ok;
  }

  /** Puts back what the run found; false when the emulator no longer knows the run (restarted, or a later run restored it). */
  async endRun(id: string): Promise<boolean> {
    const response = await this.fetch(`/_emulator/console/harness-runs/${encodeURIComponent(id)}/end`, { method: 'POST', body: '{}' });
    await response.arrayBuffer();
    return response.ok;
  }

  arm(fault: FaultSpec): Promise<{ id: number }> {
    return this.post('/_emulator/faults', { next: fault });
  }

  clearFaults(): Promise<{ cleared: number; terms_restored: string[] }> {
    return this.post('/_emulator/faults/clear', {});
  }

  terms(): Promise<{ countries: string[]; default: Terms; by_country: Record<string, Terms> }> {
    return this.get(this.scoped('/_emulator/terms'));
  }

  editTerms(country: string | null, terms: Partial<Terms>): Promise<{ terms: Terms }> {
    return this.post(this.scoped('/_emulator/terms'), { country, terms });
  }

  settle(pack: string, outcome: 'delivered' | 'failed'): Promise<unknown> {
    return this.post('/_emulator/deliveries/settle', { pack, outcome });
  }

  /** The calls observed after a sequence number; the first read also starts the emulator observing. */
  async observed(after: number, filter: { pack?: string; limit?: number } = {}): Promise<{ now: number; last: number; data: ObservedCall[] }> {
    const query = new URLSearchParams({ after: String(after), limit: String(filter.limit ?? 5000), ...(filter.pack ? { pack: filter.pack } : {}) });
    return this.get(`/_emulator/observed?${query}`);
  }

  /** The sequence number of the last call observed so far. */
  async lastObserved(): Promise<number> {
    return (await this.observed(Number.MAX_SAFE_INTEGER, { limit: 1 })).last;
  }

  advanceClock(advance: string): Promise<unknown> {
    return this.post('/_emulator/clock', { advance });
  }

  /** The promotion's unentered packs and the kinds of outcome its draw can give. */
  packs(): Promise<{ data: Pack[]; outcomes: PackKind[] }> {
    return this.get(this.scoped('/_emulator/packs'));
  }

  secrets(afterSession?: number): Promise<Secrets> {
    return this.get(`/_emulator/secrets${afterSession === undefined ? '' : `?after_session=${afterSession}`}`);
  }

  /** A batch of new packs for one of the promotion's SKUs, through the reporting API; resolves once generated. */
  async mintPacks(env: Env, quantity: number): Promise<void> {
    const headers = { authorization: `Bearer ${env.reporting_token}`, 'content-type': 'application/json' };
    const sku = env.promotions.find((promotion) => promotion.id === env.promotion_id)?.skus[0];
    if (!sku) throw new HarnessError(`the promotion ${env.promotion_id} has no SKU to add packs to: run \`npx emulator reset\``);
    const created = await this.fetch(`/api/v1/brands/${env.brand_slug}/skus/${sku.id}/batches`, { method: 'POST', headers, body: JSON.stringify({ quantity, purpose: 'harness packs' }) });
    if (!created.ok) throw new HarnessError(`could not add packs through the reporting API (${created.status}): run \`npx emulator reset\``);
    const batch = (await created.json()) as { id: number };
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const download = await this.fetch(`/api/v1/brands/${env.brand_slug}/skus/${sku.id}/batches/${batch.id}/download`, { headers });
      await download.arrayBuffer();
      if (download.ok) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  private scoped(path: string): string {
    return this.promotion === undefined ? path : `${path}?promotion=${this.promotion}`;
  }

  private async get<T>(path: string): Promise<T> {
    const response = await this.fetch(path);
    if (!response.ok) throw await this.refused('GET', path, response);
    return (await response.json()) as T;
  }

  private async post<T>(path: string, body: unknown): Promise<T> {
    const response = await this.fetch(path, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw await this.refused('POST', path, response);
    return (await response.json()) as T;
  }

  private async refused(method: string, path: string, response: Response): Promise<HarnessError> {
    if (response.status === 403 && path.startsWith('/_emulator/')) {
      await response.arrayBuffer();
      return new HarnessError(
        this.controlToken
          ? `the emulator at ${this.origin} refused the control token: pass the token it was started with (--control-token or HARNESS_CONTROL_TOKEN)`
          : `the emulator at ${this.origin} refused its control plane without a token: it answers without one only on loopback (127.0.0.1, localhost or [::1]) and only when not told it is reachable from elsewhere (--public-url, a --host that is not loopback); pass its control token (--control-token or HARNESS_CONTROL_TOKEN; \`npx emulator env\` exports it)`,
      );
    }
    return new HarnessError(`the emulator answered ${response.status} to ${method} ${path}: ${await reason(response)}`);
  }

  private async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const control: Record<string, string> = this.controlToken && path.startsWith('/_emulator/') ? { authorization: `Bearer ${this.controlToken}` } : {};
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await fetch(this.origin + path, {
          ...init,
          headers: { accept: 'application/json', ...(init.body ? { 'content-type': 'application/json' } : {}), ...control, ...(init.headers as Record<string, string> | undefined) },
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
      } catch (error) {
        const why = failureOf(error);
        // A kept-alive connection the emulator closed just as the request went out (a busy machine): a read is sent once more, on a new connection.
        if (why === 'ECONNRESET' && (init.method ?? 'GET') === 'GET' && attempt === 1) continue;
        throw new HarnessError(`the emulator at ${this.origin} is not reachable (${why}): start it with \`npx emulator start\` or pass --emulator URL`);
      }
    }
  }
}

/** Why a request got no answer, in a few words: the connection's error code, the timeout, or why fetch refused the URL ("bad port"). */
export function failureOf(error: unknown, timeoutMs = TIMEOUT_MS): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : (cause?.code ?? cause?.message ?? 'no connection');
}

async function reason(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: string; error?: string };
    return body.message ?? body.error ?? text.slice(0, 200);
  } catch {
    return text.slice(0, 200);
  }
}
