/**
 * Functions that run inside the page (Playwright serializes them, so each is self-contained). The
 * project compiles without the DOM library, so the page's globals are declared loosely here, for
 * these functions only.
 */
import type { ConsentBox } from '../run/facts.js';

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
 * Installed before any script of a page: records every change of what the page shows (its CSS
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

/** Where the page's record stands now: its document, and how many changes it holds. */
export function shownMark(): { document: number; at: number } {
  const record = window.__harnessShown;
  return { document: record?.document ?? 0, at: record?.seen.length ?? 0 };
}

/** The selectors (by index) the page's record saw match since a mark; the whole record of a document loaded since. */
export function shownSince(mark: { document: number; at: number }): number[] {
  const record = window.__harnessShown;
  if (!record) return [];
  return [...new Set<number>(record.seen.slice(record.document === mark.document ? mark.at : 0).flat())];
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
export function fingerprint(): { markup: string[]; structure: string[]; text: string[] } {
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
    for (const child of [...element.children] as any[]) if (!SKIP.has(child.tagName) && !child.hasAttribute('data-harness-probe')) walk(child, here);
  };
  if (document.body) walk(document.body, '');
  const words = String(document.body?.innerText ?? '').toLowerCase().match(/\p{L}{3,}/gu) ?? [];
  return { markup: [...markup].sort(), structure: [...structure].sort(), text: [...new Set<string>(words)].sort() };
}

/** The label text that marks the box accepting the terms (English and German), shared by the functions below. */
export const TERMS_LABEL = 'terms|conditions|bedingungen|\\bagb\\b|akzeptier|einverstanden|accept';

/**
 * For each selector: whether it matches, or null when it is not CSS (a Playwright selector such as
 * `text=/x/`); and whether a checkbox on the page is labelled as accepting the terms.
 */
export function recognise(input: { selectors: string[]; terms: string }): { matches: Array<boolean | null>; termsBox: boolean } {
  const matches = input.selectors.map((selector) => {
    try {
      return document.querySelector(selector) !== null;
    } catch {
      return null;
    }
  });
  const terms = new RegExp(input.terms, 'i');
  const termsBox = [...document.querySelectorAll('input[type=checkbox], [role=checkbox]')].some((box: any) => {
    const labels = [...(box.labels ?? [])].map((label: any) => String(label.textContent ?? '')).join(' ');
    return terms.test(`${labels} ${box.getAttribute('aria-label') ?? ''} ${labels.trim() ? '' : String(box.closest('label, li, p, div')?.textContent ?? '')}`);
  });
  return { matches, termsBox };
}

/**
 * The consent form: the configured one, else the form (or the section with a button) holding the
 * box whose label accepts the terms. Its root is marked `data-harness-consent` and its boxes
 * `data-harness-box`, for the page object's locators. Each box comes with its label and role:
 * terms acceptance, age confirmation, marketing, or other. A label is the box's <label>, its ARIA
 * name, or failing those the text around it, so an unlabelled box is still understood (and axe
 * reports it). English and German wordings are recognised.
 */
export function readConsent(selectors: { form: string; termsText: string; termsVersion: string; terms: string }): {
  hasForm: boolean; boxes: ConsentBox[]; hidden: Array<[string, string]>; termsText: string; termsVersion: string | undefined; probeElements: number; unsafeLinks: string[];
} {
  const TERMS = new RegExp(selectors.terms, 'i');
  const AGE = /\bage\b|years? old|old enough|\bjahre\b|volljährig|\b1[0-9]\+?\b|\b2[01]\+?\b/i;
  const MARKETING = /news|offers|marketing|newsletter|promotional|advertis|angebot|werbung|neuigkeit/i;
  const BOX = 'input[type=checkbox], [role=checkbox]';
  const labelOf = (box: any): string => {
    const texts = [...(box.labels ?? [])].map((label: any) => String(label.textContent ?? ''));
    const aria = box.getAttribute('aria-label');
    if (aria) texts.push(aria);
    for (const id of String(box.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) texts.push(String(document.getElementById(id)?.textContent ?? ''));
    if (!texts.join('').trim()) texts.push(String(box.closest('label, li, p, div')?.textContent ?? ''));
    return texts.join(' ').replace(/\s+/g, ' ').trim();
  };
  const withButton = (element: any): any => {
    for (let node = element.parentElement; node; node = node.parentElement) if (node.querySelector('button, [type=submit], [role=button]')) return node;
    return undefined;
  };
  let root = document.querySelector(selectors.form);
  if (!root) {
    const terms = [...document.querySelectorAll(BOX)].find((box: any) => TERMS.test(labelOf(box)));
    root = terms ? (terms.closest('form') ?? withButton(terms)) : undefined;
  }
  for (const marked of document.querySelectorAll('[data-harness-consent], [data-harness-box]')) {
    marked.removeAttribute('data-harness-consent');
    marked.removeAttribute('data-harness-box');
  }
  const found = root ? [...root.querySelectorAll(BOX)] : [];
  if (root) root.setAttribute('data-harness-consent', '');
  const boxes: ConsentBox[] = found.map((box: any, index: number) => {
    box.setAttribute('data-harness-box', String(index));
    const label = labelOf(box);
    const role = TERMS.test(label) ? 'terms' : AGE.test(label) ? 'age' : MARKETING.test(label) ? 'marketing' : 'other';
    const checked = box.matches('input') ? Boolean(box.checked) : box.getAttribute('aria-checked') === 'true';
    return { role, label, checked, required: Boolean(box.required) || box.getAttribute('aria-required') === 'true' };
  });
  const unsafeLinks = [...document.querySelectorAll('a[href]')]
    .map((link: any) => String(link.getAttribute('href') ?? ''))
    .filter((href: string) => /^\s*(javascript|data|vbscript):/i.test(href));
  const version = document.querySelector(selectors.termsVersion);
  return {
    hasForm: Boolean(root),
    boxes,
    hidden: root ? [...root.querySelectorAll('input[type=hidden]')].map((input: any) => [String(input.name), String(input.value)] as [string, string]) : [],
    termsText: String((document.querySelector(selectors.termsText) ?? document.body)?.innerText ?? ''),
    termsVersion: version ? (version.getAttribute('data-terms-version') ?? String(version.textContent ?? '')) : undefined,
    probeElements: document.querySelectorAll('[data-harness-probe]').length,
    unsafeLinks,
  };
}

/** Lets the consent form be sent with its boxes unticked, past the browser's own `required`. */
export function disableValidation(): void {
  const form = document.querySelector('[data-harness-consent]')?.closest('form');
  if (form) form.noValidate = true;
  for (const box of document.querySelectorAll('[data-harness-consent] [required]')) box.required = false;
}

/** A form's fields as the browser would send them. */
export function readForm(formSelector: string): Record<string, string> {
  const form = document.querySelector(formSelector);
  return form ? Object.fromEntries([...new FormData(form)].map(([name, value]: [string, unknown]) => [name, String(value)])) : {};
}
