import { describe, expect, it } from 'vitest';
import { initialDelivery } from '../../emulator/domain/delivery.js';
import { canAward, drawNumber, expectedOutcome, prizeForNumber, type DrawPrize } from '../../emulator/domain/draw.js';

const prize = (id: number, odds: number, overrides: Partial<DrawPrize> = {}): DrawPrize => ({
  id, odds, face_value: 5, delivery: 'instant', ...overrides,
});

describe('draw', () => {
  it('maps a draw number onto the cumulative odds bands in prize order', () => {
    const prizes = [prize(1, 0.2), prize(2, 0.1)];
    expect(prizeForNumber(0.1, prizes)?.id).toBe(1);
    expect(prizeForNumber(0.25, prizes)?.id).toBe(2);
    expect(prizeForNumber(0.35, prizes)).toBeUndefined();
  });

  it('derives the same draw number for the same seed, promotion and pack, and another for another pack', () => {
    expect(drawNumber('s', 1, 7)).toBe(drawNumber('s', 1, 7));
    expect(drawNumber('s', 1, 7)).not.toBe(drawNumber('s', 1, 8));
    expect(drawNumber('s', 1, 7)).not.toBe(drawNumber('t', 1, 7));
  });

  it('does not award a prize without stock or beyond the budget', () => {
    expect(canAward(prize(1, 1), 0, 100)).toBe(false);
    expect(canAward(prize(1, 1, { face_value: 50 }), 10, 49)).toBe(false);
    expect(canAward(prize(1, 1, { face_value: 50 }), 10, 50)).toBe(true);
  });

  it('starts each delivery mode in the entry state of spec §3', () => {
    expect(initialDelivery('instant')).toEqual({ state: 'won', deliveryState: 'delivered' });
    expect(initialDelivery('failed')).toEqual({ state: 'failed', deliveryState: 'failed' });
    expect(initialDelivery('delayed')).toMatchObject({ state: 'pending', settlesAs: 'delivered' });
    expect(initialDelivery('delayed_failed')).toMatchObject({ state: 'pending', settlesAs: 'failed' });
    expect(expectedOutcome(0.99, [prize(1, 0.5)])).toEqual({ outcome: 'lost' });
    expect(expectedOutcome(0.1, [prize(1, 0.5, { delivery: 'delayed_failed' })])).toEqual({ outcome: 'pending', settles_as: 'failed' });
  });
});
