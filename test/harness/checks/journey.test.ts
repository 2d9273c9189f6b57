/**
 * The journey's page checks on built facts: the landing page, the won page's details, the
 * unavailable page's Rewards link. The state checks are tested on facts in
 * test/harness/learned-states.test.ts, the sandbox coverage in test/harness/evidence.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import type { PageSeen } from '../../../harness/browser/seen.js';
import { type Expectation, RunFacts } from '../../../harness/run/facts.js';
import { JOURNEY_CHECKS } from '../../../harness/checks/journey.js';

const AGENCY = 'http://127.0.0.1:3000';
const EMULATOR = 'http://127.0.0.1:4010';
const check = (id: string) => JOURNEY_CHECKS.find((candidate) => candidate.id === id)!;
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: EMULATOR, callback: `${AGENCY}/callback` }, '/tmp');
const page = (fields: Partial<PageSeen>): PageSeen => ({ scenario: 'landing', journey: 'main', environment: 'production', at: 1, url: `${AGENCY}/callback`, status: 200, shows: [], links: [], title: '', text: '', ...fields });
const expectation = (fields: Partial<Expectation>): Expectation => ({ scenario: 'landing', journey: 'main', environment: 'production', wanted: 'landing', met: false, page: page({}), ...fields });

describe('journey.landing_page', () => {
  const run = (expectations: Expectation[], campaignName?: string) => {
    const seen = facts();
    if (campaignName) seen.campaignName = campaignName;
    seen.expectations.push(...expectations);
    return check('journey.landing_page').evaluate(seen);
  };
  test('no landing page asked for: no verdict; a page neither recognised nor naming the campaign: inconclusive', () => {
    expect(run([])).toBeUndefined();
    expect(run([expectation({})], 'Nordkakao')).toMatchObject({ status: 'inconclusive' });
  });
  test('recognised, or naming the campaign, passes; an error page or a 4xx fails', () => {
    expect(run([expectation({ met: true, page: page({ shows: ['page:landing'] }) })])!.status).toBe('pass');
    expect(run([expectation({ page: page({ text: 'Win with Nordkakao this spring' }) })], 'Nordkakao')!.status).toBe('pass');
    expect(run([expectation({ page: page({ status: 404, text: 'Nordkakao' }) })], 'Nordkakao')).toMatchObject({ status: 'fail', reason: expect.stringContaining('HTTP 404') });
    expect(run([expectation({ page: page({ shows: ['page:error'] }) })])!.status).toBe('fail');
  });
});

describe('journey.won_details', () => {
  const run = (text: string, links: string[]) => {
    const seen = facts();
    seen.journeys.push({ scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [] });
    seen.calls.push({ seq: 1, at: 1, method: 'POST', path: '/session/entry', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 200, body: null, answer: { entry_state: 'won', prize: 'Cinema ticket', codes: ['CODE-1'], redemption_url: 'https://redeem.example/cinema' } } as unknown as ObservedCall);
    seen.expectations.push(expectation({ scenario: 'production-won', wanted: 'result', state: 'won', met: true, page: page({ scenario: 'production-won', text, links }) }));
    return check('journey.won_details').evaluate(seen);
  };
  test('no won page: no verdict', () => {
    expect(check('journey.won_details').evaluate(facts())).toBeUndefined();
  });
  test('the prize, every code and the redemption link pass; a missing code or link fails', () => {
    expect(run('You won a Cinema ticket. Your code: CODE-1', ['https://redeem.example/cinema/'])!.status).toBe('pass');
    expect(run('You won a Cinema ticket.', ['https://redeem.example/cinema'])).toMatchObject({ status: 'fail', reason: expect.stringContaining('0 of 1 code(s) shown') });
    expect(run('You won a Cinema ticket. Your code: CODE-1', [])).toMatchObject({ status: 'fail', reason: expect.stringContaining('redemption link missing') });
  });
});

describe('journey.unavailable_rewards_link', () => {
  const run = (links: string[]) => {
    const seen = facts();
    seen.expectations.push(expectation({ scenario: 'entry-unavailable', wanted: 'result', state: 'unavailable', met: true, page: page({ links }) }));
    return check('journey.unavailable_rewards_link').evaluate(seen);
  };
  test('no unavailable page shown: no verdict; a link to the Rewards page passes, none fails', () => {
    expect(check('journey.unavailable_rewards_link').evaluate(facts())).toBeUndefined();
    expect(run([`${EMULATOR}/rewards`])!.status).toBe('pass');
    expect(run([`${AGENCY}/`])).toMatchObject({ status: 'fail', reason: `the unavailable page has no link to ${EMULATOR}/rewards` });
  });
});
