/** The collector's Rewards wallet and Promotions list, rows of the journey's pages. @see spec §1 rules, §2.2 campaign.rewards_path */
import { Router } from 'express';
import type { Context } from '../context.js';
import { endpointTable, noInput } from '../endpoints.js';
import { REWARDS_PATH } from '../use-cases/entry-shown.js';
import { promotionListings, rewardsOf } from '../use-cases/journey/collector-pages.js';
import { refused } from '../wire-contract.js';
import { pageContext, shownPage, signInRedirect } from './page-context.js';
import { promotionsPage, rewardsPage } from './views/collector-pages.js';

export function collectorRoutes(ctx: Context): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx });
  const page = pageContext.bind(undefined, ctx);

  endpoint({
    method: 'get', path: REWARDS_PATH, caller: page,
    input: noInput,
    run: (on, { collector }) => (collector ? rewardsOf(on, collector) : refused('signed_out')),
    refusal: () => signInRedirect(REWARDS_PATH),
    answer: (rewards, shown) => shownPage(shown, 200, rewardsPage(shown, rewards)),
  });
  endpoint({
    method: 'get', path: '/promotions', caller: page,
    input: noInput,
    run: promotionListings,
    answer: (listings, shown) => shownPage(shown, 200, promotionsPage(shown, listings)),
  });

  return router;
}
