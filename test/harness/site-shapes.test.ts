/**
 * Sites as agencies build them (issue 47, items 3 and 4): the reference agency in shapes the
 * contract allows, verified with only what any agency must say (callback, preview, its log), in
 * one build and one run: its pages on one origin and its API and callback on another
 * (`twoOrigins`), a page asking the date of birth before the consent form (`agePage`), and the
 * consent form in a native <dialog> behind a button (`consentInDialog`), and a page confirming the
 * form once sent, whose button alone sends the entry (`confirmPage`). Every check passes, exit 0,
 * and the evidence says what the harness filled and clicked to reach the form and to confirm it. The defects each
 * shape could hide fail their checks in the defect matrix, each on its shape (defect-cases.ts,
 * defects.test.ts), and on made-up facts or in a page of their own (agency-origins.test.ts,
 * checks/endpoint.test.ts, consent-boxes.test.ts).
 */
import { expect, test } from 'vitest';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed } from './runs.js';
import { useHarnessWorld } from './world.js';

const browser = useChromium();
const started = useHarnessWorld({ approved: true, agency: { twoOrigins: true, agePage: true, consentInDialog: true, confirmPage: true }, config: { trace: 'off' } });

test('one agency on two origins, an age step, its consent form in a dialog behind a button, a confirm page after it: every check passes, exit 0, the clicks in the evidence', async () => {
  const world = started();
  expect(new URL(world.agency.callbackUrl).origin).not.toBe(new URL(world.agency.previewUrl).origin);
  const report = await world.verify({ browser: browser() });
  expectEveryCheckPassed([report]);
  const opened = report.checks.find((check) => check.id === 'consent.not_preselected')!.evidence.map((item) => item.label);
  expect(opened.some((label) => /after the consent form was sent, a page at \S+: the harness filled its form as the journey's person and clicked "Confirm my entry"/.test(label))).toBe(true);
  expect(opened.some((label) => /a step before the consent form at \S+: the harness filled its form as the journey's person and clicked "Next"; the form was hidden; the harness clicked "Send my entry" \(the one button of the main content\)/.test(label))).toBe(true);
}, 300_000);
