/** The control plane's JSON of webhook endpoints, deliveries and sinks; URLs absolute on the emulator's base URL. */
import type { Sink, SinkEvent } from '../store/sinks.js';
import type { Endpoint } from '../store/webhooks.js';
import type { AddedEndpoint, DeliveryRecord } from '../use-cases/webhooks/endpoints.js';
import { endpointSecret } from '../domain/webhook-signing.js';

const iso = (at: number) => new Date(at).toISOString();

export function webhooksJson(baseUrl: string) {
  const absolute = (url: string) => new URL(url, baseUrl).href;
  const endpointJson = (endpoint: Endpoint) => ({
    id: endpoint.id, url: absolute(endpoint.url), events: endpoint.events, created_at: iso(endpoint.created_at),
  });
  const sinkJson = (sink: Sink) => ({
    name: sink.name, url: absolute(`/_emulator/sink/${sink.name}`), endpoint_id: sink.endpoint_id,
    respond_with: sink.respond_with, created_at: iso(sink.created_at),
  });
  return {
    endpointJson,
    /** The endpoint with its secret, in this answer only. */
    addedJson: ({ endpoint, secretSerial }: AddedEndpoint, seed: string) => ({ ...endpointJson(endpoint), secret: endpointSecret(seed, secretSerial) }),
    deliveryJson: ({ delivery, attempts }: DeliveryRecord) => ({
      id: delivery.public_id,
      event: delivery.type,
      event_id: delivery.event_public_id,
      endpoint_id: delivery.endpoint_id,
      url: absolute(delivery.url),
      state: delivery.state,
      next_attempt_at: delivery.next_attempt_at === null ? null : iso(delivery.next_attempt_at),
      replay_of: delivery.replay_of,
      created_at: iso(delivery.created_at),
      attempts: attempts.map((attempt) => ({ ...attempt, at: iso(attempt.at) })),
    }),
    sinkJson,
    sinkEventJson: (event: SinkEvent) => ({
      id: event.id, received_at: iso(event.received_at), event: event.event, delivery: event.delivery,
      verified: event.verified === 1, problem: event.problem, payload: parsedOrText(event.body),
    }),
  };
}

function parsedOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
}
