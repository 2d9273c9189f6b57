/**
 * The sinks' dashboard pages: every value escaped by `html`, no third-party resources. A sink's
 * page lists its deliveries newest first, each with its headers, the signature's verdict and a
 * Redeliver button, and its one script (served by sink.ts) adds new deliveries as they arrive.
 */
import { type Html, html } from '../pages/html.js';
import { layout } from '../pages/layout.js';
import type { Sink, SinkEvent, SinkVerdict } from '../store/sinks.js';

const NAV = [{ href: '/', label: 'Dashboard' }, { href: '/_emulator/sink', label: 'Webhook sinks' }];

const VERDICTS: Record<SinkVerdict, { label: string; box: string }> = {
  valid: { label: 'Signature valid', box: 'success' },
  invalid: { label: 'Signature invalid', box: 'warning' },
  too_old: { label: 'Signature too old', box: 'warning' },
};

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
<pre><code>curl -s -X POST ${baseUrl}/_emulator/sinks -H 'Content-Type: application/json' -d '{"name": "crm"}'</code></pre>
<p>To have events forwarded, signed, to your own receiver instead: <code>npx emulator webhooks listen --forward-to http://localhost:3000/hooks</code>.</p></section>`,
  });
}

export function sinkPage(sink: Sink, events: SinkEvent[], baseUrl: string): Html {
  return layout({
    title: `Sink ${sink.name}`,
    nav: NAV,
    wide: true,
    script: '/_emulator/sink/live.js',
    body: html`<section class="notice"><p>Receives at <code>${baseUrl}/_emulator/sink/${sink.name}</code> and answers verified deliveries with ${sink.respond_with}.
 New deliveries appear at the top as they arrive. Signatures are checked on arrival against the emulator's clock, with 300 seconds of tolerance.
 As JSON: <code>curl -s ${baseUrl}/_emulator/sink/${sink.name}/deliveries</code>.</p></section>
<p class="muted" id="sink-status" role="status">${events.length ? '' : 'Nothing received yet.'}</p>
<div id="deliveries" data-sink="${sink.name}" data-after="${events[0]?.id ?? 0}">${deliveryArticles(events)}</div>`,
  });
}

/** Deliveries in the order given, as the page shows them; also the live list's fragments. */
export function deliveryArticles(events: SinkEvent[]): Html {
  return html`${events.map(deliveryArticle)}`;
}

function deliveryArticle(event: SinkEvent): Html {
  const verdict = VERDICTS[event.verdict];
  const headers = Object.entries(JSON.parse(event.headers) as Record<string, string>);
  return html`<article class="${verdict.box}" data-id="${event.id}">
<h2>${event.event ?? '(no X-Service-Event)'} <span class="muted">${new Date(event.received_at).toISOString()}</span></h2>
<p><strong>${verdict.label}</strong>${event.problem ? html`: ${event.problem}` : ''} · delivery <code>${event.delivery ?? '(none)'}</code></p>
${event.delivery?.startsWith('dlv_') ? html`<p><button type="button" class="secondary" data-redeliver="${event.delivery}">Redeliver</button> <span role="status"></span></p>` : ''}
<details><summary>Headers (${headers.length})</summary><div class="table"><table>
<thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
<tbody>${headers.map(([name, value]) => html`<tr><td><code>${name}</code></td><td><code>${value}</code></td></tr>`)}</tbody>
</table></div></details>
<div class="table"><pre><code>${pretty(event.body)}</code></pre></div>
</article>`;
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/**
 * Polls for deliveries after the newest shown and puts them on top; Redeliver asks the emulator
 * to send the event again as a new delivery (JSON, as the control plane requires).
 */
export const SINK_PAGE_SCRIPT = `(() => {
  const list = document.getElementById('deliveries');
  const status = document.getElementById('sink-status');
  if (!list) return;
  let after = Number(list.dataset.after || 0);
  const poll = async () => {
    try {
      const res = await fetch('/_emulator/sink/' + encodeURIComponent(list.dataset.sink) + '/deliveries?after=' + after, { headers: { accept: 'text/html' } });
      if (res.ok) {
        const fragment = (await res.text()).trim();
        if (fragment) {
          list.insertAdjacentHTML('afterbegin', fragment);
          after = Number(list.firstElementChild.dataset.id);
          status.textContent = 'New deliveries at the top.';
        }
      }
    } finally {
      setTimeout(poll, 1000);
    }
  };
  setTimeout(poll, 1000);
  list.addEventListener('click', async (event) => {
    const button = event.target.closest('button[data-redeliver]');
    if (!button) return;
    const said = button.nextElementSibling;
    button.disabled = true;
    try {
      const res = await fetch('/_emulator/deliveries/' + encodeURIComponent(button.dataset.redeliver) + '/replay', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{}' });
      const answer = await res.json();
      said.textContent = res.ok ? 'Sent again as ' + answer.id + '.' : (answer.message || 'The emulator answered ' + res.status + '.');
    } catch {
      said.textContent = 'The emulator did not answer.';
    } finally {
      button.disabled = false;
    }
  });
})();
`;
