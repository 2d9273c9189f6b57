/** What the collector's own pages show: the Rewards wallet and the Promotions list. @see spec §1 rules, §2.2 campaign.rewards_path */
import type { Context } from '../../context.js';
import { availability } from '../../domain/admission.js';
import { deliveryAsOf } from '../../domain/delivery.js';
import type { Collector } from '../../store/collectors.js';
import { wonEntriesOf } from '../../store/entries.js';
import { getBrand, listPrizes, listPromotions } from '../../store/promotions.js';
import { type ShownEntry, shownEntry } from '../entry-shown.js';
import { promotionRoute } from './scan.js';

/** Every prize the collector won, as the wallet shows it. */
export function rewardsOf(ctx: Context, collector: Collector): Array<{ promotionName: string; entry: ShownEntry; deliveryState: string }> {
  const now = ctx.clock.now();
  return wonEntriesOf(ctx.db, collector.id).map(({ promotion_name, ...stored }) => {
    const entry = deliveryAsOf(stored, now);
    const prize = listPrizes(ctx.db, entry.promotion_id).find((candidate) => candidate.id === entry.prize_id);
    return { promotionName: promotion_name, entry: shownEntry(entry, prize), deliveryState: entry.delivery_state };
  });
}

/** Running and upcoming promotions; each live, approved agency experience links to its callback. */
export function promotionListings(ctx: Context) {
  const now = ctx.clock.now();
  return listPromotions(ctx.db).flatMap((promotion) => {
    const open = availability(promotion.content, false, now);
    if (!open.available && open.reason !== 'not_started') return [];
    const route = promotionRoute(ctx, promotion);
    const { content } = promotion;
    return [{
      name: content.name, brand: getBrand(ctx.db, promotion.brand_id).name, headline: content.copy.headline, dates: content.dates,
      upcoming: !open.available, callback: route.to === 'agency' ? route.callback : null,
    }];
  });
}
