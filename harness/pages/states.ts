/**
 * Result states learned from the preview. The preview shows the six sandbox scenarios, each a
 * state the harness knows; what each of those pages carries that none of the other five does is
 * that state's signature, and a production page is recognised as a state when it carries that
 * state's signature and no other's. A page that matches two states is not recognised; one that
 * matches none is distinct from every learned state, which is how the states the preview cannot
 * show are inferred (harness/run/state-steps.ts). Nothing here knows a word of any language.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fingerprint } from '../browser/in-page.js';
import type { StateName } from '../journey-states.js';
import { ServiceData } from './service-data.js';

/** From the strongest evidence of a state to the weakest: its markup, then its structure, then its words. */
const TIERS = ['markup', 'structure', 'text'] as const;
type Tier = (typeof TIERS)[number];

export interface Signature {
  state: StateName;
  tier: Tier;
  /** What only this state's preview page carries, at the strongest tier where it carries anything of its own. */
  features: string[];
  /**
   * Of those, an attribute's value that other preview pages carry with another value (`main[data-entry-state="won"]`
   * where the others say "lost", "pending"...): a state marker, which decides alone.
   */
  keys: string[];
}

export interface Learned {
  signatures: Signature[];
  /** States whose preview page carries nothing the others do not: they cannot be recognised. */
  unlearned: StateName[];
}

const VALUED = /^(.+)\[([\w-]+)="(.*)"\]$/;

/** Each state's signature from the preview's pages. */
export function learn(pages: ReadonlyArray<[StateName, Fingerprint]>): Learned {
  const signatures: Signature[] = [];
  const unlearned: StateName[] = [];
  for (const [state, page] of pages) {
    const others = pages.filter(([other]) => other !== state).map(([, fingerprint]) => fingerprint);
    const tier = TIERS.find((candidate) => own(page, others, candidate).length > 0);
    if (!tier) {
      unlearned.push(state);
      continue;
    }
    const features = own(page, others, tier);
    const keys = tier === 'markup' ? features.filter((feature) => others.some((other) => carriesOtherValue(other.markup, feature))) : [];
    signatures.push({ state, tier, features, keys });
  }
  return { signatures, unlearned };
}

function own(page: Fingerprint, others: Fingerprint[], tier: Tier): string[] {
  const elsewhere = new Set(others.flatMap((other) => other[tier]));
  return page[tier].filter((feature) => !elsewhere.has(feature));
}

/** Whether `features` hold the attribute of `feature` with another value. */
function carriesOtherValue(features: readonly string[], feature: string): boolean {
  const valued = VALUED.exec(feature);
  if (!valued) return false;
  const prefix = `${valued[1]}[${valued[2]}="`;
  return features.some((candidate) => candidate.startsWith(prefix) && candidate !== feature);
}

/** Whether a page carries a state's signature: one of its keys, else most of its features. */
export function carries(page: Fingerprint, signature: Signature): boolean {
  const present = new Set(page[signature.tier]);
  if (signature.keys.length > 0) return signature.keys.some((key) => present.has(key));
  return signature.features.filter((feature) => present.has(feature)).length * 2 > signature.features.length;
}

/** The learned states a page carries the signature of: one is a recognition, two or more an ambiguity, none a page distinct from them all. */
export function statesCarried(learned: Learned, page: Fingerprint): StateName[] {
  return learned.signatures.filter((signature) => carries(page, signature)).map((signature) => signature.state);
}

/** Two readings of the same page: every feature of every tier alike. */
export function samePage(a: Fingerprint, b: Fingerprint): boolean {
  return TIERS.every((tier) => a[tier].length === b[tier].length && a[tier].every((feature, index) => feature === b[tier][index]));
}

function list(items: readonly string[]): string {
  return `${items.slice(0, 4).join(', ')}${items.length > 4 ? ', …' : ''}`;
}

/**
 * The run's learned states: the preview's steps report each state's page; once every page the
 * preview was to show is in (or could not be read), the signatures are learned. Steps that need
 * them wait for `ready`.
 */
export class StateBook {
  learned: Learned | undefined;
  /** The service's values the run has seen: every page is read without them (service-data.ts). */
  readonly data = new ServiceData();
  private readonly pages = new Map<StateName, Fingerprint | undefined>();
  private expected: StateName[] | undefined;
  private finish!: () => void;
  private readonly ownWordsOf = new Map<StateName, string[]>();
  private readonly finished = new Promise<void>((resolve) => (this.finish = resolve));

