/** The harness could not run (emulator or agency unreachable, bad config, no browser): exit 2, one line. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
}
