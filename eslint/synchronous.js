// The experience API answers synchronously (decisions/013): its writes join the turn's shared
// transaction and its answer waits for that commit, neither of which survives an `await`. So the
// modules on its request path hold no async function and no `await`: `npm run lint` says so.

import { existing } from './named-files.js';

/** The modules of the experience API's request path, from the package root. */
export const REQUEST_PATH_FILES = existing([
  'emulator/app.ts', 'emulator/http.ts', 'emulator/endpoints.ts', 'emulator/control/recorder.ts', 'emulator/control/observations.ts', 'emulator/control/faults.ts',
  'emulator/experience/**/*.ts', 'emulator/use-cases/**/*.ts', 'emulator/fast-path/**/*.ts', 'emulator/store/**/*.ts', 'emulator/domain/**/*.ts',
]);

/**
 * Use cases that go on after their answer, on turns of their own, each step in a transaction of its
 * own (eslint/timer-writes.js holds it): a batch's generation and a seed's chunks. Off the request
 * path, so they may await.
 */
export const BACKGROUND_USE_CASES = existing(['emulator/use-cases/reporting/batch-job.ts', 'emulator/use-cases/control/seed.ts']);

const MESSAGE = "The experience API's request path answers synchronously: its writes join the turn's shared transaction and its answer waits for the commit (decisions/013). Write this without async/await.";

/** A `no-restricted-syntax` setting that refuses async functions and `await`. */
export const synchronousRequestPath = [
  'error',
  { selector: ':function[async=true]', message: MESSAGE },
  { selector: 'AwaitExpression', message: MESSAGE },
  { selector: 'ForOfStatement[await=true]', message: MESSAGE },
];
