/** HTTP plumbing of the server-rendered pages: headers, form bodies, cookies, HTML errors. */
import express, { type CookieOptions, type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { type HttpError, closeIfUnread, writeError } from '../errors.js';
import { MAX_BODY_BYTES } from '../http.js';
import type { Logger } from 'pino';
import { type Html, html, toString } from './html.js';
import { STYLESHEET_HASH } from './styles.js';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src '${STYLESHEET_HASH}'`,
  "script-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Pages may carry request tokens, CSRF values or a one-time key secret: never cached, never sent
 * on as a referrer, never framed.
 */
export function sendPage(res: Response, status: number, page: Html): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    })
    .send(toString(page));
}

const parseForm = express.urlencoded({ extended: false, limit: MAX_BODY_BYTES, parameterLimit: 50 });

/** Form bodies; one announced over 100 KB is refused from its headers, before a byte of it is read. */
export const formBody: RequestHandler = (req, res, next) => {
  if (Number(req.headers['content-length']) > MAX_BODY_BYTES) return next({ type: 'entity.too.large' });
  parseForm(req, res, next);
};

/** A cookie an answer sets, or clears (`value` null), under its attributes. */
export interface Cookie {
  readonly name: string;
  readonly value: string | null;
  readonly options: CookieOptions;
}

/** Writes the cookies an answer carries, each with its attributes. */
export function setCookies(res: Response, cookies: readonly Cookie[] = []): Response {
  for (const { name, value, options } of cookies) {
    if (value === null) res.clearCookie(name, options);
    else res.cookie(name, value, options);
  }
  return res;
}

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.get('cookie') ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key !== name) continue;
    try {
      return decodeURIComponent(value.join('='));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** A single string field of a query or form body; repeated or missing fields give undefined. */
export function field(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The page a refusal answers with, and the cookies it sets (the form id its forms need). */
interface RefusalPage {
  readonly page: Html;
  readonly cookies?: readonly Cookie[];
}

/**
 * The one writer of a page area's refusals: an error of the area's class (its table of codes,
 * errors.ts), which a row's caller or input throws or its refusal returns, is answered with its
 * status and the page `render` makes of it; anything else goes on to `pageErrors`.
 */
export function refusalPages<Refusal extends HttpError>(area: abstract new (...args: never[]) => Refusal, render: (refusal: Refusal, req: Request, res: Response) => RefusalPage): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (!(error instanceof area)) return next(error);
    writeError(res, error, (answer) => {
      const { page, cookies } = render(error, req, answer);
      sendPage(setCookies(answer, cookies), error.status, page);
    });
  };
}

/** Errors inside page routes answer with an HTML page; the detail goes to the log only. */
export function pageErrors(logger: Logger, render: (title: string, message: Html) => Html): ErrorRequestHandler {
  return (error: { type?: string; status?: number }, req, res, _next) => {
    if (res.headersSent) return res.end();
    closeIfUnread(req, res);
    if (error.type === 'entity.too.large') return sendPage(res, 413, render('Form too large', html`<p>The form sent more than 100 KB.</p>`));
    if (error.status && error.status < 500) return sendPage(res, 400, render('Bad request', html`<p>The request could not be read.</p>`));
    logger.error({ err: error, method: req.method, path: req.path }, 'unexpected error in a page');
    sendPage(res, 500, render('Something went wrong', html`<p>The emulator hit an unexpected error; its log has the details.</p>`));
  };
}
