/** A promotion's callback URLs, as the brand sets them. */
import type { Context } from '../../context.js';
import type { Details } from '../../errors.js';
import { recordApprovalEvent } from '../../store/approvals.js';
import { clearPromotionCoverage } from '../../store/coverage.js';
import { voidJourneys } from '../../store/journeys.js';
import { setApprovedAt, setCallbackUrls } from '../../store/promotions.js';
import { type CallbackCheck, type Refused, checkCallbackUrl, isRefused, refused } from '../../wire-contract.js';
import { promotionOf } from './promotion.js';

export interface CallbackChange {
  callbacks: { production: string; preview: string | null };
  changed: boolean;
  approvalCleared: boolean;
  warnings: string[];
}

/**
 * Changing either callback URL invalidates the approval and the checklist, and voids the journeys
 * under way, whose service_code would go to the old callback; a refusal names each URL's problems
 * (field → messages). @see spec §1 rules
 */
export function setCallbacks(ctx: Context, input: { production: string; preview?: string }, promotionId?: number): CallbackChange | Refused<Details> {
  const checks: Array<[string, CallbackCheck]> = [['production', checkCallbackUrl(input.production)]];
  if (input.preview !== undefined) checks.push(['preview', checkCallbackUrl(input.preview)]);
  const problems = Object.fromEntries(checks.flatMap(([name, check]) => (isRefused(check) ? [[name, [check.refused]]] : [])));
  if (Object.keys(problems).length > 0) return refused(problems);
  const valid = (name: string) => checks.find(([candidate]) => candidate === name)?.[1] as Exclude<CallbackCheck, Refused<string>> | undefined;

  const current = promotionOf(ctx, promotionId);
  const callbacks = { production: valid('production')!.url, preview: valid('preview')?.url ?? current.preview_callback };
  const changed = callbacks.production !== current.production_callback || callbacks.preview !== current.preview_callback;
  const approvalCleared = changed && current.approved_at !== null;
  if (changed) {
    const now = ctx.clock.now();
    ctx.db.transaction(() => {
      setCallbackUrls(ctx.db, current.id, callbacks);
      setApprovedAt(ctx.db, current.id, null);
      clearPromotionCoverage(ctx.db, current.id);
      voidJourneys(ctx.db, current.id, now);
      recordApprovalEvent(ctx.db, current.id, { action: 'cleared', reason: 'a callback URL changed: approval and checklist start over', at: now });
    })();
  }
  const warnings = checks.flatMap(([name, check]) =>
    !isRefused(check) && check.localDevelopment ? [`the ${name} callback uses plain http on loopback: accepted for local development only`] : [],
  );
  return { callbacks, changed, approvalCleared, warnings };
}
