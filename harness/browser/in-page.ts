/**
 * Functions that run inside the page (Playwright serializes them, so each is self-contained). The
 * project compiles without the DOM library, so the page's globals are declared loosely here, for
 * these functions only.
 */

declare const document: any;
declare const window: any;
declare const MutationObserver: any;
declare const localStorage: any;
declare const sessionStorage: any;
declare const FormData: any;
declare const CSS: any;

/** The page's links, title and text, its DOM and storage. */
export function readPage(): { links: string[]; title: string; text: string; html: string; storage: string } {
  let storage = '';
  try {
    storage = JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie });
  } catch {
    storage = '';
  }
  return {
    links: [...document.querySelectorAll('a[href]')].map((link: any) => String(link.href)),
    title: String(document.title ?? ''),
    text: String(document.body?.innerText ?? ''),
    html: String(document.documentElement.outerHTML),
    storage,
  };
}

/**
 * Run in the harness's own world of each document (outside.ts) before any script of the page:
 * records every change of what the page shows (its CSS
 * selectors that match), so a state shown only for a moment (a wait page that retries by itself)
 * is not missed by a harness that looks a little late. Playwright-only selectors are not recorded.
 */
export function recordShown(selectors: string[]): void {
  const seen: number[][] = [];
  window.__harnessShown = { document: Math.random(), seen };
  let last = '';
  const note = () => {
    const hits = selectors.flatMap((selector, index) => {
      try {
        return document.querySelector(selector) ? [index] : [];
      } catch {
        return [];
      }
    });
    if (hits.join() !== last) seen.push(hits);
    last = hits.join();
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, attributes: true });
}

/** Where a page's record of what it showed stands: its document, and how many changes it holds. */
export interface ShownMark {
  document: number;
  at: number;
}

/** Where the page's record stands now. */
export function shownMark(): ShownMark {
  const record = window.__harnessShown;
  return { document: record?.document ?? 0, at: record?.seen.length ?? 0 };
}

/** The selectors (by index) the page's record saw match since a mark; the whole record of a document loaded since. */
export function shownSince(mark: ShownMark): number[] {
  const record = window.__harnessShown;
  if (!record) return [];
  return [...new Set<number>(record.seen.slice(record.document === mark.document ? mark.at : 0).flat())];
}

/** What a page is made of (fingerprint below): the features states are learned and recognised by (harness/pages/states.ts). */
export interface Fingerprint {
  markup: string[];
  structure: string[];
  text: string[];
}

/**
 * What a page is made of, in three tiers from the strongest evidence of a state to the weakest:
 * `markup`, CSS selectors of its elements' classes, ids, `data-*`, `aria-*` and `role` attributes
 * (`section.warning`, `main[data-entry-state="won"]`, `p[data-code]`); `structure`, the tag path
 * of each element (`body>main>section>ul>li`); `text`, the words of its text (letters only,
 * lower case). What differs per run is left out: a value with a digit or longer than 40
 * characters, or one that looks random, counts only as the attribute's presence; words never
 * hold digits. No word list, no language: the preview teaches which of these tell states apart.
 */
