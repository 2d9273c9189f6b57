/**
 * The world back to its fixture (`POST /_emulator/reset`), announced first so that work in flight
 * for the old world stops (a seed, webhook attempts); the rate limits and what the control plane
 * held of the old world (state.ts) go with it. The clock stays where it is.
 */
import { announceReset } from '../../events.js';
import { resetWorld } from '../../store/reset.js';
import { type ControlContext, resetObservations } from './state.js';

export function resetToFixture(ctx: ControlContext): { status: 'reset' } {
  announceReset(ctx);
  resetWorld(ctx.db, ctx.fixture, ctx.seed, ctx.clock.now());
  ctx.resetLimits();
  resetObservations(ctx.controlState);
  ctx.logger.info('world reset to the fixture');
  return { status: 'reset' };
}
