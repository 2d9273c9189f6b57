/**
 * The draw: the service alone decides the outcome (spec §1). Each pack's draw number derives
 * from the seed, so a pack's outcome is known in advance and identical on every run; dates,
 * budget and stock are then honoured at entry time.
 */
import { type Delivery, type EntryState, initialDelivery } from './delivery.js';
import { deriveUnit } from './secrets.js';

export interface DrawPrize {
  id: number;
  odds: number;
  face_value: number;
  delivery: Delivery;
}

export function drawNumber(seed: string, promotionId: number, unitId: number): number {
  return deriveUnit(seed, `draw:${promotionId}:${unitId}`);
}

/** The prize whose odds band holds the draw number (prizes in their fixture order), if any. */
export function prizeForNumber<P extends DrawPrize>(number: number, prizes: P[]): P | undefined {
  let upper = 0;
  for (const prize of prizes) {
    upper += prize.odds;
    if (number < upper) return prize;
  }
  return undefined;
}

/** A drawn prize is awarded only while it has stock and the budget still covers its value. */
export function canAward(prize: DrawPrize, stock: number, budgetLeft: number): boolean {
  return stock > 0 && prize.face_value <= budgetLeft;
}

/** The state a pack's entry would start in if entered now with full stock and budget, and what a pending one settles as. */
export function expectedOutcome(number: number, prizes: DrawPrize[]): ExpectedOutcome {
  return outcomeOf(prizeForNumber(number, prizes));
}

export interface ExpectedOutcome {
  outcome: EntryState;
  settles_as?: 'won' | 'failed';
}

/** The outcome an entry starts in when it draws this prize (or none). */
export function outcomeOf(prize: Pick<DrawPrize, 'delivery'> | undefined): ExpectedOutcome {
  if (!prize) return { outcome: 'lost' };
  const start = initialDelivery(prize.delivery);
  return start.settlesAs ? { outcome: start.state, settles_as: start.settlesAs === 'delivered' ? 'won' : 'failed' } : { outcome: start.state };
}
