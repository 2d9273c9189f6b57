/**
 * The approval a run gave is taken back at its end (issue 40 item 5): the brand's console never
 * shows "Approved" for a build the brand did not approve. The harness's emulator client against
 * an emulator in memory, approved as a run approves it.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { approve, overview } from '../../emulator/console/lifecycle.js';
import { envValues } from '../../emulator/control/env.js';
import { createLogger } from '../../emulator/logger.js';
import { type Running, startServer } from '../../emulator/server.js';
import { EmulatorClient } from '../../harness/emulator-client/client.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { DEFAULT_FIXTURE } from '../world.js';

const CALLBACK = 'http://127.0.0.1:3000/callback';
const PREVIEW = 'http://127.0.0.1:3000/preview';
let emulator: Running;

beforeAll(async () => {
  emulator = await startServer({ fixture: DEFAULT_FIXTURE, data: ':memory:', host: '127.0.0.1', port: 0, logger: createLogger('emulator', { level: 'silent' }) });
});
afterAll(async () => {
  await emulator.close();
});

test('withdrawing leaves the promotion unapproved, its callback URLs as the run registered them, and the history saying so', async () => {
  const client = new EmulatorClient(emulator.baseUrl);
  await client.setCallbacks({ production: CALLBACK, preview: PREVIEW });
  await coverSandbox(fetchPost(emulator.baseUrl, envValues(emulator.world).sandbox_key!));
  expect(await client.approve()).toEqual({ ok: true });
  expect((await client.overview()).experience.approved_at).not.toBeNull();

  await client.withdrawApproval(CALLBACK);
  const after = overview(emulator.world);
  expect(after.experience.approved_at).toBeNull();
  expect(after.experience.callbacks).toEqual({ production: CALLBACK, preview: PREVIEW });
  expect(after.history.map((event) => event.action).slice(0, 3)).toEqual(['cleared', 'cleared', 'approved']);
  // Approving is the brand's again: through the previews (a later run), or by the brand once they ran.
  expect(approve(emulator.world).ok).toBe(false);
});
