/**
 * A rejection passes only on positive evidence: an error page, no exchange of the code from the
 * probe however late, and a successful exchange seen in the same run.
 */
import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { PKCE_CHECKS } from '../../harness/checks/pkce.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator/client.js';
import { RunFacts } from '../../harness/run/facts.js';

const CODE = 'sc_code-of-the-journey';
const codeSha = createHash('sha256').update(CODE).digest('hex');
const check = PKCE_CHECKS.find((candidate) => candidate.id === 'state.tampered_rejected')!;

/** A tampered-state probe at t=1000 showing `page`, then the callback opened as issued at t=2000. */
function run(options: { errorPage?: boolean; exchanges: Array<{ at: number; sessionCreated: boolean }> }): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:3000', emulator: 'http://127.0.0.1:4010', callback: 'http://127.0.0.1:3000/callback' }, '/tmp');
  facts.journeys.push({
    scenario: 'state-tampered', journey: 'main', pack: { code: 'P1', outcome: 'lost' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    issuedCallback: `http://127.0.0.1:3000/callback?service_code=${CODE}&state=s`, completion: { at: 2000, status: 303, location: '/result', landed: 'http://127.0.0.1:3000/result' },
  });
  facts.probes.push({
    kind: 'tampered_state', scenario: 'state-tampered', journey: 'main', at: 1000, codeSha, url: 'http://127.0.0.1:3000/callback?service_code=…&state=…',
    page: options.errorPage === false ? { status: 200, url: 'http://127.0.0.1:3000/result', markers: { page: 'result' } } : { status: 400, url: 'http://127.0.0.1:3000/callback', markers: { page: 'error', error: 'state_mismatch' } },
  });
  facts.calls.push(...options.exchanges.map((exchange, index): ObservedCall => ({
    seq: index + 1, at: exchange.at, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: exchange.sessionCreated ? 7 : null, pack: 'P1', scenario: null,
    status: exchange.sessionCreated ? 201 : 400, body: {}, code_sha256: codeSha, answer: exchange.sessionCreated ? { session_created: true } : { error: 'invalid_grant' },
  })));
  return facts;
}

test('an error page, and the code exchanged once only, by the callback opened as issued: passes, with that exchange as the control', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 2100, sessionCreated: true }] }))!;
  expect(verdict.status).toBe('pass');
  expect(verdict.evidence.at(-1)!.label).toMatch(/^control: state-tampered's callback opened as issued was exchanged \(HTTP 201\)/);
});

test('an exchange from the probe fails, even one made in the background after the probe page loaded', () => {
  const verdict = check.evaluate(run({ exchanges: [{ at: 1900, sessionCreated: true }, { at: 2100, sessionCreated: false }] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['fail', 'the agency exchanged the code (1 call(s) to POST /sessions, a session was created)']);
});

test('no error on the page fails', () => {
  expect(check.evaluate(run({ errorPage: false, exchanges: [{ at: 2100, sessionCreated: true }] }))!.status).toBe('fail');
});

test('without any successful exchange in the run, a missing exchange proves nothing: fails', () => {
  const verdict = check.evaluate(run({ exchanges: [] }))!;
  expect([verdict.status, verdict.reason]).toEqual(['fail', 'not proven: this run saw no successful exchange, so a missing exchange proves nothing']);
});
