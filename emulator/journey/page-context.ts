/** What every journey handler starts from: the request, the response and who is signed in. */
import type { Request, Response } from 'express';
import type { Context } from '../context.js';
import type { RedirectAnswer } from '../endpoints.js';
import { signedInCollector } from './sign-in.js';
import type { PageContext } from './views/shell.js';

interface PageLocals {
  page?: PageContext;
}

/** Made once per request: the handler and, on a refusal, its page (errors.ts) show the same collector. */
export function pageContext(ctx: Context, req: Request, res: Response): PageContext {
  return ((res.locals as PageLocals).page ??= { req, res, collector: signedInCollector(ctx, req) });
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
