/** The entry endpoint checks on built facts: nothing probed, not found, a violation, a control, a clean run. */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import type { EndpointProbe } from '../../../harness/run/endpoint-probe-facts.js';
import { RunFacts } from '../../../harness/run/facts.js';
import { ENDPOINT_CHECKS } from '../../../harness/checks/endpoint.js';

const check = (id: string) => ENDPOINT_CHECKS.find((candidate) => candidate.id === id)!;
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
const entry = (seq: number): ObservedCall => ({ seq, at: seq, method: 'POST', path: '/session/entry', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null });
/** Forgeries sent after calls 1 and 2, the burst after call 3. */
const probe = (burst: number[]): EndpointProbe => ({
  scenario: 'entry-endpoint', journey: 'main', pack: 'P1', caught: { method: 'POST', path: '/entry', tokenParts: ['body _csrf'] },
  csrf: [{ variant: 'missing', after: 1, status: 403 }, { variant: 'forged', after: 2, status: 403 }], burst, burstAfter: 3,
});
const run = (id: string, probes: EndpointProbe[], entries: number[]) => {
  const seen = facts();
  seen.endpoint.push(...probes);
  seen.calls.push(...entries.map(entry));
  return check(id).evaluate(seen);
};

describe('endpoint.csrf', () => {
  test('nothing probed: no verdict; no request caught: inconclusive, naming what to configure', () => {
    expect(run('endpoint.csrf', [], [])).toBeUndefined();
    expect(run('endpoint.csrf', [{ scenario: 'entry-endpoint', journey: 'main', pack: 'P1', missed: 'no request when the form was sent', csrf: [], burst: [] }], [])).toMatchObject({ status: 'inconclusive', reason: 'the entry endpoint was not found: no request when the form was sent' });
  });
  test('forgeries refused and the control entered: pass; a forgery that reached the service: fail; no control entered: inconclusive', () => {
    expect(run('endpoint.csrf', [probe([200, 429])], [1, 4])!.status).toBe('pass');
    expect(run('endpoint.csrf', [probe([200, 429])], [3, 4])).toMatchObject({ status: 'fail', reason: 'the request with its CSRF token forged was entered (HTTP 403)' });
    expect(run('endpoint.csrf', [probe([403, 429])], [1])).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('did not reach the service either') });
  });
  test('an API that lets any site read its answers with the cookies (a credentialed CORS answer to the forging origin) fails, though every forgery was refused (issue 47 item 4)', () => {
    const readable = probe([200, 429]);
    readable.csrf[0] = { ...readable.csrf[0]!, readableBy: 'https://elsewhere.example' };
    expect(run('endpoint.csrf', [readable], [4])).toMatchObject({ status: 'fail', reason: expect.stringContaining('Access-Control-Allow-Origin: https://elsewhere.example with Access-Control-Allow-Credentials: true') });
  });
});

describe('endpoint.rate_limited', () => {
  test('a burst that meets a 429 passes, one that never does fails', () => {
    expect(run('endpoint.rate_limited', [probe([200, 200, 429])], [])).toMatchObject({ status: 'pass', reason: '429 after 5 requests' });
    expect(run('endpoint.rate_limited', [probe([200, 200, 200])], [])).toMatchObject({ status: 'fail', reason: '5 requests in a row from one browser, none refused with 429' });
  });
});

describe("a page confirming the consent form once sent, whose request alone enters (issue 47 item 3)", () => {
  /** The form's request probed first (forgeries after calls 1 and 2, its own after 3, entering nothing), then the confirming page's (forgeries after 5 and 6, its own after 7). */
  const both = (): EndpointProbe[] => [probe([303, 303, 429]), { ...probe([303]), caught: { method: 'POST', path: '/entry/confirm', tokenParts: ['field csrf'] }, csrf: [{ variant: 'missing', after: 5, status: 303 }, { variant: 'forged', after: 6, status: 303 }], burstAfter: 7, confirms: true }];
  test("its own request entering is the control: pass; its forgery entering: fail; the burst judged on the form's endpoint alone", () => {
    expect(run('endpoint.csrf', both(), [8])).toMatchObject({ status: 'pass', evidence: expect.arrayContaining([{ label: "the page confirming the consent form once sent sends POST /entry/confirm; its token in field csrf" }]) });
    expect(run('endpoint.csrf', both(), [6, 8])).toMatchObject({ status: 'fail', reason: 'the request with its CSRF token missing was entered (HTTP 303)' });
    expect(run('endpoint.rate_limited', both(), [8])).toMatchObject({ status: 'pass', reason: '429 after 5 requests' });
  });
});
