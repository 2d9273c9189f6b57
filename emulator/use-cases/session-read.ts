/** GET /session: the session with its entry as it stands now and its eligibility. A read never writes. @see spec §2.3, §4.1 */
import type { Context } from '../context.js';
import { loadCampaign } from '../store/promotions.js';
import type { Session } from '../store/sessions.js';
import { type SessionView, sessionViewNow } from './session-view.js';

export function readSession(ctx: Context, session: Session): SessionView {
  return sessionViewNow(ctx, session, loadCampaign(ctx.db, session.promotion_id));
}
