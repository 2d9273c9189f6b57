/**
 * Hands each journey its own unentered pack of the outcome it needs, so parallel scenarios never
 * share one. When a kind runs out (an emulator used for many runs), a new batch is generated
 * through the reporting API, as a brand would, and the seeded draw gives its packs' outcomes. A
 * kind the promotion's draw never gives (no `lost` in a code unlock) is not minted for: the
 * scenario asking only for it cannot start (NoPackKind).
 */
import { HarnessError } from '../errors.js';
import type { EmulatorClient, Env, Pack, PackKind } from './client.js';

export type PackOutcome = 'won' | 'lost' | 'pending' | 'pending_failed' | 'failed';

const MINT_QUANTITY = 300;
const MAX_MINTS = 3;

function outcomeOf(pack: PackKind): PackOutcome {
  if (pack.outcome === 'pending') return pack.settles_as === 'failed' ? 'pending_failed' : 'pending';
  return pack.outcome;
}

/** The promotion's draw gives none of the outcomes a journey asked for. */
export class NoPackKind extends Error {}

export class PackPool {
  private readonly free = new Map<PackOutcome, Pack[]>();
  private readonly taken = new Set<string>();
  private readonly given = new Set<PackOutcome>();
  private mints = 0;
  private refill: Promise<void> | undefined;

  constructor(
    private readonly client: EmulatorClient,
    private readonly env: Env,
    /** How the promotion is named in messages, e.g. `nordkakao-cafe-codes (code_unlock)`. */
    private readonly promotion: string,
  ) {}

  async load(): Promise<void> {
    const { data, outcomes } = await this.client.packs();
    this.free.clear();
    for (const kind of outcomes) this.given.add(outcomeOf(kind));
    for (const pack of data) {
      if (this.taken.has(pack.code)) continue;
      const kind = outcomeOf(pack);
      this.free.set(kind, [...(this.free.get(kind) ?? []), pack]);
    }
  }

  /** A pack of the first outcome, in the order given, that the promotion's draw gives and has a pack of. */
  async take(preferences: readonly PackOutcome[]): Promise<Pack> {
    const wanted = preferences.filter((outcome) => this.given.has(outcome));
    if (wanted.length === 0) {
      throw new NoPackKind(`the promotion ${this.promotion} draws no ${preferences.map((outcome) => `"${outcome}"`).join(' or ')} pack (its draw gives ${[...this.given].join(', ')})`);
    }
    for (;;) {
      for (const outcome of wanted) {
        const pack = this.free.get(outcome)?.shift();
        if (pack) {
          this.taken.add(pack.code);
          return pack;
        }
      }
      if (this.mints >= MAX_MINTS) throw new HarnessError(`the emulator has no unentered ${wanted.map((outcome) => `"${outcome}"`).join(' or ')} pack left: run \`npx emulator reset\``);
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
