/**
 * An agency reached over https on a host of its own (a deployed preview, a tunnel): the harness
 * takes its callback, as the brand's console does (https on any host; plain http only on
 * loopback: localhost, 127.0.0.1, [::1]), and there its cookies must be Secure. On plain-http loopback a browser
 * cannot keep a Secure cookie, so its absence is only a warning. Unit tests of the rule and of the
 * check on made-up facts: no TLS needed.
 */
import { describe, expect, test } from 'vitest';
import { secureCookieRequired } from '../../harness/checks/callback.js';
import { evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from '../../harness/scenarios/load.js';
import { resolveTarget } from '../../harness/target.js';

describe('which callbacks the harness takes', () => {
  test('https on another host, and plain http on localhost or 127.0.0.1', () => {
    for (const callback of ['https://agency.example/callback', 'https://abc123.tunnel.example:8443/cb', 'http://localhost:3000/callback', 'http://127.0.0.1:3000/callback']) {
      expect(resolveTarget({ callback }).callback, callback).toBe(callback);
    }
    expect(resolveTarget({ callback: 'https://agency.example/callback', preview: 'https://agency.example/preview' }).preview).toBe('https://agency.example/preview');
  });

  test('plain http on any other host is refused before anything runs, as the console would refuse it', () => {
    expect(() => resolveTarget({ callback: 'http://agency.example/callback' })).toThrow(
      '--callback http://agency.example/callback must use https (plain http is accepted only for localhost, 127.0.0.1 and [::1])',
    );
    expect(() => resolveTarget({ callback: 'https://agency.example/callback', preview: 'http://10.0.0.5/preview' })).toThrow(
      '--preview http://10.0.0.5/preview must use https',
    );
  });
});

describe('callback.cookie_flags: Secure is required over https, on any host', () => {
  test('the rule: https anywhere and plain http off loopback require it; plain http on loopback does not', () => {
    expect(secureCookieRequired('https://agency.example')).toBe(true);
    expect(secureCookieRequired('https://127.0.0.1:8443')).toBe(true);
    expect(secureCookieRequired('https://localhost')).toBe(true);
    expect(secureCookieRequired('http://agency.example')).toBe(true);
    expect(secureCookieRequired('http://127.0.0.1:3000')).toBe(false);
    expect(secureCookieRequired('http://localhost:3000')).toBe(false);
    expect(secureCookieRequired('http://[::1]:3000')).toBe(false);
  });

  const check = CHECKS.find((candidate) => candidate.id === 'callback.cookie_flags')!;
  const { scenarios } = loadScenarios([BUILT_IN_SCENARIOS], new Set(CHECKS.map((candidate) => candidate.id)));

  /** A run in which every scenario ran to its end and the agency at `origin` set this cookie on its callback. */
  function verdict(origin: string, cookie: string) {
    const facts = new RunFacts(ConfigSchema.parse({}), { agency: origin, emulator: 'http://127.0.0.1:4010', callback: `${origin}/callback` }, '/tmp');
    for (const scenario of scenarios) facts.outcomes.set(scenario.id, { id: scenario.id, title: scenario.title, status: 'passed', durationMs: 1 });
    facts.responses.push({ scenario: 'production-won', journey: 'main', method: 'GET', url: `${origin}/callback?state=x`, status: 302, headers: {}, setCookies: [cookie] });
    const [report] = evaluateChecks(facts, [check], scenarios);
    return { status: report!.status, reason: report!.reason };
  }

  test('an agency on https without Secure fails, with Secure passes', () => {
    expect(verdict('https://agency.example', 'agency_session=abc; Path=/; HttpOnly; SameSite=Lax')).toEqual({ status: 'fail', reason: 'agency_session is not Secure' });
    expect(verdict('https://agency.example', 'agency_session=abc; Path=/; HttpOnly; Secure; SameSite=Lax')).toMatchObject({ status: 'pass' });
  });

  test('on plain-http loopback the missing Secure is a warning, and the other flags still fail', () => {
    expect(verdict('http://127.0.0.1:3000', 'agency_session=abc; Path=/; HttpOnly; SameSite=Lax')).toMatchObject({ status: 'warn', reason: expect.stringMatching(/^agency_session is not Secure: accepted on plain-http loopback/) });
    expect(verdict('http://127.0.0.1:3000', 'agency_session=abc; Path=/; SameSite=Lax')).toEqual({ status: 'fail', reason: 'agency_session is readable by page scripts (no HttpOnly)' });
  });
});
