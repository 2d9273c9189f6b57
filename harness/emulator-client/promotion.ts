/**
 * Which promotion a run verifies: the one `--promotion` names (id or slug); else the one the
 * callback URL is already registered on, when exactly one has it; else the emulator's default.
 * One that does not exist, or whose dates put it out of reach (scheduled, ended), is a
 * HarnessError naming the promotions there are. A draft is verified: its preview can be, while
 * approval waits for it to go live (the production checks say so).
 */
import { HarnessError } from '../errors.js';
import type { EmulatorClient, Promotion } from './client.js';

export interface ChosenPromotion {
  promotion: Promotion;
  /** How it was found, for the report's notes. */
  how: string;
}

export async function choosePromotion(client: EmulatorClient, wanted: string | undefined, callback: string | undefined): Promise<ChosenPromotion> {
  const all = await client.promotions();
  let chosen: ChosenPromotion;
  if (wanted !== undefined) {
    const named = all.find((promotion) => String(promotion.id) === wanted || promotion.slug === wanted);
    if (!named) throw new HarnessError(`the emulator has no promotion "${wanted}": pass --promotion with one of ${listed(all)}`);
    chosen = { promotion: named, how: 'the one asked for' };
  } else {
    const registered = callback === undefined ? [] : await client.promotions(callback);
    const fallback = all.find((promotion) => promotion.default) ?? all[0]!;
    if (registered.length === 1) chosen = { promotion: registered[0]!, how: 'the one the callback URL is registered on' };
    else if (registered.length > 1) chosen = { promotion: fallback, how: `the default: the callback URL is registered on ${registered.map((promotion) => promotion.slug).join(', ')}; pass --promotion to choose` };
    else chosen = { promotion: fallback, how: callback === undefined ? 'the default: no callback URL to find it by' : 'the default: no promotion has this callback URL yet' };
  }
  const { promotion } = chosen;
  if (promotion.state === 'scheduled' || promotion.state === 'ended') {
    throw new HarnessError(`the promotion ${promotion.slug} (${chosen.how}) is ${promotion.state}, not live, so no journey can reach it: pass --promotion with a live one of ${listed(all)}`);
  }
  client.usePromotion(promotion.id);
  return chosen;
}

/** `1 spring-instant-win (instant_win, live, the default), ...` */
export function describePromotion(promotion: Promotion): string {
  return `${promotion.id} ${promotion.slug} (${promotion.mechanic}, ${promotion.state}${promotion.default ? ', the default' : ''})`;
}

const listed = (all: Promotion[]) => all.map(describePromotion).join(', ');
