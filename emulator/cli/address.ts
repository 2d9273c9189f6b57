/**
 * The address `start` listens on: found free (or not) before the data folder is made or seeded, and
 * each way listening can fail said in one line, the same whether the probe or the server met it.
 */
import { createServer } from 'node:net';
import { CliError } from '../cli-error.js';

/** Throws the one-line problem when host:port cannot be listened on now; port 0 always can. */
export async function ensureListenable(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen({ host, port, exclusive: true }, resolve)).catch((error: unknown) => {
    const problem = addressProblem(error as NodeJS.ErrnoException, host, port);
    throw problem ? new CliError(problem) : error;
  });
  await new Promise((closed) => server.close(closed));
}

/** What to tell the user when listening on host:port failed with `error`; undefined when it is no address problem. */
export function addressProblem(error: NodeJS.ErrnoException, host: string, port: number): string | undefined {
  switch (error.code) {
    case 'EADDRINUSE':
      return `[emulator] port ${port} on ${host} is already in use; stop what uses it or pick another port with --port`;
    case 'EACCES':
      return `[emulator] no permission to listen on port ${port}; pick a port above 1023 with --port`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `[emulator] ${host} is not an address of this machine; pick another with --host (default 127.0.0.1)`;
  }
  return undefined;
}
