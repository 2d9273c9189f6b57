/**
 * The form filler's functions that run in the page (through outside.ts, which puts `elementPath`
 * in scope): which fields a person would fill and what each asks for, and the browser's own
 * validation of a form turned off.
 */

declare const document: any;
declare const window: any;
/** in-page.ts's, put in scope by outside.ts. */
declare function elementPath(element: any): string;

/** What a field of the consent form asks for, as a person reads it. */
export type FieldKind = 'email' | 'tel' | 'date' | 'datetime' | 'month' | 'number' | 'url' | 'name' | 'given' | 'family' | 'select' | 'text';

/** What fieldsToFill reads the form by: where it is, and the vocabulary's patterns of what a label asks for. */
export interface FieldHints {
  root: string;
  /** Pattern sources (harness/vocabulary.ts), compiled here with the `iu` flags. */
  words: { email: string; phone: string; given: string; family: string; name: string };
}

/**
 * The fields of the consent form a person would fill, besides its boxes: empty (`input` of a
 * text-like type, `select` without a choice, `textarea`), enabled, and shown to a person: not
 * hidden, transparent, off the page or a pixel small (a honeypot is none of those), each with its
 * place (elementPath) and what it asks for: its type where the browser checks it (email, tel,
 * date...), else its label as a person reads it (the vocabulary, in any of its languages), else its
 * autocomplete, name and id; a select with the value of its first real option.
 */
export function fieldsToFill(input: FieldHints): Array<{ path: string; kind: FieldKind; option?: string }> {
  const SKIP = new Set(['hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'image', 'file', 'range', 'color']);
  const root = document.querySelector(input.root);
  if (!root) return [];
  const words = Object.fromEntries(Object.entries(input.words).map(([kind, source]) => [kind, new RegExp(source, 'iu')])) as Record<keyof FieldHints['words'], RegExp>;
  const labelOf = (field: any): string => {
    const texts = [...(field.labels ?? [])].map((label: any) => String(label.textContent ?? ''));
    for (const id of String(field.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) texts.push(String(document.getElementById(id)?.textContent ?? ''));
    texts.push(String(field.getAttribute('aria-label') ?? ''), String(field.getAttribute('placeholder') ?? ''));
    return texts.join(' ').replace(/\s+/g, ' ').trim();
  };
  const byWords = (text: string): FieldKind | undefined => {
    if (words.email.test(text)) return 'email';
    if (words.phone.test(text)) return 'tel';
    if (words.given.test(text)) return 'given';
    if (words.family.test(text)) return 'family';
    if (words.name.test(text)) return 'name';
    return undefined;
  };
  const kindOf = (field: any): FieldKind => {
    const type = String(field.type ?? '').toLowerCase();
    if (field.localName === 'select') return 'select';
    const typed: Record<string, FieldKind> = { email: 'email', tel: 'tel', date: 'date', 'datetime-local': 'datetime', month: 'month', number: 'number', url: 'url' };
    if (typed[type]) return typed[type]!;
    const mode: Record<string, FieldKind> = { email: 'email', tel: 'tel', numeric: 'number', url: 'url' };
    if (mode[String(field.inputMode ?? '')]) return mode[String(field.inputMode)]!;
    const labelled = byWords(labelOf(field));
    if (labelled) return labelled;
    const hint = `${field.getAttribute('autocomplete') ?? ''} ${field.name ?? ''} ${field.id ?? ''}`.toLowerCase();
    if (/mail/.test(hint)) return 'email';
    if (/tel|phone/.test(hint)) return 'tel';
    if (/bday|birth/.test(hint)) return 'date';
    if (/given|first/.test(hint)) return 'given';
    if (/family|last|surname/.test(hint)) return 'family';
    if (/name/.test(hint)) return 'name';
    return 'text';
  };
  /** Whether a person sees the field: laid out, visible, not transparent, on the page and larger than a dot. */
  const seen = (field: any): boolean => {
    if (field.getClientRects().length === 0 || window.getComputedStyle(field).visibility === 'hidden') return false;
    for (let node = field; node; node = node.parentElement) {
      const style = window.getComputedStyle(node);
      if (Number(style.opacity) === 0 || node.getAttribute('aria-hidden') === 'true' || node.inert) return false;
    }
    const box = field.getBoundingClientRect();
    const page = document.documentElement;
    const [left, top] = [box.left + window.scrollX, box.top + window.scrollY];
    return box.width > 2 && box.height > 2 && left + box.width > 0 && top + box.height > 0 && left < Math.max(page.scrollWidth, window.innerWidth) && top < Math.max(page.scrollHeight, window.innerHeight);
  };
  const found: Array<{ path: string; kind: FieldKind; option?: string }> = [];
  for (const field of root.querySelectorAll('input, select, textarea')) {
    if (field.localName === 'input' && SKIP.has(String(field.type).toLowerCase())) continue;
    if (field.disabled || field.readOnly || String(field.value ?? '') !== '' || !seen(field)) continue;
    const kind = kindOf(field);
    if (kind !== 'select') found.push({ path: elementPath(field), kind });
    else {
      const option = [...field.options].find((candidate: any) => !candidate.disabled && candidate.value !== '');
      if (option) found.push({ path: elementPath(field), kind, option: String(option.value) });
    }
  }
  return found;
}

/** Lets the consent form at `root` (elementPath) be sent with its boxes unticked, past the browser's own `required`. */
export function disableValidation(root: string): void {
  const form = document.querySelector(root)?.closest('form');
  if (form) form.noValidate = true;
  for (const box of document.querySelector(root)?.querySelectorAll('[required]') ?? []) box.required = false;
}
