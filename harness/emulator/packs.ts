/**
 * Hands each journey its own unentered pack of the outcome it needs, so parallel scenarios never
 * share one. When a kind runs out (an emulator used for many runs), a new batch is generated
 * through the reporting API, as a brand would, and the seeded draw gives its packs' outcomes.
 */
import { HarnessError } from '../errors.js';
import type { EmulatorClient, Env, Pack } from './client.js';

export type PackOutcome = 'won' | 'lost' | 'pending' | 'pending_failed' | 'failed';

const MINT_QUANTITY = 300;
const MAX_MINTS = 3;

function outcomeOf(pack: Pack): PackOutcome {
  if (pack.outcome === 'pending') return pack.settles_as === 'failed' ? 'pending_failed' : 'pending';
  return pack.outcome;
}

export class PackPool {
  private readonly free = new Map<PackOutcome, Pack[]>();
  private readonly taken = new Set<string>();
  private mints = 0;
  private refill: Promise<void> | undefined;

  constructor(
    private readonly client: EmulatorClient,
    private readonly env: Env,
  ) {}

  async load(): Promise<void> {
    const { data } = await this.client.packs();
    this.free.clear();
    for (const pack of data) {
      if (this.taken.has(pack.code)) continue;
      const kind = outcomeOf(pack);
      this.free.set(kind, [...(this.free.get(kind) ?? []), pack]);
    }
  }

  async take(outcome: PackOutcome): Promise<Pack> {
    for (;;) {
      const pack = this.free.get(outcome)?.shift();
      if (pack) {
        this.taken.add(pack.code);
        return pack;
      }
      if (this.mints >= MAX_MINTS) throw new HarnessError(`the emulator has no unentered "${outcome}" pack left: run \`npx emulator reset\``);
      this.refill ??= this.mint().finally(() => (this.refill = undefined));
      await this.refill;
    }
  }

  private async mint(): Promise<void> {
    this.mints += 1;
    await this.client.mintPacks(this.env, MINT_QUANTITY);
    await this.load();
  }
}
