/**
 * Sites as agencies build them (issue 47, items 3 and 4): the reference agency in shapes the
 * contract allows, verified with only what any agency must say (callback, preview, its log), in
 * one build and one run: its pages on one origin and its API and callback on another
 * (`twoOrigins`), its consent form in a native <dialog> behind a button (`consentInDialog`). Every
 * check passes, exit 0, and the evidence says what the harness clicked to show the form. The
 * defects each shape could hide fail on made-up facts or in a page of their own
 * (agency-origins.test.ts, harness/checks/endpoint.test.ts, consent-boxes.test.ts).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed } from './runs.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const browser = useChromium();
let world: HarnessWorld;

beforeAll(async () => {
  world = await harnessWorld({ approved: true, agency: { twoOrigins: true, consentInDialog: true }, config: { trace: 'off' } });
}, 60_000);
afterAll(async () => world?.close());

test('one agency on two origins, its consent form in a dialog behind a button: every check passes, exit 0, the click in the evidence', async () => {
  expect(new URL(world.agency.callbackUrl).origin).not.toBe(new URL(world.agency.previewUrl).origin);
  const report = await world.verify({ browser: browser() });
  expectEveryCheckPassed([report]);
  const opened = report.checks.find((check) => check.id === 'consent.not_preselected')!.evidence.map((item) => item.label);
  expect(opened.some((label) => /the form was hidden; the harness clicked "Send my entry" \(the one button of the main content\)/.test(label))).toBe(true);
}, 300_000);
