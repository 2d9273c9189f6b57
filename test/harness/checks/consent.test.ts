/**
 * The entry body and consent form checks on built facts: nothing observed, a violation, a clean
 * run. How each box's role is found is tested in test/harness/consent-boxes.test.ts, and the
 * terms edits in test/harness/unprobed-rules.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { ConfigSchema } from '../../../harness/config.js';
import type { ObservedCall } from '../../../harness/emulator-client/client.js';
import type { ConsentBox } from '../../../harness/browser/in-page.js';
import type { ConsentView } from '../../../harness/browser/seen.js';
import { type JourneyFacts, RunFacts } from '../../../harness/run/facts.js';
import { CONSENT_CHECKS } from '../../../harness/checks/consent.js';

const check = (id: string) => CONSENT_CHECKS.find((candidate) => candidate.id === id)!;
const facts = () => new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
const journey = (consent: ConsentView[] = []): JourneyFacts => ({ scenario: 'consent', journey: 'main', pack: { code: 'PACK-1', outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent, submissions: [] });
const box = (role: ConsentBox['role'], checked = false): ConsentBox => ({ role, by: 'structure', label: `${role} box`, checked, required: role === 'terms' });
const view = (boxes: ConsentBox[]): ConsentView => ({ label: 'first', at: 1, url: 'http://127.0.0.1:3000/entry', hasForm: true, boxes, hidden: [], termsText: 'Terms', termsVersion: 'v1', probeElements: 0, unsafeLinks: [] });
const entry = (seq: number, body: unknown, fields: Partial<ObservedCall> = {}): ObservedCall => ({ seq, at: seq, method: 'POST', path: '/session/entry', environment: 'production', key_id: 2, session_id: 1, pack: 'PACK-1', scenario: null, status: 200, body, ...fields });

describe('consent.not_preselected', () => {
  const run = (boxes: ConsentBox[]) => {
    const seen = facts();
    seen.journeys.push(journey([view(boxes)]));
    return check('consent.not_preselected').evaluate(seen);
  };
  test('no consent form seen: no verdict; every box unticked: pass; any box ticked when the page opens: fail', () => {
    expect(check('consent.not_preselected').evaluate(facts())).toBeUndefined();
    expect(run([box('terms'), box('age'), box('marketing')])!.status).toBe('pass');
    expect(run([box('terms'), box('marketing', true)])).toMatchObject({ status: 'fail', reason: 'consent: "marketing box" is ticked when the page opens' });
  });
});

describe('entry.no_forbidden_fields', () => {
  const run = (calls: ObservedCall[]) => {
    const seen = facts();
    seen.journeys.push(journey());
    seen.calls.push(...calls);
    return check('entry.no_forbidden_fields').evaluate(seen);
  };
  const consent = { accepted: true, age_confirmed: true, terms_version: 'v1' };
  test('no entry: no verdict; consent alone passes', () => {
    expect(run([])).toBeUndefined();
    expect(run([entry(1, { consent })])!.status).toBe('pass');
  });
  test('an extra field, the pack code as a value, or a sandbox entry carrying more, fails', () => {
    expect(run([entry(1, { consent, country: 'DE' })])).toMatchObject({ status: 'fail', reason: expect.stringContaining('fields country') });
    expect(run([entry(1, { consent: { ...consent, note: 'PACK-1' } })])).toMatchObject({ status: 'fail', reason: expect.stringContaining('carries "PACK-1"') });
    expect(run([entry(1, { consent, email: 'x@example.test' }, { environment: 'sandbox', pack: null, scenario: 'won', status: 400, answer: { error: 'invalid_request' } } as Partial<ObservedCall>)])).toMatchObject({ status: 'fail', reason: expect.stringContaining("the preview's won entry: fields email") });
  });
});

describe('entry.terms_version_echoed', () => {
  const run = (sent: string) => {
    const seen = facts();
    seen.journeys.push(journey());
    seen.calls.push(
      { ...entry(1, null), method: 'GET', path: '/session', answer: { terms_version: 'Spring-2026.B' } } as ObservedCall,
      entry(2, { consent: { accepted: true, age_confirmed: true, terms_version: sent } }),
    );
    return check('entry.terms_version_echoed').evaluate(seen);
  };
  test('no entry with a version: no verdict; the session\'s version as served passes; any other, even by case only, fails', () => {
    expect(check('entry.terms_version_echoed').evaluate(facts())).toBeUndefined();
    expect(run('Spring-2026.B')!.status).toBe('pass');
    expect(run('spring-2026.b')).toMatchObject({ status: 'fail', reason: 'consent: sent "spring-2026.b", the session\'s terms are "Spring-2026.B"' });
  });
});

describe('consent.refresh_after_422 judges only the 422 that follows the run changing the terms', () => {
  const refused = (seq: number) => entry(seq, { consent: { accepted: false, age_confirmed: true, terms_version: 'v1' } }, { status: 422, answer: { error: 'consent_required' } } as Partial<ObservedCall>);
  const reread = (seq: number) => ({ ...entry(seq, null), method: 'GET', path: '/session', answer: { terms_version: 'v2' } }) as ObservedCall;
  const submission = (at: number, accept: boolean) => ({ at, accept, age: true, bypass: !accept, boxesFound: { terms: true, age: true }, url: 'http://127.0.0.1:3000/entry' });
  const run = (journeys: JourneyFacts[], calls: ObservedCall[], edits: RunFacts['termsEdits'] = []) => {
    const seen = facts();
    seen.journeys.push(...journeys);
    seen.calls.push(...calls);
    seen.termsEdits.push(...edits);
    return check('consent.refresh_after_422').evaluate(seen);
  };
  const edit = (at: number) => ({ scenario: 'terms-change', journey: 'main', at, country: null, set: { version: 'v2' } });

  test("consent.required's unticked post answered 422, the form shown again and never read: no verdict, not a failure", () => {
    // The agency asks the service with the box unticked; on the 422 it reads the session and shows the form: the contract's behaviour.
    const probed = { ...journey([view([box('terms')])]), submissions: [submission(5, false)] };
    expect(run([probed], [refused(6), reread(7)])).toBeUndefined();
  });

  test('beside it, the terms-change journey is judged on its own 422 and the form read after it', () => {
    const probed = { ...journey([view([box('terms')])]), submissions: [submission(5, false)] };
    const changed = (after: ConsentView[]): JourneyFacts => ({
      ...journey([view([box('terms')]), ...after]), scenario: 'terms-change', pack: { code: 'PACK-2', outcome: 'lost' }, submissions: [submission(20, true)],
    });
    const calls = [refused(6), reread(7), { ...refused(21), pack: 'PACK-2', session_id: 2 }, { ...reread(22), pack: 'PACK-2', session_id: 2 }];
    const again = { ...view([box('terms')]), label: 'after_change', at: 30, termsVersion: 'v2' };
    expect(run([probed, changed([again])], calls, [edit(10)])).toMatchObject({ status: 'pass', observed: 1 });
    expect(run([probed, changed([])], calls, [edit(10)])).toMatchObject({ status: 'fail', reason: 'terms-change: no consent form after the 422' });
    // A 422 to a fully ticked form with no change of terms by this scenario is not what the check judges either.
    expect(run([changed([])], calls.slice(2))).toBeUndefined();
  });
});
