/**
 * What opens a consent form the page holds but does not show (in a closed `<dialog>`, a closed
 * `<details>`, a drawer): run in the page like in-page.ts, through outside.ts, which puts
 * `elementPath` in scope.
 */

declare const document: any;
/** in-page.ts's, put in scope by outside.ts. */
declare function elementPath(element: any): string;

/**
 * The elements a person would use to show the form at `root` (elementPath), and how they were
 * found, strongest first: the configured selector (`markers.consent_open`); an element that names
 * a hidden container of the form (`aria-controls`, `commandfor`, `popovertarget`, `data-target`,
 * `data-bs-target`, a link to its `#id`); the `<summary>` of a closed `<details>` around it; else
 * each button of the page's main content (`<main>`, else the body) a person sees, outside the
 * form. Several of the last kind are not told apart: the caller guesses none of them.
 */
export function consentOpeners(input: { root: string; opener?: string }): { by: 'marker' | 'reference' | 'disclosure' | 'action'; openers: Array<{ path: string; text: string }> } {
  const root = document.querySelector(input.root);
  const seen = (element: any) => Boolean(element.checkVisibility({ visibilityProperty: true }));
  const describe = (elements: any[]) => elements.map((element) => ({ path: elementPath(element), text: String(element.innerText ?? element.value ?? '').replace(/\s+/g, ' ').trim().slice(0, 80) }));
  if (input.opener) {
    let found: any[] = [];
    try {
      found = [...document.querySelectorAll(input.opener)].filter(seen);
    } catch {
      found = [];
    }
    return { by: 'marker', openers: describe(found) };
  }
  if (!root) return { by: 'action', openers: [] };
  const containers: any[] = [];
  for (let node = root; node && node !== document.body; node = node.parentElement) containers.push(node);
  // Only a container the page hides: a skip link to a <main> that shows is no opener.
  const ids = new Set(containers.filter((node) => !seen(node)).map((node) => node.id).filter(Boolean));
  const REFERENCES = ['aria-controls', 'commandfor', 'popovertarget', 'data-target', 'data-bs-target', 'href'];
  const names = (element: any) => REFERENCES.flatMap((name) => String(element.getAttribute(name) ?? '').split(/\s+/)).map((value) => value.replace(/^#/, ''));
  const referring = [...document.querySelectorAll(REFERENCES.map((name) => `[${name}]`).join(', '))].filter((element: any) => seen(element) && !root.contains(element) && names(element).some((name) => ids.has(name)));
  if (referring.length) return { by: 'reference', openers: describe(referring) };
  const disclosure = containers.find((node) => node.localName === 'details' && !node.open)?.querySelector(':scope > summary');
  if (disclosure && seen(disclosure)) return { by: 'disclosure', openers: describe([disclosure]) };
  const mains = document.querySelectorAll('main, [role=main]');
  const content = mains.length === 1 ? mains[0] : document.body;
  const actions = [...content.querySelectorAll('button, [role=button], input[type=button], input[type=submit], summary')].filter((element: any) => seen(element) && !root.contains(element));
  return { by: 'action', openers: describe(actions) };
}

/**
 * A step page before the consent form (an age question, a summary to confirm): the button the
 * config names (`markers.consent_step`) and its form, when it is shown; else the one form of the
 * page's main content a person sees, and its one submit button. Several forms or buttons are no
 * step the harness can take without a guess: `several` names them (for the brand to pick one).
 * `besides`: the consent form (elementPath) a page still holds beside its step (a single-page app
 * that draws its summary without loading another page): nothing in or around it is the step's, and
 * the step may be one button outside any form.
 */
export function stepForm(input?: { button?: string; besides?: string } | null): { form: string; submit: string; text: string } | { several: string[] } | undefined {
  const { button, besides } = input ?? {};
  const seen = (element: any) => Boolean(element.checkVisibility({ visibilityProperty: true }));
  const text = (element: any) => String(element.innerText ?? element.value ?? '').replace(/\s+/g, ' ').trim().slice(0, 80);
  const consent = besides ? document.querySelector(besides) : undefined;
  const apart = (element: any) => !consent || !(consent.contains(element) || element.contains(consent));
  const one = (button: any) => ({ form: elementPath(button.closest('form') ?? button), submit: elementPath(button), text: text(button) });
  if (button) {
    let named: any[] = [];
    try {
      named = [...document.querySelectorAll(button)].filter(seen);
    } catch {
      named = [];
    }
    if (named.length > 1) return { several: named.map(text) };
    return named.length === 1 ? one(named[0]) : undefined;
  }
  const mains = document.querySelectorAll('main, [role=main]');
  const content = mains.length === 1 ? mains[0] : document.body;
  const forms = [...(content?.querySelectorAll('form') ?? [])].filter((form: any) => seen(form) && apart(form));
  const submitsOf = (form: any) => [...form.querySelectorAll('button[type=submit], button:not([type]), input[type=submit]')].filter(seen);
  if (forms.length > 1) return { several: forms.flatMap(submitsOf).map(text) };
  if (forms.length === 0) {
    if (!consent) return undefined;
    const buttons = [...(content?.querySelectorAll('button, [role=button], input[type=submit], input[type=button]') ?? [])].filter((element: any) => seen(element) && apart(element) && !element.disabled);
    if (buttons.length > 1) return { several: buttons.map(text) };
    return buttons.length === 1 ? one(buttons[0]) : undefined;
  }
  const submits = submitsOf(forms[0]);
  if (submits.length > 1) return { several: submits.map(text) };
  if (submits.length === 0) return undefined;
  return { form: elementPath(forms[0]), submit: elementPath(submits[0]), text: text(submits[0]) };
}
