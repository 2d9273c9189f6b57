/** A pack's address, `/q/<code>`: the scan and its hand-off, a row of the journey's pages. @see spec §1 rules, §4.3 steps 1 and 2 */
import { Router } from 'express';
import type { Context } from '../context.js';
import { type PageAnswer, type RedirectAnswer, endpointTable } from '../endpoints.js';
import { type Handoff, type PackRefusal, visitPack } from '../use-cases/journey/scan.js';
import { pageContext, shownPage, signInRedirect } from './page-context.js';
import { type PageContext, messagePage } from './views/shell.js';

export function scanRoutes(ctx: Context): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx });
  const caller = pageContext.bind(undefined, ctx);

  // A GET row answers HEAD too: `scan` false, nothing is recorded.
  endpoint({
    method: 'get', path: '/q/:code', caller,
    input: (req) => ({ code: req.params.code!, scan: req.method !== 'HEAD', userAgent: req.get('user-agent') }),
    run: (on, { collector }, visit) => visitPack(on, collector, visit),
    refusal: (reason, shown, { code }) => notScanned(shown, reason, code),
    answer: ({ code, handoff }, shown) => (handoff ? handedOff(shown, code, handoff) : shownPage(shown, 200, messagePage(shown, 'Scan this pack', 'Open this address in a browser to scan the pack.'))),
  });

  return router;
}

function notScanned(shown: PageContext, reason: PackRefusal, asked: string): PageAnswer | RedirectAnswer {
  switch (reason.kind) {
    case 'unknown_pack':
      return shownPage(shown, 404, messagePage(shown, 'Pack not found', `No pack has the code ${asked}. Check the code printed on the pack and scan it again.`, { href: '/promotions', label: 'See the promotions' }));
    case 'recalled':
      return shownPage(shown, 200, messagePage(shown, 'Product recall', `This product (${reason.sku}) has been recalled. Please do not consume it; the brand's recall notice tells you how to return it. It cannot be entered in a promotion.`));
    case 'signed_out':
      return signInRedirect(`/q/${reason.code}`);
  }
}

function handedOff(shown: PageContext, code: string, handoff: Handoff): PageAnswer | RedirectAnswer {
  switch (handoff.to) {
    case 'no_promotion':
      return shownPage(shown, 200, messagePage(shown, 'No promotion on this pack', 'Thank you for scanning. No promotion is running on this product at the moment.'));
    case 'hosted':
      return { status: 303, location: `/play/${encodeURIComponent(code)}` };
    case 'agency':
      // The Location carries service_request: not cached, not passed on as a referrer.
      return { status: 303, location: handoff.location, headers: { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' } };
  }
}
