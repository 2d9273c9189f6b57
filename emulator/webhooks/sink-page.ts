/** The sinks' dashboard pages: every value escaped by `html`, no third-party resources. */
import { type Html, html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import type { Sink, SinkEvent } from '../store/sinks.js';

const NAV = [{ href: '/', label: 'Dashboard' }, { href: '/_emulator/sink', label: 'Webhook sinks' }];

export function sinksPage(sinks: Array<Sink & { received: number }>, baseUrl: string): Html {
  const body = sinks.length
    ? html`<div class="table"><table>
<thead><tr><th scope="col">Sink</th><th scope="col">Receives at</th><th scope="col">Answers</th><th scope="col">Received</th></tr></thead>
<tbody>${sinks.map((sink) => html`<tr><td><a href="/_emulator/sink/${sink.name}">${sink.name}</a></td><td><code>${baseUrl}/_emulator/sink/${sink.name}</code></td><td>${sink.respond_with}</td><td>${sink.received}</td></tr>`)}</tbody>
</table></div>`
    : html`<p>No sinks yet.</p>`;
  return layout({
    title: 'Webhook sinks',
    nav: NAV,
    body: html`<section>${body}</section>
<section><h2>Create a sink</h2>
<p>A sink gets its own webhook endpoint and signing secret, receives every event, verifies each signature and shows what arrived.</p>
<pre><code>curl -s -X POST ${baseUrl}/_emulator/sinks -H 'Content-Type: application/json' -d '{"name": "crm"}'</code></pre></section>`,
  });
}

export function sinkPage(sink: Sink, events: SinkEvent[], baseUrl: string): Html {
  const rows = events.map(
    (event) => html`<article>
<h2>${event.event ?? '(no X-Service-Event)'} <span class="muted">${new Date(event.received_at).toISOString()}</span></h2>
<p>${event.verified ? html`<strong>Signature verified</strong>` : html`<strong>Signature not verified:</strong> ${event.problem}`}
 · delivery <code>${event.delivery ?? '(none)'}</code></p>
<pre><code>${pretty(event.body)}</code></pre>
</article>`,
  );
  return layout({
    title: `Sink ${sink.name}`,
    nav: NAV,
    wide: true,
    body: html`<section class="notice"><p>Receives at <code>${baseUrl}/_emulator/sink/${sink.name}</code> and answers verified deliveries with ${sink.respond_with}.
 The same list as JSON: <code>curl -s -H 'Accept: application/json' ${baseUrl}/_emulator/sink/${sink.name}</code>. Reload for new events.</p></section>
${events.length ? rows : html`<p>Nothing received yet.</p>`}`,
  });
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
