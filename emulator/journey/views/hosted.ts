/** The service's own hosted page: campaign, terms acceptance, and the entry's result. @see spec §2.4 to §2.6, §4.2 */
import type { Terms } from '../../fixture.js';
import type { ShownEntry } from '../../use-cases/entry-shown.js';
import { type Html, html, safeLink } from '../../pages/html.js';
import type { Brand, Promotion } from '../../store/promotions.js';
import { type PageContext, journeyPage } from './shell.js';


export type HostedView =
  | { kind: 'open'; terms: Terms; problem?: string }
  | { kind: 'entered'; entry: ShownEntry }
  | { kind: 'refused'; message: string };

export interface HostedPage {
  promotion: Promotion;
  brand: Brand;
  packCode: string;
  /** Why the collector is on the hosted page, shown as an emulator note. */
  reasons: string[];
  view: HostedView;
}

export function hostedPage(page: PageContext, hosted: HostedPage): Html {
  const { content } = hosted.promotion;
  return journeyPage(
    page,
    content.name,
    html`<p class="muted">${hosted.brand.name} · pack <code>${hosted.packCode}</code></p>
    ${hosted.reasons.length ? html`<p class="muted">Emulator note: you are on the service's hosted page because ${hosted.reasons.join('; ')}.</p>` : ''}
    <section aria-labelledby="campaign"><h2 id="campaign">${content.copy.headline}</h2><p>${content.copy.body}</p>
      <h3>Prizes</h3><ul>${content.prizes.map((prize) => html`<li>${prize.name}</li>`)}</ul></section>
    ${body(page, hosted)}`,
  );
}

function body(page: PageContext, hosted: HostedPage): Html {
  const { view } = hosted;
  if (view.kind === 'refused') return html`<section class="notice" aria-labelledby="result"><h2 id="result">No entry possible</h2><p>${view.message}</p>${rewardsLink}</section>`;
  if (view.kind === 'entered') return result(view.entry);
  const { terms } = view;
  return html`<section aria-labelledby="terms"><h2 id="terms">Terms</h2>
    ${view.problem ? html`<p class="warning" role="alert" id="consent-problem">${view.problem}</p>` : ''}
    <p>${terms.text}</p>
    <ul>${[{ label: 'Full terms', url: terms.url }, ...terms.links].map((link) => html`<li>${safeLink(link.url, link.label)}</li>`)}</ul>
    <form method="post" action="/play/${encodeURIComponent(hosted.packCode)}">${page.form.field()}
      <input type="hidden" name="terms_version" value="${terms.version}">
      <label class="check"><input type="checkbox" name="accepted" value="yes"${terms.required ? html` required` : ''}> I accept the terms.</label>
      ${terms.minimum_age !== undefined ? html`<label class="check"><input type="checkbox" name="age_confirmed" value="yes" required> I am at least ${terms.minimum_age} years old.</label>` : ''}
      <button type="submit">Enter</button>
    </form></section>`;
}

const rewardsLink = html`<p><a href="/rewards">Go to your Rewards</a></p>`;

function result(entry: ShownEntry): Html {
  const prize = entry.prizeName ?? 'a prize';
  const headline: Record<ShownEntry['state'], Html> = {
    won: html`<p>You won <strong>${prize}</strong>.</p>`,
    lost: html`<p>Not a winner this time. Thank you for taking part.</p>`,
    pending: html`<p>You won <strong>${prize}</strong>. Delivery is processing; your Rewards page shows it when it arrives.</p>`,
    failed: html`<p>You won <strong>${prize}</strong>. Delivery is delayed; the brand will deliver it. Nothing is drawn again.</p>`,
  };
  return html`<section class="${entry.state === 'lost' ? 'notice' : 'success'}" aria-labelledby="result"><h2 id="result">Your result</h2>
    ${headline[entry.state]}
    ${entry.codes.length ? html`<p>Your code: ${entry.codes.map((code) => html`<code>${code}</code> `)}</p>` : ''}
    ${entry.redemptionUrl ? html`<p>${safeLink(entry.redemptionUrl, 'Redeem your prize')}</p>` : ''}
    ${rewardsLink}</section>`;
}
