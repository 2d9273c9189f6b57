/** The collector's Rewards wallet and Promotions list. @see spec §1 rules, §2.2 campaign.rewards_path */
import { Router } from 'express';
import type { Context } from '../context.js';
import { availability } from '../domain/admission.js';
import { deliveryAsOf } from '../domain/delivery.js';
import { REWARDS_PATH } from '../experience/serialize.js';
import { sendPage } from '../pages/http.js';
import { getBrand, listPrizes, listPromotions } from '../store/promotions.js';
import { wonEntriesOf } from '../store/entries.js';
import { shownEntry } from '../use-cases/entry-shown.js';
import { pageContext, signInFirst } from './page-context.js';
import { promotionRoute } from '../use-cases/journey/scan.js';
import { promotionsPage, rewardsPage } from './views/collector-pages.js';

export function collectorRoutes(ctx: Context): Router {
  const router = Router();

  router.get(REWARDS_PATH, (req, res) => {
    const page = pageContext(ctx, req, res);
    if (!page.collector) return signInFirst(res, REWARDS_PATH);
    const now = ctx.clock.now();
    const rewards = wonEntriesOf(ctx.db, page.collector.id).map(({ promotion_name, ...stored }) => {
      const entry = deliveryAsOf(stored, now);
      const prize = listPrizes(ctx.db, entry.promotion_id).find((candidate) => candidate.id === entry.prize_id);
      return { promotionName: promotion_name, entry: shownEntry(entry, prize), deliveryState: entry.delivery_state };
    });
    sendPage(res, 200, rewardsPage(page, rewards));
  });

  /** Running and upcoming promotions; each live, approved agency experience links to its callback. @see spec §1 rules */
  router.get('/promotions', (req, res) => {
    const now = ctx.clock.now();
    const listings = listPromotions(ctx.db).flatMap((promotion) => {
      const open = availability(promotion.content, false, now);
      if (!open.available && open.reason !== 'not_started') return [];
      const route = promotionRoute(ctx, promotion);
      const { content } = promotion;
      return [{
        name: content.name, brand: getBrand(ctx.db, promotion.brand_id).name, headline: content.copy.headline, dates: content.dates,
        upcoming: !open.available, callback: route.to === 'agency' ? route.callback : null,
      }];
    });
    sendPage(res, 200, promotionsPage(pageContext(ctx, req, res), listings));
  });

  return router;
}