  /** The preview is about to show these states. */
  expect(states: readonly StateName[]): void {
    this.expected = [...states];
    this.settle();
  }

  /** A state's page as the preview showed it, or undefined when it could not be read. */
  report(state: StateName, page: Fingerprint | undefined): void {
    this.pages.set(state, page);
    this.ownWordsOf.clear();
    this.settle();
  }

  /** The preview's page of a state. */
  pageOf(state: StateName): Fingerprint | undefined {
    return this.pages.get(state);
  }

  /** Resolves once learning is over (at once when the run learns nothing), or after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<void> {
    if (this.expected) await Promise.race([this.finished, sleep(timeoutMs, undefined, { ref: false })]);
  }

  /**
   * The learned states a page shows, told by the whole page (none before anything was learned): a
   * state whose key is on it; else one whose signature it carries and whose words it shows too (most
   * of the words only that state's preview page shows: its heading, its main text), when that page
   * has words of its own; else, when no signature holds, a state whose words alone it shows. A page
   * that shares one feature with a state (a `role="status"` paragraph) but not its words is not it.
   */
  carried(page: Fingerprint): StateName[] {
    if (!this.learned) return [];
    // A carried signature with keys matched one of them: a distinguishing attribute decides alone.
    const bySignature = statesCarried(this.learned, page).filter((state) => Boolean(this.signatureOf(state)?.keys.length) || this.showsWordsOf(page, state) !== false);
    if (bySignature.length) return bySignature;
    return this.learned.signatures.map((signature) => signature.state).filter((state) => this.showsWordsOf(page, state) === true);
  }

  /** What of a state the page carries, for evidence: its key, or the features and words of its own it shows. */
  matched(page: Fingerprint, state: StateName): string {
    const signature = this.signatureOf(state);
    if (!signature) return 'nothing learned';
    const present = new Set(page[signature.tier]);
    const key = signature.keys.find((candidate) => present.has(candidate));
    if (key) return `${signature.tier} ${key}`;
    const features = signature.features.filter((feature) => present.has(feature));
    const words = this.ownWords(state);
    const shown = words.filter((word) => page.text.includes(word));
    const parts = [
      ...(features.length && signature.tier !== 'text' ? [`${signature.tier} ${list(features)} (${features.length} of ${signature.features.length} only its page carries)`] : []),
      ...(words.length ? [`text ${shown.length ? `${list(shown)} ` : ''}(${shown.length} of ${words.length} words only its page shows)`] : []),
    ];
    return parts.join('; ') || 'nothing';
  }

  /** Whether the page shows most of the words only the state's preview page shows; undefined when that page has none of its own. */
  private showsWordsOf(page: Fingerprint, state: StateName): boolean | undefined {
    const words = this.ownWords(state);
    if (words.length === 0) return undefined;
    const shown = new Set(page.text);
    return words.filter((word) => shown.has(word)).length * 2 > words.length;
  }

  /** The words of a state's preview page that no other learned page shows (worked out once per state: every page read asks). */
  private ownWords(state: StateName): string[] {
    const page = this.pages.get(state);
    if (!page || !this.learned) return [];
    let words = this.ownWordsOf.get(state);
    if (!words) {
      const others = [...this.pages].filter(([other, fingerprint]) => other !== state && fingerprint).map(([, fingerprint]) => fingerprint!);
      this.ownWordsOf.set(state, (words = own(page, others, 'text')));
    }
    return words;
  }

  /**
   * The book learned again without one state's page: what the other pages tell apart once that one
   * is left out. A preview that shows a state as its failure page teaches neither (the two pages
   * are one); without the state, the failure page is learned, and a page carrying it is that page.
   */
  without(state: StateName): StateBook {
    const book = new StateBook();
    const kept = [...this.pages.keys()].filter((other) => other !== state);
    book.expect(kept);
    for (const other of kept) book.report(other, this.pages.get(other));
    return book;
  }

  signatureOf(state: StateName): Signature | undefined {
    return this.learned?.signatures.find((signature) => signature.state === state);
  }

  private settle(): void {
    if (this.learned || !this.expected || !this.expected.every((state) => this.pages.has(state))) return;
    this.learned = learn(this.expected.flatMap((state) => {
      const page = this.pages.get(state);
      return page ? [[state, page] as [StateName, Fingerprint]] : [];
    }));
    this.finish();
  }
}
