/**
 * Sites as agencies build them (issue 47): the reference agency built in the shapes the contract
 * allows, verified with only what any agency must say (callback, preview, its log). One agency on
 * two origins, its pages on one and its API and callback on the other (`twoOrigins`): every check
 * passes, exit 0. The defects each shape could hide are failed on made-up facts
 * (agency-origins.test.ts, harness/checks/endpoint.test.ts).
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { useChromium } from '../support/chromium.js';
import { expectEveryCheckPassed } from './runs.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const browser = useChromium();
let world: HarnessWorld;

beforeAll(async () => {
  world = await harnessWorld({ approved: true, agency: { twoOrigins: true }, config: { trace: 'off' } });
}, 60_000);
afterAll(async () => world?.close());

test('one agency on two origins (pages on one, API and callback on the other): every check passes, exit 0', async () => {
  expect(new URL(world.agency.callbackUrl).origin).not.toBe(new URL(world.agency.previewUrl).origin);
  expectEveryCheckPassed([await world.verify({ browser: browser() })]);
}, 300_000);
