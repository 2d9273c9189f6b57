/** A failure the user can act on: its message is printed as is, and the command exits with `exitCode` (1 unless said). */
export class CliError extends Error {
  constructor(message: string, readonly exitCode: 1 | 2 = 1) {
    super(message);
  }
}
