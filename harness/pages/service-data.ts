/**
 * What the service put on a page is the service's data, not the agency's: the prize's name, the
 * codes, the redemption link, the campaign's name. A state's signature is the agency's own page
 * (its copy, its markup), so both the preview's pages it is learned from and the production pages
 * compared with it are read without that data, and without the blocks that are there only because
 * the data has them (a code list and the line that labels it, a redeem link): the preview's won page
 * shows a voucher with its code, a production one a physical prize with none, and both are "won".
 * The harness knows every value, from the answers the emulator observed it give.
 */
import type { Page } from 'playwright-core';
import type { Fingerprint } from '../browser/in-page.js';
import { outside } from '../browser/outside.js';
import type { ObservedCall } from '../emulator-client/client.js';

/** The project compiles without the DOM library: the page's globals, loosely, for `dataOnly`. */
declare const document: any;
declare const NodeFilter: any;
type Element = any;

/** The service's values the run has seen so far: texts (a prize name, a code) and links (a redemption URL). */
export class ServiceData {
  private readonly texts = new Set<string>();
  private readonly links = new Set<string>();

  /** The campaign's name. */
  name(campaign: string | undefined): void {
    if (campaign) this.texts.add(campaign);
  }

  /** The data in the answers of these calls. */
  note(calls: readonly ObservedCall[]): void {
    for (const { answer } of calls) {
      if (answer?.prize) this.texts.add(answer.prize);
      for (const code of answer?.codes ?? []) this.texts.add(code);
      if (answer?.redemption_url) {
        this.links.add(answer.redemption_url);
        this.texts.add(answer.redemption_url);
      }
    }
  }

  get empty(): boolean {
    return this.texts.size === 0 && this.links.size === 0;
  }

  values(): DataValues {
    return { texts: [...this.texts], links: [...this.links] };
  }
}

export interface DataValues {
  texts: string[];
  links: string[];
}

/** A page's features without the service's data: what of them only its data blocks carry, and its words only the data holds. */
export async function withoutServiceData(page: Page, features: Fingerprint, data: ServiceData | undefined): Promise<Fingerprint> {
  if (!data || data.empty) return features;
  const values = data.values();
  const only = await outside(page, dataOnly, { ...values, features: [...features.markup, ...features.structure] }).catch(() => undefined);
  if (!only) return features;
  const [dataFeatures, words] = [new Set(only.features), new Set(only.words)];
  const lowered = values.texts.map((text) => text.toLowerCase());
  return {
    markup: features.markup.filter((feature) => !dataFeatures.has(feature)).map((feature) => withoutDataValue(feature, lowered)),
    structure: features.structure.filter((feature) => !dataFeatures.has(feature)),
    text: features.text.filter((word) => !words.has(word)),
  };
}

const VALUED = /^(.+\[[\w-]+)="(.*)"\]$/;

/** `strong[data-prize="concert tickets"]` only says the attribute is there: its value is the service's. */
function withoutDataValue(feature: string, texts: readonly string[]): string {
  const valued = VALUED.exec(feature);
  return valued && texts.some((text) => valued[2]!.toLowerCase().includes(text)) ? `${valued[1]}]` : feature;
}

/**
 * In the page. A data block: the outermost element whose text is nothing but the service's values
 * (a `<code>`, a list of codes), or a link to one of its links; grown to its parent while what the
 * parent adds is a label of at most three words and no heading ("Your code:", "You won {prize}."),
 * and joined by the element just before it when that is such a label. Returns the features (CSS
 * selectors, as the fingerprint writes them) every element of which lies in a block, and the words
 * the page shows only in blocks or in the values.
 */
export function dataOnly(input: DataValues & { features: string[] }): { features: string[]; words: string[] } {
  const texts = input.texts.map((text) => text.toLowerCase()).filter((text) => text.trim().length > 1).sort((a, b) => b.length - a.length);
  const links = new Set(input.links);
  const LABEL_WORDS = 3;
  /** A page of more elements than this is read in its first ones only: the agency is not to make every reading slow. */
  const MOST_ELEMENTS = 5000;
  const HEADING = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  const strip = (text: string) => texts.reduce((rest, value) => rest.split(value).join(' '), text.toLowerCase());
  const wordsOf = (text: string) => text.toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  const blocks: Element[] = [];
  const inBlock = (node: Element) => blocks.some((block) => block.contains(node));
  // innerText keeps an element's lines and cells apart; textContent runs `<dt>Code</dt><dd>X</dd>` into one word.
  const lines = (element: Element) => String(element.innerText ?? element.textContent ?? '');
  const ownText = (element: Element) => {
    let text = lines(element);
    for (const block of blocks) if (element !== block && element.contains(block)) text = text.replace(lines(block), ' ');
    return strip(text);
  };
  const isData = (element: Element) => {
    if (element.localName === 'a' && links.has(String(element.href))) return true;
    const text = String(element.textContent ?? '');
    const stripped = strip(text);
    return stripped !== text.toLowerCase() && !/\p{L}/u.test(stripped);
  };
  const label = (element: Element | null) => {
    if (!element || inBlock(element) || element.matches(HEADING) || element.querySelector(HEADING) || element.querySelector('a, button, input, select, textarea')) return false;
    const count = (ownText(element).match(/\p{L}+/gu) ?? []).length;
    return count > 0 && count <= LABEL_WORDS;
  };
  const body = document.body;
  if (!body) return { features: [], words: [] };
  for (const element of [...body.querySelectorAll('*')].slice(0, MOST_ELEMENTS)) {
    if (SKIP.has(element.tagName) || inBlock(element) || !isData(element)) continue;
    let block: Element = element;
    blocks.push(block);
    for (let parent = block.parentElement; parent && parent !== body && parent.localName !== 'main'; parent = parent.parentElement) {
      const words = (ownText(parent).match(/\p{L}+/gu) ?? []).length;
      if (words > LABEL_WORDS || parent.querySelector(HEADING)) break;
      blocks.splice(blocks.indexOf(block), 1, parent);
      block = parent;
    }
    const before = block.previousElementSibling;
    if (label(before)) blocks.push(before!);
  }
  if (blocks.length === 0) return { features: [], words: [] };
  const features = input.features.filter((feature) => {
    try {
      // Only a feature some block holds can lie wholly in blocks: the page is searched for the others' elements no more.
      if (!blocks.some((block) => block.matches(feature) || block.querySelector(feature))) return false;
      const found = [...body.querySelectorAll(feature)];
      return found.length > 0 && found.every(inBlock);
    } catch {
      return false;
    }
  });
  // The words the page shows outside the blocks, the values taken out.
  const outside: string[] = [];
  const walker = document.createTreeWalker(body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || SKIP.has(parent.tagName) || inBlock(node)) continue;
    outside.push(String(node.textContent ?? ''));
  }
  const kept = new Set(wordsOf(strip(outside.join(' '))));
  const candidates = [...blocks.map(lines), ...texts];
  const words = [...new Set(candidates.flatMap(wordsOf))].filter((word) => !kept.has(word));
  return { features, words };
}