/** `probe`: the attribute of the harness's terms markup probe this run; its elements are the harness's, not the page's. */
export function fingerprint(probe: string | void): Fingerprint {
  const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'svg']);
  const ATTRIBUTE = /^(data-(?!harness)[\w-]+|aria-(?!labelledby|describedby|controls|owns|activedescendant)[\w-]+|role)$/;
  const unstable = (value: string) => value.length > 40 || /\d/.test(value) || (/^[\w-]{16,}$/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value));
  const quote = (value: string) => value.replace(/["\\]/g, '\\$&');
  const markup = new Set<string>();
  const structure = new Set<string>();
  const walk = (element: any, path: string) => {
    const tag = String(element.localName);
    const here = path ? `${path}>${tag}` : tag;
    structure.add(here);
    for (const name of [...(element.classList ?? [])] as string[]) if (!unstable(name)) markup.add(`${tag}.${CSS.escape(name)}`);
    if (element.id && !unstable(element.id)) markup.add(`${tag}#${CSS.escape(element.id)}`);
    for (const attribute of [...element.attributes] as any[]) {
      if (!ATTRIBUTE.test(attribute.name)) continue;
      markup.add(`${tag}[${attribute.name}]`);
      if (attribute.value && !unstable(attribute.value)) markup.add(`${tag}[${attribute.name}="${quote(attribute.value)}"]`);
    }
    for (const child of [...element.children] as any[]) if (!SKIP.has(child.tagName) && !(probe && child.hasAttribute(probe))) walk(child, here);
  };
  if (document.body) walk(document.body, '');
  const words = String(document.body?.innerText ?? '').toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return { markup: [...markup].sort(), structure: [...structure].sort(), text: [...new Set<string>(words)].sort() };
}

/**
 * For each selector: whether it matches, or null when it is not CSS (a Playwright selector such as
 * `text=/x/`).
 */
export function recognise(input: { selectors: string[] }): { matches: Array<boolean | null> } {
  const matches = input.selectors.map((selector) => {
    try {
      return document.querySelector(selector) !== null;
    } catch {
      return null;
    }
  });
  return { matches };
}

/** A consent box as the page shows it, and the role the harness gave it. */
export interface ConsentBox {
  role: 'terms' | 'age' | 'marketing' | 'other';
  /** How the role was found (readConsent below): config, structure, behaviour, or words. */
  by: 'marker' | 'words' | 'age' | 'required' | 'optional' | 'structure';
  label: string;
  checked: boolean;
  required: boolean;
}

/** What the harness reads a consent form by: its markers (all optional), the vocabulary's patterns, the minimum age the terms set. */
export interface ConsentHints {
  form: string;
  termsText: string;
  termsVersion: string;
  boxes: { terms?: string; age?: string; marketing?: string };
  /** Pattern sources (harness/vocabulary.ts), compiled here with the `iu` flags. */
  words: { terms: string; accept: string; age: string; marketing: string };
  minimumAge?: number;
  /** The attribute the harness's terms markup probe carries this run (RunFacts.probeMark). */
  probe?: string;
}

/**
 * The consent form, found by structure and behaviour before words. Its root: the configured form;
 * else the form (or the section with a button) whose boxes look most like consent: a box the
 * config names, a box the page requires, a box whose label names the terms, then one that accepts
 * something; a form whose boxes are all marketing opt-ins is not one. Each box's role, and how it
 * was found (`by`):
 * - `marker`: `markers.consent_boxes.*` names it;
 * - `words`: its label names the terms (terms, even when it also offers marketing: the check judges that);
 * - `age`: its label holds the minimum age the terms set (`by: 'age'`), or age words;
 * - `required`: the page requires it (`required`, `aria-required`) and it is not the age box: the terms;
 * - marketing by `words` (it offers news or offers) or `optional` (an optional box beside a required terms box);
 * - a box that only accepts something is the terms; the only box left of a form without one is the
 *   terms (`structure`); anything else is `other`, which the checks call inconclusive.
 * A label is the box's <label>, its ARIA name, or failing those the text around it.
 */
export function readConsent(input: ConsentHints): {
  hasForm: boolean; boxes: ConsentBox[]; hidden: Array<[string, string]>; termsText: string; termsVersion: string | undefined; probeElements: number; unsafeLinks: string[];
  /** Where the form and each of its boxes are (elementPath), for the page object's locators. */
  where: { root: string; boxes: string[] } | undefined;
  /** Whether a person sees the form: it and a box (or its label) take room on the page; not so in a closed dialog, disclosure or drawer. */
  visible: boolean;
} {
  const words = {
    terms: new RegExp(input.words.terms, 'iu'), accept: new RegExp(input.words.accept, 'iu'), age: new RegExp(input.words.age, 'iu'), marketing: new RegExp(input.words.marketing, 'iu'),
  };
  const BOX = 'input[type=checkbox], [role=checkbox]';
  const labelOf = (box: any): string => {
    const texts = [...(box.labels ?? [])].map((label: any) => String(label.textContent ?? ''));
    const aria = box.getAttribute('aria-label');
    if (aria) texts.push(aria);
    for (const id of String(box.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) texts.push(String(document.getElementById(id)?.textContent ?? ''));
    if (!texts.join('').trim()) texts.push(String(box.closest('label, li, p, div')?.textContent ?? ''));
    return texts.join(' ').replace(/\s+/g, ' ').trim();
  };
  const named = (box: any, role: 'terms' | 'age' | 'marketing'): boolean => {
    try {
      return Boolean(input.boxes[role]) && box.matches(input.boxes[role]);
    } catch {
      return false;
    }
  };
  const requiredOf = (box: any): boolean => Boolean(box.required) || box.getAttribute('aria-required') === 'true';
  const age = input.minimumAge === undefined ? undefined : new RegExp(`(?<!\\d)${input.minimumAge}(?!\\d)`);
  const withButton = (element: any): any => {
    for (let node = element.parentElement; node; node = node.parentElement) if (node.querySelector('button, [type=submit], [role=button]')) return node;
    return undefined;
  };
  /** How much a container looks like the consent form, 0 when it is not one. */
  const score = (boxes: any[]): number => {
    const labels = boxes.map(labelOf);
    if (boxes.some((box) => named(box, 'terms'))) return 5;
    if (boxes.some(requiredOf)) return 4;
    if (labels.some((label) => words.terms.test(label))) return 3;
    if (labels.some((label) => words.accept.test(label) && !words.marketing.test(label))) return 2;
    return labels.every((label) => words.marketing.test(label)) ? 0 : 1;
  };
  let root = document.querySelector(input.form);
  if (!root) {
    const containers = new Map<any, any[]>();
    for (const box of document.querySelectorAll(BOX)) {
      const container = box.closest('form') ?? withButton(box);
      if (container) containers.set(container, [...(containers.get(container) ?? []), box]);
    }
    let best = 0;
    for (const [container, boxes] of containers) {
      const value = score(boxes);
      if (value > best) [root, best] = [container, value];
    }
  }
  const found: any[] = root ? [...root.querySelectorAll(BOX)] : [];
  const read = found.map((box) => ({ box, label: labelOf(box), required: requiredOf(box) }));
  const isAge = (label: string): boolean => Boolean(age?.test(label)) || words.age.test(label);
  const requiredTerms = read.some(({ box, label, required }) => required && !isAge(label) && !named(box, 'age') && !named(box, 'marketing'));
  const roles = read.map(({ box, label, required }): Pick<ConsentBox, 'role' | 'by'> => {
    for (const role of ['terms', 'age', 'marketing'] as const) if (named(box, role)) return { role, by: 'marker' };
    if (words.terms.test(label)) return { role: 'terms', by: 'words' };
    if (isAge(label)) return { role: 'age', by: age?.test(label) ? 'age' : 'words' };
    if (required) return { role: 'terms', by: 'required' };
    if (words.marketing.test(label)) return { role: 'marketing', by: 'words' };
    if (requiredTerms) return { role: 'marketing', by: 'optional' };
    if (words.accept.test(label)) return { role: 'terms', by: 'words' };
    return { role: 'other', by: 'structure' };
  });
  const others = roles.filter((role) => role.role === 'other');
  if (others.length === 1 && !roles.some((role) => role.role === 'terms')) others[0]!.role = 'terms';
  const boxes: ConsentBox[] = read.map(({ box, label, required }, index) => {
    const checked = box.matches('input') ? Boolean(box.checked) : box.getAttribute('aria-checked') === 'true';
    return { ...roles[index]!, label, checked, required };
  });
  const unsafeLinks = [...document.querySelectorAll('a[href]')]
    .map((link: any) => String(link.getAttribute('href') ?? ''))
    .filter((href: string) => /^\s*(javascript|data|vbscript):/i.test(href));
  const version = document.querySelector(input.termsVersion);
  return {
    hasForm: Boolean(root),
    boxes,
    hidden: root ? [...root.querySelectorAll('input[type=hidden]')].map((field: any) => [String(field.name), String(field.value)] as [string, string]) : [],
    termsText: String((document.querySelector(input.termsText) ?? document.body)?.innerText ?? ''),
    termsVersion: version ? (version.getAttribute('data-terms-version') ?? String(version.textContent ?? '')) : undefined,
    probeElements: input.probe ? document.querySelectorAll(`[${CSS.escape(input.probe)}]`).length : 0,
    unsafeLinks,
    where: root ? { root: elementPath(root), boxes: found.map(elementPath) } : undefined,
    // checkVisibility: not in a closed <details> either, whose content still has boxes.
    visible: Boolean(root?.checkVisibility()) && found.some((box) => box.checkVisibility() || [...(box.labels ?? [])].some((label: any) => label.checkVisibility())),
  };
}

/**
 * Where an element is, as a CSS selector of its place in the document (`html > body:nth-child(2) >
 * ...`): how the harness points Playwright at what it read, without marking the page.
 */
export function elementPath(element: any): string {
  const steps: string[] = [];
  for (let node = element; node?.parentElement; node = node.parentElement) steps.unshift(`${CSS.escape(node.localName)}:nth-child(${[...node.parentElement.children].indexOf(node) + 1})`);
  return [element?.ownerDocument?.documentElement?.localName ?? 'html', ...steps].join(' > ');
}

/** The links a selector matches: where each is (elementPath) and where it leads. */
export function linksOf(selector: string): Array<{ path: string; href: string }> {
  return [...document.querySelectorAll(selector)].map((link: any) => ({ path: elementPath(link), href: String(link.href) }));
}

/** A form's fields as the browser would send them. */
export function readForm(formSelector: string): Record<string, string> {
  const form = document.querySelector(formSelector);
  return form ? Object.fromEntries([...new FormData(form)].map(([name, value]: [string, unknown]) => [name, String(value)])) : {};
}
