/** A failure the user can act on: its message is one line, printed as is, and the command exits 1. */
export class CliError extends Error {}
