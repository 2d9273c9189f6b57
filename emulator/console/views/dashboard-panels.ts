/** The dashboard's panels about the world around a promotion: its packs (with QR codes), the webhook sinks and the clock. */
import { type ClockState, formatOffset } from '../../clock.js';
import type { KnownPack } from '../../store/known-packs.js';
import { type Html, html } from '../../pages/html.js';
import { qrSvg } from '../../pages/qr.js';

const outcomeText = (pack: KnownPack) => (pack.settles_as ? `${pack.outcome}, then ${pack.settles_as === 'won' ? 'delivered' : 'delivery fails'}` : pack.outcome);

/**
 * Every known-outcome pack of the promotion: a link to scan it here, and a QR code of the public
 * URL for a phone. Tester and preview packs are left out: they never reach the agency.
 */
export function packsPanel(packs: KnownPack[], publicBaseUrl: string): Html {
  return html`<section aria-labelledby="packs"><h2 id="packs">Packs</h2>
    <p>Known-outcome packs: production packs whose draw is known in advance. Each reaches the agency and enters once; tester and preview packs never reach it. Scan one here, or with a phone: the QR codes open <code>${publicBaseUrl}</code>, which a phone reaches only when it is the emulator's public URL (<code>--public-url</code>).</p>
    ${packs.length
      ? html`<div class="pack-groups">${byOutcome(packs).map(([outcome, group]) => html`<div><h3>${outcome}</h3><ul class="packs">${group.map((pack) => html`<li><a href="/q/${encodeURIComponent(pack.code)}">Scan <code class="pack-code">${pack.code}</code></a>${qrSvg(`${publicBaseUrl}/q/${encodeURIComponent(pack.code)}`, `QR code of pack ${pack.code} (${outcome})`)}</li>`)}</ul></div>`)}</div>`
      : html`<p>No unentered production packs are left in this promotion; <code>emulator reset</code> seeds them again.</p>`}
  </section>`;
}

/** Packs grouped by the outcome they give, in the order the outcomes first appear. */
function byOutcome(packs: KnownPack[]): Array<[string, KnownPack[]]> {
  const groups = new Map<string, KnownPack[]>();
  for (const pack of packs) groups.set(outcomeText(pack), [...(groups.get(outcomeText(pack)) ?? []), pack]);
  return [...groups];
}

export function sinksPanel(sinks: Array<{ name: string; received: number }>, localBaseUrl: string): Html {
  return html`<section aria-labelledby="sinks"><h2 id="sinks">Webhook sinks</h2>
    ${sinks.length
      ? html`<ul>${sinks.map((sink) => html`<li><a href="/_emulator/sink/${encodeURIComponent(sink.name)}">${sink.name}</a>: ${sink.received} ${sink.received === 1 ? 'delivery' : 'deliveries'} received</li>`)}</ul>`
      : html`<p>No sinks yet. Create one to watch the events live: <code>curl -s -X POST -H 'Content-Type: application/json' -d '{"name":"crm"}' ${localBaseUrl}/_emulator/sinks</code></p>`}
  </section>`;
}

export function clockPanel(clock: Required<ClockState> & { now: string }): Html {
  const state = clock.mode === 'frozen' ? 'frozen' : clock.mode === 'offset' ? `running ${formatOffset(clock.offsetMs)} from system time` : 'following system time';
  return html`<section aria-labelledby="clock"><h2 id="clock">Clock</h2>
    <p>The virtual clock is ${state}: it shows <time datetime="${clock.now}">${clock.now}</time>. Every expiry, delivery delay and webhook retry reads it.</p>
    <p class="muted">Move it with <code>emulator clock advance 31m</code>, <code>freeze</code>, <code>unfreeze</code>; <code>emulator clock reset</code> goes back to system time (<code>emulator reset</code> leaves it where it is). As JSON: <a href="/_emulator/clock">/_emulator/clock</a>.</p>
  </section>`;
}
