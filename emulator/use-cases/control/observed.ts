/**
 * The observed experience calls a tool reads (`GET /_emulator/observed`): reading them starts the
 * observing, and the calls recorded before their pack was known get it now.
 */
import type { Context } from '../../context.js';
import { unitOfAuthCode } from '../../store/codes.js';
import { packCodeOfUnit } from '../../store/units.js';
import type { ControlState, StoredCall } from './state.js';

/** The calls after `after`, of one pack if it is given, `limit` at most; and the last call's number, kept or not. */
export function observedCalls(ctx: Context, controlState: ControlState, { after, pack, limit }: { after: number; pack?: string; limit: number }): { last: number; calls: StoredCall[] } {
  controlState.observing = true;
  resolvePacks(ctx, controlState.calls);
  return { last: controlState.seq, calls: controlState.calls.filter((call) => call.seq > after && (!pack || call.pack === pack)).slice(0, limit) };
}

/** Looks up the pack of calls recorded before their pack was known. */
function resolvePacks(ctx: Context, calls: StoredCall[]): void {
  for (const call of calls) {
    if (call.unit === undefined) continue;
    const unit = call.unit ?? (call.code_sha256 ? unitOfAuthCode(ctx.db, call.code_sha256) : null);
    call.pack = unit === null ? null : packCodeOfUnit(ctx.db, unit);
    call.unit = undefined;
  }
}
