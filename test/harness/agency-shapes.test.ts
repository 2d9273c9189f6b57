/**
 * Sites as agencies build them (issue 47), in one build of the reference agency told only its log,
 * and one full verify:
 * - its pages name no state, so the states are learned from the preview, whose won page shows the
 *   sandbox prize (a voucher with its code and a redeem link) while production delivers concert
 *   tickets with neither: the page after the delivery is still the won page;
 * - the callback without parameters redirects to a home page that shows a loading message and
 *   draws the campaign later, from a fetch of its own (a second, then half a second more);
 * - its consent form is checked by the service, not by its server: a form sent with a box unticked
 *   goes to the service, and on its 422 the agency reads the session again and shows the form again.
 * Every check passes, exit 0. Built with defects, the same shapes still fail the checks the defects
 * are tied to, in one run of those checks.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed } from './runs.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const browser = useChromium();

describe('the reference agency with states named on no page, a production prize unlike the preview\'s, a home page that loads, consent checked by the service', () => {
  let world: HarnessWorld;
  let report: Report;
  beforeAll(async () => {
    world = await harnessWorld({ unconfigured: true, agency: { unmarkedStates: true, loadingLanding: true, consentCheckedBy: 'service' }, config: { trace: 'off' } });
    report = await world.verify({ browser: browser() });
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });
  const evidence = (id: string) => report.checks.find((check) => check.id === id)!.evidence.map((item) => item.label).join('\n');

  test('a full verify: every check passed, exit 0', () => {
    expectEveryCheckPassed([report]);
  });

  test('the landing page is read once its script drew the campaign, not while it said it was loading', () => {
    expect(evidence('journey.landing_page')).toMatch(/\/home: HTTP 200; shows page:landing; names the campaign "[^"]+"$/);
  });

  test('the page after the tickets were delivered is read as won, as the preview\'s voucher page taught', () => {
    expect(evidence('behaviour.polling_stops')).toMatch(/polling-stops-delivered: .*the page ends showing [^\n]*state:won/);
  });

  test('the unticked form reached the service and was answered 422; the 422 after the terms changed was judged on its own', () => {
    expect(evidence('consent.required')).toMatch(/form sent with the terms box unticked; 1 entry call\(s\) followed\b(?!, claiming)/);
    expect(evidence('consent.refresh_after_422')).toMatch(/^terms-change: 422 answered; session read again: yes/m);
  });
});

test('the same shapes with defects fail their tied checks: won shown as lost, ineligible shown as the failure page (as the preview shows it too), the box assumed ticked, no refresh after the 422', { timeout: 600_000 }, async ({ onTestFinished }) => {
  const tied = { 'won-shown-as-lost': 'journey.state.won', 'ineligible-shown-as-error': 'journey.state.ineligible', 'consent-assumed': 'consent.required', 'no-terms-refresh': 'consent.refresh_after_422' } as const;
  const world = await harnessWorld({
    unconfigured: true, defects: Object.keys(tied) as Array<keyof typeof tied>, agency: { unmarkedStates: true, loadingLanding: true, consentCheckedBy: 'service' }, config: { trace: 'off' },
  });
  onTestFinished(() => world.close());
  const report = await world.verify({ only: Object.values(tied), browser: browser() });
  expect(report.checks.map((check) => `${check.id}: ${check.status}`).sort(), JSON.stringify(report.checks.map((check) => check.reason))).toEqual(Object.values(tied).map((id) => `${id}: fail`).sort());
  expect(report.checks.find((check) => check.id === 'journey.state.ineligible')!.reason).toContain("the agency's failure page");
});
