/**
 * The fuzz harness: one emulator per test file on 127.0.0.1, a raw HTTP client with a deadline,
 * a journal of every row the emulator writes, and `fuzz()`, which sends each generated request
 * and checks its answer with check.ts.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import fc from 'fast-check';
import { expect } from 'vitest';
import { watchTableWrites } from '../../support/raw-storage.js';
import { storedRows } from '../../support/stored.js';
import type { TestWorld } from '../../world.js';
import { checkAnswer, checkUnchanged } from './check.js';
import type { FuzzAnswer, FuzzRequest } from './request.js';

/** A request that takes longer than this has hung. */
export const DEADLINE_MS = 5000;

/** Per test: shrinking a failure sends many more requests, and should end in a counterexample, not a timeout. */
export const FUZZ_TEST_TIMEOUT_MS = 120_000;

/** Fixed so CI is reproducible; `FUZZ_SEED=<n>` explores other inputs locally. */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

/**
 * Requests each fuzz file must send per run; issue 7 asks for at least 10,000 in all, and
 * `expectBudgetMet` checks both the file's share and the sum.
 */
export const FUZZ_BUDGET = { experience: 3000, reporting: 2800, pages: 2600, control: 1400, http: 400 } as const;
export const FUZZ_TOTAL = 10_000;

export interface FuzzServer {
  t: TestWorld;
  port: number;
  /** Requests sent so far by `fuzz()` and `raw()`. */
  readonly sent: number;
  /** How many answers had each status, to show how deep the fuzz reached. */
  readonly statuses: Map<number, number>;
  send(request: FuzzRequest): Promise<FuzzAnswer>;
  /** Writes bytes on a fresh socket, half-closes it, and reads until the server closes. */
  raw(bytes: Buffer | string): Promise<string>;
  /** The health endpoint's status, not counted as a fuzz request. */
  health(): Promise<number>;
  /** Resolves once every response the server started has closed, or an uncaught error cut one short. */
  settled(): Promise<void>;
  /** Tables written since the last call. */
  changedTables(): string[];
  /** Uncaught exceptions and error-level log lines since the last call. */
  failures(): string[];
  close(): Promise<void>;
}

