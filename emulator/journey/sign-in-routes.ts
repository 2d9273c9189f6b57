/** The collector's sign-in and sign-out, rows of the journey's pages whose answers carry the session cookie. @see spec §4.3 step 1 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { anyone, endpointTable } from '../endpoints.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody } from '../pages/http.js';
import { type SignInOffer, signIn, signInOffer, signOut } from '../use-cases/journey/sign-in.js';
import { validate } from '../validation.js';
import { JourneyError } from './errors.js';
import { pageContext, safeNext, shownPage } from './page-context.js';
import { SESSION_CLEARED, sessionCookie, sessionOf } from './sign-in.js';
import type { PageContext } from './views/shell.js';
import { type SignInForm, signInPage } from './views/sign-in.js';

/** A text field of a form or a query; absent, repeated or not text, it reads as absent. */
const text = z.string().optional().catch(undefined);
const SignInQuery = z.object({ next: text });
const SignInFields = z.object({ next: text, collector_id: text, email: text, country: text, city: text });

export function signInRoutes(ctx: Context): Router {
  const router = Router();
  const page = endpointTable(router, { ctx });
  const form = endpointTable(router, { ctx, body: formBody });
  const caller = pageContext.bind(undefined, ctx);
  /** The sign-in page, and, after a refused form, what it said and what is wrong with it. */
  const shownForm = (shown: PageContext, status: number, next: string, { collectors, scanned }: SignInOffer, sent: Partial<SignInForm> = {}) =>
    shownPage(shown, status, signInPage(shown, collectors, { next, scanned, ...sent }));

  page({
    method: 'get', path: '/sign-in', caller,
    input: (req) => safeNext(validate(SignInQuery, req.query).next),
    run: (on, _shown, next) => signInOffer(on, next),
    answer: (offer, shown, next) => shownForm(shown, 200, next, offer),
  });
  form({
    method: 'post', path: '/sign-in', caller,
    // The form's CSRF token is checked before anything it says is read.
    input: (req) => {
      if (!csrfValid(req)) throw new JourneyError('form_expired');
      const { next, collector_id, email, country, city } = validate(SignInFields, req.body);
      return { next: safeNext(next), choice: { collectorId: collector_id, email, country, city, previous: sessionOf(req) }, secure: req.secure };
    },
    run: (on, _shown, { next, choice }) => signIn(on, next, choice),
    refusal: ({ offer, entered, problems }, shown, { next }) => shownForm(shown, 400, next, offer, entered && { ...entered, city: entered.city ?? '', problems }),
    answer: ({ session }, _shown, { next, secure }) => ({ status: 303, location: next, cookies: [sessionCookie(ctx, session, secure)] }),
  });
  form({
    method: 'post', path: '/sign-out', caller: anyone,
    input: (req) => {
      if (!csrfValid(req)) throw new JourneyError('form_expired');
      return sessionOf(req);
    },
    run: (on, _anyone, session) => signOut(on, session),
    answer: () => ({ status: 303, location: '/promotions', cookies: [SESSION_CLEARED] }),
  });

  return router;
}
