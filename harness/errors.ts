/** The harness could not run (emulator or agency unreachable, bad config, no browser): exit 2, one line. */
export class HarnessError extends Error {
  override readonly name = 'HarnessError';
}

/** The run was interrupted (Ctrl-C): no verdict, no report. */
export class Interrupted extends Error {
  override readonly name = 'Interrupted';
}
