/**
 * CSRF protection of the pages' forms: a random value in a SameSite=Strict, HttpOnly cookie that
 * each form repeats in a hidden field (double submit). Another site can neither read the cookie
 * nor make the browser send it with a cross-site POST.
 */
import { randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { safeEqual } from '../domain/secrets.js';
import { type Html, html } from './html.js';
import { readCookie } from './http.js';

const COOKIE = 'promo_csrf';

/** The hidden field for a form, setting the cookie on first use. */
export function csrfField(req: Request, res: Response): Html {
  let token = readCookie(req, COOKIE);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
    token = randomBytes(32).toString('base64url');
    res.cookie(COOKIE, token, { httpOnly: true, sameSite: 'strict', path: '/', secure: req.secure });
  }
  return html`<input type="hidden" name="csrf" value="${token}">`;
}

export function csrfValid(req: Request): boolean {
  const cookie = readCookie(req, COOKIE);
  const field = (req.body as Record<string, unknown> | undefined)?.csrf;
  return Boolean(cookie) && typeof field === 'string' && safeEqual(field, cookie!);
}
