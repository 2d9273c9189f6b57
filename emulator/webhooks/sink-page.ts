/**
 * The sinks' dashboard pages: every value escaped by `html`, no third-party resources. A sink's
 * page lists its deliveries newest first, a page at a time, each with the signature's verdict, the
 * status the sink answered, a Redeliver button, and its headers and body folded, with their secrets
 * redacted as the interaction log shows them. On the newest page its one script (served
 * by sink.ts) adds new deliveries as they arrive.
 */
import { redactSecrets } from '../domain/redaction.js';
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

/**
 * One page of deliveries, newest first: `older` says whether more were received before the last
 * one shown, `before` is the page's own `?before=` (absent on the newest page, the only live one).
 */
export function sinkPage(sink: Sink, events: SinkEvent[], baseUrl: string, { before, older }: { before?: number; older: boolean }): Html {
  const self = `/_emulator/sink/${encodeURIComponent(sink.name)}`;
  const pager = html`<nav class="pager" aria-label="Deliveries pages">${before === undefined ? '' : html`<a href="${self}">Newest deliveries</a> `}${older ? html`<a href="${self}?before=${events.at(-1)!.id}">Older deliveries</a>` : ''}</nav>`;
  return layout({
    title: `Sink ${sink.name}`,
    nav: NAV,
    wide: true,
    ...(before === undefined ? { script: '/_emulator/sink/live.js' } : {}),
    body: html`<section class="notice"><p>Receives at <code>${baseUrl}/_emulator/sink/${sink.name}</code> and answers verified deliveries with ${sink.respond_with}, unverified ones with 400.
 ${before === undefined ? 'New deliveries appear at the top as they arrive.' : 'Deliveries received earlier; new ones appear on the newest page.'} Signatures are checked on arrival against the emulator's clock, with 300 seconds of tolerance.
 Headers and bodies are shown with their secrets redacted; bodies as received: <code>curl -s ${baseUrl}/_emulator/sink/${sink.name}/deliveries</code>.</p></section>
<p class="muted" id="sink-status" role="status">${events.length ? '' : before === undefined ? 'Nothing received yet.' : 'Nothing older.'}</p>
<div id="deliveries" data-sink="${sink.name}" data-after="${events[0]?.id ?? 0}">${deliveryArticles(events)}</div>
${pager}`,
  });
}

const SIGNATURE_HEADER = 'x-service-signature';

/**
 * Headers with every secret's value redacted, but for the service's own signature: the sink
 * verifies it (and says so), a brand compares its own verification with it, and `emulator
 * webhooks listen` reads its time. It signs one delivery's body, and holds no secret.
 */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const kept = redactSecrets(headers) as Record<string, string>;
  if (headers[SIGNATURE_HEADER] !== undefined) kept[SIGNATURE_HEADER] = headers[SIGNATURE_HEADER];
  return kept;
}

/** Deliveries in the order given, as the page shows them; also the live list's fragments. */
export function deliveryArticles(events: SinkEvent[]): Html {
  return html`${events.map(deliveryArticle)}`;
}

function deliveryArticle(event: SinkEvent): Html {
  const verdict = VERDICTS[event.verdict];
  // Redacted as received (control/sink.ts) and again here: data folders of older versions kept more.
  const headers = Object.entries(redactedHeaders(JSON.parse(event.headers) as Record<string, string>));
  // A verified delivery the sink failed (respond_with 500) is no success either.
  const box = event.answered !== null && event.answered >= 300 ? 'warning' : verdict.box;
  return html`<article class="${box}" data-id="${event.id}">
<h2>${event.event ?? '(no X-Service-Event)'} <span class="muted">${new Date(event.received_at).toISOString()}</span></h2>
<p><strong>${verdict.label}</strong>${event.problem ? html`: ${event.problem}` : ''} · ${event.answered === null ? 'answer not recorded' : html`answered <strong class="sink-answer">${event.answered}</strong>`} · delivery <code>${event.delivery ?? '(none)'}</code></p>
${event.delivery?.startsWith('dlv_') ? html`<p><button type="button" class="secondary" data-redeliver="${event.delivery}">Redeliver</button> <span role="status"></span></p>` : ''}
<details><summary>Headers (${headers.length})</summary><div class="table"><table>
<thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead>
<tbody>${headers.map(([name, value]) => html`<tr><td><code>${name}</code></td><td><code>${value}</code></td></tr>`)}</tbody>
</table></div></details>
<details><summary>Body (${Buffer.byteLength(event.body)} bytes)</summary><div class="table"><pre><code>${shownBody(event.body)}</code></pre></div></details>
</article>`;
}

/** Pretty JSON, or the text as received, with every secret redacted. */
function shownBody(body: string): string {
  try {
    return JSON.stringify(redactSecrets(JSON.parse(body)), null, 2);
  } catch {
    return redactSecrets(body) as string;
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
