/**
 * The three promotion types (spec §1) differ only in what an admitted entry gets; the admission
 * rule, entry states and delivery are the same for all. decisions 007, 008 and 009.
 * - instant win: the pack's seeded draw number picks a prize by its odds; a win delivers the pack's own prize code;
 * - code unlock: every admitted entry gets one of its prizes (their odds add up to 1) and the next code of the promotion's finite pool;
 * - content: every admitted entry gets one of its prizes (odds adding up to 1), a piece of content unlocked at its `redemption_url`, and no code.
 */
export type Mechanic = 'instant_win' | 'code_unlock' | 'content';

/** Where a won entry's code comes from. */
export const CODE_SOURCE: Record<Mechanic, 'pack' | 'pool' | 'none'> = { instant_win: 'pack', code_unlock: 'pool', content: 'none' };
