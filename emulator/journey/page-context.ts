/** What every journey page starts from: who is signed in, and the browser's form id. */
import type { Request, Response } from 'express';
import type { Context } from '../context.js';
import type { PageAnswer, RedirectAnswer } from '../endpoints.js';
import { FormId } from '../pages/csrf.js';
import type { Html } from '../pages/html.js';
import { signedInCollector } from './sign-in.js';
import type { PageContext } from './views/shell.js';

interface PageLocals {
  page?: PageContext;
}

/** Made once per request: the row and, on a refusal, its page (errors.ts) show the same collector and form id. */
export function pageContext(ctx: Context, req: Request, res: Response): PageContext {
  return ((res.locals as PageLocals).page ??= { collector: signedInCollector(ctx, req), form: new FormId(req) });
}

/** A journey page as an answer, rendered first, so that it carries the form id's cookie its forms need. */
export function shownPage(shown: PageContext, status: number, page: Html): PageAnswer {
  return { status, page, cookies: shown.form.cookies() };
}

/** Where sign-in may send the browser back to: the journey's own pages only. */
const NEXT_PATTERN = /^\/(?:(?:q|play)\/[A-Za-z0-9-]{1,64}|rewards|promotions)$/;

export function safeNext(next: string | undefined): string {
  return next && NEXT_PATTERN.test(next) ? next : '/promotions';
}

/** To the sign-in page, which comes back to `next`. */
export function signInRedirect(next: string): RedirectAnswer {
  return { status: 303, location: `/sign-in?next=${encodeURIComponent(next)}` };
}
