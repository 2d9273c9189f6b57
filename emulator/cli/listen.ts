/**
 * `emulator webhooks listen [--forward-to URL]`, like `stripe listen`: the running emulator's
 * events arrive at its built-in sink `listen` (which verifies each signature), and this command
 * prints each delivery as it arrives and forwards it, signed, to the URL.
 *
 * Forwarded deliveries are signed with a secret of the data folder's own (`listen-secret`), made
 * once and the same on every listen, so a receiver's configuration survives restarts and resets.
 * `t` stays the emulator's, from its virtual clock, as in the delivery the sink received.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { SinkDelivery } from '../control/sink.js';
import { signatureHeader } from '../domain/webhook-signing.js';
import { CliError } from '../cli-error.js';
import { type Instance, control, requireRunning } from './instance.js';
import { type DataPaths, dataPaths } from './paths.js';
import { say } from './print.js';

const SINK = 'listen';
const POLL_EVERY_MS = 250;
const FORWARD_TIMEOUT_MS = 10_000;
/** The headers a receiver reads, passed on as received; the signature is made anew. */
const FORWARDED = ['content-type', 'user-agent', 'x-service-event', 'x-service-delivery'];

export interface ListenOptions {
  data: string;
  forwardTo?: string;
  events?: string[];
  printBody?: boolean;
}

export async function listen(options: ListenOptions): Promise<void> {
  const paths = dataPaths(options.data);
  const instance = await requireRunning(paths);
  const target = options.forwardTo === undefined ? undefined : forwardUrl(options.forwardTo);
  const secret = listenSecret(paths);
  let after = await ensureSink(instance);
  const stopping = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stopping.abort());

  say(`[emulator] listening for ${options.events?.join(', ') ?? 'every event'}${target ? `; forwarding to ${target}` : ''}`);
  if (target) say(`  Forwarded deliveries are signed with ${secret} (kept in ${paths.listenSecret}, the same on every listen).`);
  say(`  The same deliveries in a browser: ${instance.base_url}/_emulator/sink/${SINK}. Ctrl-C to stop.`);

  while (!stopping.signal.aborted) {
    let arrived: SinkDelivery[];
    try {
      arrived = ((await control(instance, 'GET', `/sink/${SINK}/deliveries?after=${after}&limit=1000`)) as { data: SinkDelivery[] }).data;
    } catch (error) {
      // `emulator reset` empties the sinks: make ours again and start from its first delivery.
      if (!(await sinkExists(instance))) {
        after = await ensureSink(instance);
        say('[emulator] the emulator was reset; still listening');
        continue;
      }
      throw error;
    }
    for (const delivery of arrived) {
      after = delivery.id;
      if (options.events && !options.events.includes(delivery.event ?? '')) continue;
      await show(delivery, { target, secret, printBody: options.printBody === true });
    }
    await sleep(POLL_EVERY_MS, undefined, { signal: stopping.signal }).catch(() => undefined);
  }
  say('[emulator] stopped listening');
}

async function show(delivery: SinkDelivery, how: { target: string | undefined; secret: string; printBody: boolean }): Promise<void> {
  const verdict = delivery.verdict === 'valid' ? 'signature valid' : `signature ${delivery.verdict.replace('_', ' ')}: ${delivery.problem}`;
  say(`${delivery.received_at}  --> ${delivery.event ?? '(no event)'}  ${delivery.delivery ?? '(no delivery id)'}  ${verdict}`);
  if (how.printBody) say(delivery.body);
  if (!how.target) return;
  const t = /(?:^|,)\s*t=(\d+)/.exec(delivery.headers['x-service-signature'] ?? '')?.[1];
  if (delivery.verdict !== 'valid' || !t) return void say(`${delivery.received_at}  <-- not forwarded: the emulator did not sign it`);
  say(`${delivery.received_at}  <-- ${await forward(delivery, how.target, signatureHeader(how.secret, Number(t), delivery.body))}`);
}

async function forward(delivery: SinkDelivery, target: string, signature: string): Promise<string> {
  const headers = Object.fromEntries(FORWARDED.flatMap((name) => (delivery.headers[name] ? [[name, delivery.headers[name]]] : [])));
  try {
    const res = await fetch(target, {
      method: 'POST', headers: { ...headers, 'x-service-signature': signature }, body: delivery.body, redirect: 'manual', signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
    });
    await res.arrayBuffer();
    return `[${res.status}] POST ${target}`;
  } catch (error) {
    const cause = (error as Error & { cause?: { code?: string } }).cause;
    return `failed: POST ${target}: ${(error as Error).name === 'TimeoutError' ? `no answer within ${FORWARD_TIMEOUT_MS / 1000} s` : (cause?.code ?? (error as Error).message)}`;
  }
}

/** The `listen` sink, made when missing; returns the id to read after: its newest delivery's, so only new ones show. */
async function ensureSink(instance: Instance): Promise<number> {
  if (!(await sinkExists(instance))) await control(instance, 'POST', '/sinks', { name: SINK });
  const { data } = (await control(instance, 'GET', `/sink/${SINK}?limit=1`)) as { data: Array<{ id: number }> };
  return data[0]?.id ?? 0;
}

async function sinkExists(instance: Instance): Promise<boolean> {
  const { data } = (await control(instance, 'GET', '/sinks')) as { data: Array<{ name: string }> };
  return data.some((sink) => sink.name === SINK);
}

/** Made once per data folder, readable by its owner only. */
function listenSecret(paths: DataPaths): string {
  if (existsSync(paths.listenSecret)) return readFileSync(paths.listenSecret, 'utf8').trim();
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  writeFileSync(paths.listenSecret, `${secret}\n`, { mode: 0o600 });
  return secret;
}

function forwardUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // reported below
  }
  throw new CliError(`[emulator] --forward-to needs an http or https URL, such as http://localhost:3000/hooks; got "${text}"`);
}
