/** The authorize page at `authorize_url`; its refusals are pages (errors.ts). @see spec §2.2 authorize_url, §4.3 steps 4 and 5 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { endpointTable } from '../endpoints.js';
import { csrfValid } from '../pages/csrf.js';
import { formBody } from '../pages/http.js';
import { authorizeView, continueAuthorize } from '../use-cases/journey/authorize.js';
import { JourneyError, authorizeError } from './errors.js';
import { pageContext, shownPage } from './page-context.js';
import { authorizePage } from './views/authorize.js';

export function authorizeRoutes(ctx: Context): Router {
  const router = Router();
  const page = endpointTable(router, { ctx });
  const form = endpointTable(router, { ctx, body: formBody });
  const caller = pageContext.bind(undefined, ctx);

  page({
    method: 'get', path: '/authorize', caller,
    input: (req): unknown => req.query,
    run: (on, { collector }, query) => authorizeView(on, collector, query),
    refusal: authorizeError,
    answer: ({ request, promotion, brand, origin }, shown) => shownPage(shown, 200, authorizePage(shown, promotion, brand, request, origin)),
  });
  form({
    method: 'post', path: '/authorize', caller,
    // The form's CSRF token is checked before anything it says is read.
    input: (req): unknown => {
      if (!csrfValid(req)) throw new JourneyError('form_expired');
      return req.body;
    },
    run: (on, { collector }, body) => continueAuthorize(on, collector, body),
    refusal: authorizeError,
    answer: ({ location }) => ({ status: 303, location, headers: { 'Cache-Control': 'no-store' } }),
  });

  return router;
}
