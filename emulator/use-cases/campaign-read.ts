/** GET /campaign: the campaign of the key's promotion. @see spec §2.2, §4.1 */
import type { Context } from '../context.js';
import type { AgencyKey } from '../store/keys.js';
import { type Campaign, loadCampaign } from '../store/promotions.js';

export function readCampaign(ctx: Context, key: AgencyKey): Campaign {
  return loadCampaign(ctx.db, key.promotion_id);
}