export async function startFuzzServer(t: TestWorld): Promise<FuzzServer> {
  let open = 0;
  const server = http.createServer((req, res) => {
    open += 1;
    let done = false;
    const close = () => {
      if (!done) open -= 1;
      done = true;
    };
    res.once('close', close);
    // A pipelined response still queued when its client hangs up never closes itself (Node's doing).
    req.socket.once('close', close);
    t.app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const journal = watchTableWrites(t.world.db);
  const uncaught: string[] = [];
  const onUncaught = (error: Error) => uncaught.push(`uncaught: ${error.stack ?? error.message}`);
  process.on('uncaughtExceptionMonitor', onUncaught);
  let logged = t.logLines.length;
  let sent = 0;
  const statuses = new Map<number, number>();

  return {
    t, port,
    get sent() {
      return sent;
    },
    statuses,
    async send(request) {
      sent += 1;
      const answer = await send(agent, port, request);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      return answer;
    },
    async raw(bytes) {
      sent += 1;
      const answer = await raw(port, bytes);
      // 0 counts connections closed without an answer.
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return answer;
    },
    async health() {
      return (await send(agent, port, { method: 'GET', path: '/_emulator/health' })).status;
    },
    async settled() {
      const deadline = performance.now() + DEADLINE_MS;
      while (open > 0 && uncaught.length === 0) {
        if (performance.now() > deadline) throw new Error(`a response was still open ${DEADLINE_MS} ms after its answer`);
        await nextTurn();
      }
      // Interaction rows are written on the turn after their response.
      await nextTurn();
    },
    changedTables: journal.take,
    failures() {
      const errors = t.logLines.slice(logged).filter((line) => /"level":(50|60)/.test(line));
      logged = t.logLines.length;
      return [...uncaught.splice(0), ...errors];
    },
    async close() {
      process.off('uncaughtExceptionMonitor', onUncaught);
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function send(agent: http.Agent, port: number, request: FuzzRequest): Promise<FuzzAnswer> {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) if (value !== undefined) headers[name] = value;
  if (request.body?.contentType !== undefined) headers['content-type'] = request.body.contentType;
  if (request.body?.contentEncoding !== undefined) headers['content-encoding'] = request.body.contentEncoding;
  // Node frames a GET's body only when told its length.
  if (request.body) headers['content-length'] = request.body.bytes.length;
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, agent, method: request.method, path: request.path, headers, signal: AbortSignal.timeout(DEADLINE_MS) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', (error) => reject(new Error(`${request.method} ${request.path.slice(0, 200)}: ${error.message}`)));
    outgoing.end(request.body?.bytes);
  });
}

function raw(port: number, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer and no close within ${DEADLINE_MS} ms`));
    }, DEADLINE_MS);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    // The server may reset a connection it refused; what it answered before that still counts.
    socket.on('error', () => undefined);
    socket.end(bytes);
  });
}

/** The values of one column of a table, every row, as text: the real ids a fuzzer mixes into its paths. */
export function storedValues(t: TestWorld, table: string, column: string, keep: (row: Record<string, unknown>) => boolean = () => true): string[] {
  return storedRows(t.world.db, table).filter(keep).map((row) => String(row[column]));
}

/**
 * Sends one request and checks everything issue 7 promises of its answer: no 5xx, an answer
 * within the deadline, the documented error shape, no stack trace, no uncaught error, and no
 * stored change if it was refused.
 */
export async function exchange(server: FuzzServer, request: FuzzRequest): Promise<FuzzAnswer> {
  server.changedTables();
  server.failures();
  const answer = await server.send(request);
  await expectNoFailures(server);
  checkAnswer(request, answer);
  checkUnchanged(request, answer, server.changedTables());
  return answer;
}

/** No uncaught error and no error log since the last check, once the server is done with its responses. */
export async function expectNoFailures(server: FuzzServer): Promise<void> {
  // Handlers on a response's 'finish' may run after the client already has the answer.
  await server.settled();
  const failures = server.failures();
  if (failures.length > 0) throw new Error(`uncaught errors or error logs:\n${failures.map((failure) => cut(failure, 1500)).join('\n')}`);
}

/** Runs a property: every generated value becomes one request through `exchange`. */
export async function fuzz<T>(server: FuzzServer, values: fc.Arbitrary<T>, toRequest: (value: T) => FuzzRequest, numRuns: number): Promise<void> {
  await assertProperty(
    fc.asyncProperty(values, async (value) => {
      await exchange(server, toRequest(value));
    }),
    numRuns,
  );
}

/** `fc.assert` with the seed, and a report whose counterexample is cut short: hostile values run to megabytes. */
export async function assertProperty<T>(property: fc.IAsyncProperty<T>, numRuns: number): Promise<void> {
  const details = await fc.check(property, { seed: FUZZ_SEED, numRuns });
  if (!details.failed) return;
  const counterexample = fc.stringify(details.counterexample);
  const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  throw new Error(
    `Property failed after ${details.numRuns} runs { seed: ${details.seed}, path: "${details.counterexamplePath}" }\n` +
      `Counterexample: ${cut(counterexample, 1500)}\nShrunk ${details.numShrinks} time(s)\nCaused by: ${cut(cause, 3000)}`,
  );
}

function cut(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}… (${text.length} characters)`;
}

export function expectBudgetMet(area: keyof typeof FUZZ_BUDGET, server: FuzzServer): void {
  const statuses = [...server.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}×${count}`).join(' ');
  console.info(`[fuzz] ${area}: ${server.sent} requests (seed ${FUZZ_SEED}); answers ${statuses}`);
  expect(server.sent).toBeGreaterThanOrEqual(FUZZ_BUDGET[area]);
  expect(Object.values(FUZZ_BUDGET).reduce((sum, share) => sum + share, 0)).toBeGreaterThanOrEqual(FUZZ_TOTAL);
}
