/**
 * Functions that run inside the page (Playwright serializes them). The project compiles without
 * the DOM library, so the page's globals are declared loosely here, for these functions only.
 */
import type { ConsentBox, Markers } from '../run/facts.js';

declare const document: any;
declare const localStorage: any;
declare const sessionStorage: any;
declare const FormData: any;

/** The markers on `<main>`, the page's links and text, its DOM and storage. */
export function readPage(mainSelector: string): { markers: Markers; links: string[]; text: string; html: string; storage: string } {
  const main = document.querySelector(mainSelector);
  const data = main?.dataset ?? {};
  const markers: Markers = {
    page: data.page, entryState: data.entryState, error: data.error, environment: data.environment,
    polling: data.polling, nextPoll: data.nextPoll, pollStopped: data.pollStopped, retryAfter: data.retryAfter,
  };
  let storage = '';
  try {
    storage = JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie });
  } catch {
    storage = '';
  }
  return {
    markers,
    links: [...document.querySelectorAll('a[href]')].map((link: any) => String(link.href)),
    text: String(document.body?.innerText ?? ''),
    html: String(document.documentElement.outerHTML),
    storage,
  };
}

/**
 * The consent form's checkboxes with their label text and role: terms acceptance, age
 * confirmation, marketing, or other. A label is the box's <label>, its aria-label, or failing
 * both the text around it, so an unlabelled box is still understood (and axe reports it).
 */
export function readConsent(selectors: { form: string; termsText: string; termsVersion: string }): {
  hasForm: boolean; boxes: ConsentBox[]; termsText: string; termsVersion: string | undefined; probeElements: number; unsafeLinks: string[];
} {
  const TERMS = /terms|conditions|bedingungen|\bagb\b|accept/i;
  const AGE = /\bage\b|years? old|old enough|\bjahre\b|\b1[0-9]\+?\b|\b2[01]\+?\b/i;
  const MARKETING = /news|offers|marketing|newsletter|promotional|advertis/i;
  const form = document.querySelector(selectors.form);
  const labelOf = (box: any): string => {
    const texts = [...(box.labels ?? [])].map((label: any) => String(label.textContent ?? ''));
    const aria = box.getAttribute('aria-label');
    if (aria) texts.push(aria);
    if (!texts.join('').trim()) texts.push(String(box.closest('label, li, p, div')?.textContent ?? ''));
    return texts.join(' ').replace(/\s+/g, ' ').trim();
  };
  const boxes: ConsentBox[] = [...(form?.querySelectorAll('input[type=checkbox]') ?? [])].map((box: any) => {
    const label = labelOf(box);
    const role = TERMS.test(label) ? 'terms' : AGE.test(label) ? 'age' : MARKETING.test(label) ? 'marketing' : 'other';
    return { role, label, checked: Boolean(box.checked), required: Boolean(box.required) };
  });
  const unsafeLinks = [...document.querySelectorAll('a[href]')]
    .map((link: any) => String(link.getAttribute('href') ?? ''))
    .filter((href: string) => /^\s*(javascript|data|vbscript):/i.test(href));
  return {
    hasForm: Boolean(form),
    boxes,
    termsText: String(document.querySelector(selectors.termsText)?.textContent ?? ''),
    termsVersion: document.querySelector(selectors.termsVersion)?.getAttribute('data-terms-version') ?? document.querySelector(selectors.termsVersion)?.textContent ?? undefined,
    probeElements: document.querySelectorAll('[data-harness-probe]').length,
    unsafeLinks,
  };
}

/** The entry form's fields as a browser would send them, for the endpoint probes. */
export function readEntryForm(formSelector: string): { action: string; hidden: Array<[string, string]>; boxes: Array<[string, string]> } | undefined {
  const form = document.querySelector(formSelector);
  if (!form) return undefined;
  const hidden: Array<[string, string]> = [...form.querySelectorAll('input[type=hidden]')].map((input: any) => [String(input.name), String(input.value)]);
  const boxes: Array<[string, string]> = [...form.querySelectorAll('input[type=checkbox]')].map((input: any) => [String(input.name), String(input.value || 'on')]);
  return { action: String(form.action), hidden, boxes };
}

export function disableValidation(formSelector: string): void {
  const form = document.querySelector(formSelector);
  if (form) form.noValidate = true;
}

/** A form's fields as the browser would send them. */
export function readForm(formSelector: string): Record<string, string> {
  const form = document.querySelector(formSelector);
  return form ? Object.fromEntries([...new FormData(form)].map(([name, value]: [string, unknown]) => [name, String(value)])) : {};
}
