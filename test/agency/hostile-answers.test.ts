/**
 * The defects that answer what a careless or hostile agency does: a landing page in plain text
 * with 400, and terminal escapes in a header, a cookie name and a redirect. Node's own client
 * refuses control characters in headers, as Chromium does not: they are read here with the
 * lenient parser. @see spec §1 rules, §4.3, §5 rule 4
 */
import { type IncomingHttpHeaders, get } from 'node:http';
import { describe, expect } from 'vitest';
import { TestBrowser } from './test-browser.js';
import { callbackUrl, rule } from './world.js';

/** A GET read as a browser reads it, control characters in headers included. */
function leniently(url: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    get(url, { insecureHTTPParser: true }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers }));
    }).on('error', reject);
  });
}

describe('what the callback answers', () => {
  rule({
    defect: 'landing-answers-plain-400',
    title: 'without service_request is the landing page, as HTML',
    observe: async (w) => {
      const page = await new TestBrowser().open(w.agency.callbackUrl);
      return { status: page.status, type: page.headers.get('content-type')?.split(';')[0] };
    },
    holds: { status: 200, type: 'text/html' },
    broken: { status: 400, type: 'text/plain' },
  });

  rule({
    defect: 'cache-control-with-escapes',
    title: 'carries Cache-Control: no-store, nothing a terminal would obey',
    observe: async (w) => ({ cacheControl: (await leniently(w.agency.callbackUrl)).headers['cache-control'] }),
    holds: { cacheControl: 'no-store' },
    broken: { cacheControl: 'private, max-age=300\u001b]0;harness-pwned\u0007\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007' },
  });

  rule({
    defect: 'cookie-name-with-escapes',
    title: 'sets no cookie a script can read, nor one named with escapes',
    observe: async (w) => ({ cookies: (await leniently(w.agency.callbackUrl)).headers['set-cookie'] ?? [] }),
    holds: { cookies: [] },
    broken: { cookies: ['pref\u001b[2J=1; Path=/; SameSite=Lax'] },
  });

  rule({
    defect: 'redirect-with-escapes',
    title: 'redirects after the exchange to a clean URL, without a fragment of escapes',
    observe: async (w) => {
      const browser = new TestBrowser();
      const returned = await browser.request('GET', await callbackUrl(w, browser));
      return { location: returned.headers.get('location') };
    },
    holds: { location: '/result' },
    broken: { location: expect.stringMatching(/^\/result\?service_code=[^&]+&state=[^#]+#%1B%5B2K%0DPASS$/) },
  });
});
