/**
 * The collector's browser session, in a cookie that is HttpOnly and SameSite=Lax, so it travels
 * with the top-level redirect back from the agency to the authorize page. The sign-in itself is a
 * use case (use-cases/journey/sign-in.ts); its rows carry the cookie on their answer.
 * @see spec §4.3 step 1, §5 (experience) rule 3
 */
import type { Request } from 'express';
import type { Context } from '../context.js';
import type { Cookie } from '../pages/http.js';
import { readCookie } from '../pages/http.js';
import { collectorOfBrowserSession } from '../store/browser-sessions.js';
import { type Collector, findCollector } from '../store/collectors.js';

const COOKIE = 'promo_session';

/** The browser session the request carries, if any. */
export function sessionOf(req: Request): string | undefined {
  return readCookie(req, COOKIE);
}

export function signedInCollector(ctx: Context, req: Request): Collector | undefined {
  const token = sessionOf(req);
  const id = token ? collectorOfBrowserSession(ctx.db, token, ctx.clock.now()) : undefined;
  return id === undefined ? undefined : findCollector(ctx.db, id);
}

/** The cookie of a new session; Secure when the request is, or when the public URL says the browser is on https (a tunnel that ends TLS brings plain http). */
export function sessionCookie(ctx: Context, session: string, secureRequest: boolean): Cookie {
  return { name: COOKIE, value: session, options: { httpOnly: true, sameSite: 'lax', path: '/', secure: secureRequest || ctx.config.baseUrl.startsWith('https:') } };
}

export const SESSION_CLEARED: Cookie = { name: COOKIE, value: null, options: { path: '/' } };
