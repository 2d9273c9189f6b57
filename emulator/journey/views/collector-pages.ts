/** The collector's own pages: the Rewards wallet and the Promotions list. */
import type { ShownEntry } from '../../use-cases/entry-shown.js';
import { type Html, html, safeLink } from '../../pages/html.js';
import { type PageContext, journeyPage } from './shell.js';

export interface Reward {
  promotionName: string;
  entry: ShownEntry;
  deliveryState: string;
}

const DELIVERY_TEXT: Record<string, string> = {
  delivered: 'Delivered',
  processing: 'Delivery processing',
  failed: 'Delivery delayed: the brand will retry',
};

/** @see spec §2.2 campaign.rewards_path: the durable prize wallet, agency entries included. */
export function rewardsPage(page: PageContext, rewards: Reward[]): Html {
  const cards = rewards.map(
    ({ promotionName, entry, deliveryState }, index) => html`<article aria-labelledby="reward-${index}"><h2 id="reward-${index}">${entry.prizeName}</h2>
      <p class="muted">${promotionName} · won on ${new Date(entry.createdAt).toISOString().slice(0, 10)}</p>
      <p>${DELIVERY_TEXT[deliveryState] ?? deliveryState}</p>
      ${entry.codes.length ? html`<p>Your code: ${entry.codes.map((code) => html`<code>${code}</code> `)}</p>` : ''}
      ${entry.redemptionUrl ? html`<p>${safeLink(entry.redemptionUrl, `Redeem your ${entry.prizeName ?? 'prize'}`)}</p>` : ''}
    </article>`,
  );
  return journeyPage(
    page,
    'Your rewards',
    rewards.length
      ? html`<p>Prizes you won, newest first, whether you entered on the service's page or on a brand's own website.</p>${cards}`
      : html`<section class="notice"><p>No prizes yet. Scan a participating pack to play.</p><p><a href="/promotions">See the promotions</a></p></section>`,
  );
}

export interface PromotionListing {
  name: string;
  brand: string;
  headline: string;
  dates: { start: string; end: string };
  /** Not started yet. */
  upcoming: boolean;
  /** The agency's campaign page, once its experience is approved and live. @see spec §1 rules */
  callback: string | null;
}

export function promotionsPage(page: PageContext, promotions: PromotionListing[]): Html {
  return journeyPage(
    page,
    'Promotions',
    html`${promotions.map(
      (promotion, index) => html`<article aria-labelledby="promotion-${index}"><h2 id="promotion-${index}">${promotion.name}</h2>
        <p class="muted">${promotion.brand} · ${promotion.dates.start.slice(0, 10)} to ${promotion.dates.end.slice(0, 10)}</p>
        <p>${promotion.headline}</p>
        ${promotion.upcoming ? html`<p>Starts on ${promotion.dates.start.slice(0, 10)}.</p>` : promotion.callback ? html`<p>${safeLink(promotion.callback, `Open the ${promotion.name} website`)}</p>` : html`<p>Scan a participating pack to play.</p>`}
      </article>`,
    )}`,
  );
}
