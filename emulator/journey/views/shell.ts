/** The journey's page shell: navigation, and who is signed in with a sign-out button. */
import type { Collector } from '../../store/collectors.js';
import type { FormId } from '../../pages/csrf.js';
import { type Html, html } from '../../pages/html.js';
import { layout } from '../../pages/layout.js';

export interface PageContext {
  collector: Collector | undefined;
  /** The browser's form id, for the forms' CSRF fields (the answer carries its cookie). */
  form: FormId;
}

export const JOURNEY_NAV = [
  { href: '/promotions', label: 'Promotions' },
  { href: '/rewards', label: 'Rewards' },
];

export function journeyPage(page: PageContext, title: string, body: Html): Html {
  const aside = page.collector
    ? html`<form method="post" action="/sign-out"><span>Signed in as ${page.collector.email}</span> ${page.form.field()}<button type="submit">Sign out</button></form>`
    : html`<a href="/sign-in">Sign in</a>`;
  return layout({ title, body, nav: JOURNEY_NAV, aside });
}

/** A page that only says what happened and what to do next. */
export function messagePage(page: PageContext, title: string, message: string, next?: { href: string; label: string }): Html {
  return journeyPage(page, title, html`<section class="notice"><p>${message}</p>${next ? html`<p><a href="${next.href}">${next.label}</a></p>` : ''}</section>`);
}
