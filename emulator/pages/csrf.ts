/**
 * CSRF protection of the pages' forms (the journey's and the dashboard's). Two checks, each
 * enough against a browser on its own:
 *
 * - The form's hidden value is an HMAC of the browser's id, a random value in a SameSite=Strict,
 *   HttpOnly cookie, keyed by a secret only this server holds. Cookies are not separated by port,
 *   so a page on another localhost port can plant its own id in the cookie; it cannot compute the
 *   value that goes with it, nor read the one the server gave the browser.
 * - A form posted from another origin is refused: by `Sec-Fetch-Site`, which browsers send and
 *   pages cannot forge, else by `Origin`. A client sending neither (curl, a test) is judged by the
 *   value alone.
 *
 * The secret lives with the data (store/form-secret.ts); app.ts hands it to the pages in
 * `app.locals.formSecret`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request } from 'express';
import { safeEqual } from '../domain/secrets.js';
import type { FormSecret } from '../store/form-secret.js';
import { type Html, html } from './html.js';
import { type Cookie, readCookie } from './http.js';

const COOKIE = 'promo_csrf';
const BROWSER_ID = /^[A-Za-z0-9_-]{43}$/;
/** What a browser says of a request it sends from a page of this origin, or from the address bar. */
const OWN_SITE = new Set(['same-origin', 'none']);

export interface CsrfLocals {
  formSecret: FormSecret;
}

const secretOf = (req: Request) => (req.app.locals as CsrfLocals).formSecret;

function formValue(secret: Buffer, browserId: string): string {
  return createHmac('sha256', secret).update(browserId).digest('base64url');
}

/**
 * The form id of the browser one answer is for: the one its cookie holds, or, when a form is
 * rendered for a browser without one, one made for it, which the answer's cookie gives it.
 */
export class FormId {
  private made: string | undefined;

  constructor(private readonly req: Request) {}

  /** The hidden field for a form; every form of the answer carries the same id. */
  field(): Html {
    return html`<input type="hidden" name="csrf" value="${formValue(secretOf(this.req).issue(), this.browserId())}">`;
  }

  /** The cookie the answer carries once its forms are rendered: the id made for it, if one was. */
  cookies(): Cookie[] {
    return this.made === undefined ? [] : [{ name: COOKIE, value: this.made, options: { httpOnly: true, sameSite: 'strict', path: '/', secure: this.req.secure } }];
  }

  private browserId(): string {
    const sent = readCookie(this.req, COOKIE);
    if (sent && BROWSER_ID.test(sent)) return sent;
    return (this.made ??= randomBytes(32).toString('base64url'));
  }
}

export function csrfValid(req: Request): boolean {
  if (fromAnotherOrigin(req)) return false;
  const browserId = readCookie(req, COOKIE);
  const field = (req.body as Record<string, unknown> | undefined)?.csrf;
  const secret = secretOf(req).check();
  return secret !== undefined && browserId !== undefined && BROWSER_ID.test(browserId) && typeof field === 'string' && safeEqual(field, formValue(secret, browserId));
}

function fromAnotherOrigin(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site !== undefined) return !OWN_SITE.has(site);
  const origin = req.get('origin');
  return origin !== undefined && origin !== `${req.protocol}://${req.get('host')}`;
}
