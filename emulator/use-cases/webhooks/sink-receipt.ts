/**
 * A delivery arriving at a built-in sink, received as a brand's receiver would: its signature
 * verified on the raw body with its endpoint's secret and the virtual clock, the delivery kept
 * (verified or not) with its headers and the status it is answered with, and that status chosen:
 * the sink's configured one when it verifies, `UNVERIFIED_STATUS` when not.
 */
import type { Context } from '../../context.js';
import { type Verification, endpointSecret, verifySignature } from '../../domain/webhook-signing.js';
import { type Sink, type SinkVerdict, recordSinkEvent } from '../../store/sinks.js';
import { findEndpoint } from '../../store/webhooks.js';
import { type Refused, isRefused, refused } from '../../wire-contract.js';

/** What a sink answers a delivery whose signature does not verify: the control plane's `invalid_signature` status. */
export const UNVERIFIED_STATUS = 400;

/** A delivery as it reached the sink: its raw body, the headers a receiver reads, and every header (credentials' values already redacted). */
export interface ArrivedDelivery {
  body: string;
  signature: string | undefined;
  event: string | null;
  delivery: string | null;
  headers: Record<string, string>;
}

/** Kept either way; the status to answer with, or why the signature was refused, in words. */
export function receiveAtSink(ctx: Context, sink: Sink, arrived: ArrivedDelivery): { status: number } | Refused<{ problem: string }> {
  const webhook = findEndpoint(ctx.db, sink.endpoint_id)!;
  const verification = verifySignature(arrived.signature, arrived.body, endpointSecret(ctx.seed, webhook.secret_serial), Math.floor(ctx.clock.now() / 1000));
  const failed = isRefused(verification) ? verification.refused : undefined;
  const status = failed ? UNVERIFIED_STATUS : sink.respond_with;
  recordSinkEvent(ctx.db, sink.id, {
    received_at: ctx.clock.now(), event: arrived.event, delivery: arrived.delivery, verified: failed ? 0 : 1, verdict: verdictOf(verification),
    problem: failed?.problem ?? null, headers: JSON.stringify(arrived.headers), body: arrived.body, answered: status,
  });
  return failed ? refused({ problem: failed.problem }) : { status };
}

function verdictOf(verification: Verification): SinkVerdict {
  if (!isRefused(verification)) return 'valid';
  return verification.refused.reason === 'too_old' ? 'too_old' : 'invalid';
}
