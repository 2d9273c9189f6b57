/**
 * One delivery attempt: sign at send time, POST the stored envelope, record the response. Only a
 * 2xx answer delivers; anything else retries on the virtual clock after 30 s, 2 min, 10 min,
 * 1 h and 6 h, then the delivery is failed (it can still be replayed).
 * @see public reference §4.1 (headers), §4.3 (retries)
 */
import type { Context } from '../context.js';
import { ownTransaction } from '../fast-path/turn-transaction.js';
import { type Delivery, type DeliveryState, recordAttempt } from '../store/webhooks.js';
import { resolvedLinkLocalProblem } from './link-local.js';
import { endpointSecret, signatureHeader } from '../domain/webhook-signing.js';

const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 3_600_000, 21_600_000];
const USER_AGENT = 'service-webhooks/1.0';
const TIMEOUT_MS = 10_000;
const RESPONSE_BYTES = 1024;

export async function attemptDelivery(ctx: Context, delivery: Delivery, stopping: AbortSignal): Promise<void> {
  const at = ctx.clock.now();
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Service-Event': delivery.type,
    'X-Service-Delivery': delivery.public_id,
    'X-Service-Signature': signatureHeader(endpointSecret(ctx.seed, delivery.secret_serial), Math.floor(at / 1000), delivery.body),
  };
  // A sink (a path, no host) is on the emulator's own control plane, which may ask for the token (control/guard.ts).
  if (delivery.url.startsWith('/') && ctx.config.controlToken) Object.assign(headers, { Authorization: `Bearer ${ctx.config.controlToken}` });
  const started = performance.now();
  let status: number | null = null;
  let response: string | null = null;
  let error: string | null = null;
  // A sink's path is the emulator's own: reached where it listens, whatever its public URL.
  const url = new URL(delivery.url, ctx.config.localUrl ?? ctx.config.baseUrl);
  const refusal = ctx.config.allowLinkLocalWebhooks ? undefined : await resolvedLinkLocalProblem(url);
  if (refusal) error = refusal;
  else {
    try {
      const res = await fetch(url, {
        method: 'POST', headers, body: delivery.body, redirect: 'manual', signal: AbortSignal.any([stopping, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      status = res.status;
      response = await responseStart(res);
    } catch (problem) {
      error = describe(problem);
    }
  }
  // Stopping mid-attempt records nothing: the delivery stays pending and goes out after a restart;
  // a reset mid-attempt deleted it.
  if (stopping.aborted || !ctx.db.open) return void ctx.logger.debug({ delivery: delivery.public_id }, 'webhook attempt dropped: the emulator is stopping, or was reset');
  const number = delivery.attempts + 1;
  const next = nextStep(status !== null && status >= 200 && status < 300, number, at);
  // An answer arrives in whatever turn it likes: its record must not join a request's open transaction.
  ownTransaction(ctx.db, () => recordAttempt(ctx.db, delivery.id, { number, at, status, error, response, duration_ms: Math.round(performance.now() - started) }, next));
  ctx.logger.info({ delivery: delivery.public_id, event: delivery.type, endpoint: delivery.endpoint_id, attempt: number, status, error, state: next.state }, 'webhook attempt');
}

function nextStep(ok: boolean, attempt: number, at: number): { state: DeliveryState; nextAttemptAt: number | null } {
  if (ok) return { state: 'delivered', nextAttemptAt: null };
  const delay = RETRY_DELAYS_MS[attempt - 1];
  return delay === undefined ? { state: 'failed', nextAttemptAt: null } : { state: 'pending', nextAttemptAt: at + delay };
}

/** The start of the response body, read no further. */
async function responseStart(res: Response): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    chunks.push(Buffer.from(chunk));
    size += chunk.length;
    if (size >= RESPONSE_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_BYTES).toString('utf8');
}

function describe(problem: unknown): string {
  const error = problem as Error & { cause?: { code?: string; message?: string } };
  if (error.name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  return error.cause?.code ?? error.cause?.message ?? error.message;
}
