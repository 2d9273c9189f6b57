/**
 * Servers under test, each in a child process of its own (see server-child.ts), so that on a
 * 2-core machine the load generator and the server never share one event loop. The parent talks
 * to a child over IPC: one `start` message, then numbered commands (emulator only).
 */
import { type ChildProcess, fork } from 'node:child_process';

/** What a baseline answers: the emulator's own JSON for the same request, serialized per request. */
export interface Answer {
  method: 'GET' | 'POST';
  path: string;
  status: number;
  json: unknown;
}

export type ServerSpec =
  | { kind: 'node-http'; answers: Answer[] }
  | { kind: 'express'; answers: Answer[] }
  | { kind: 'express-sqlite'; answers: Answer[]; dataDir: string }
  | { kind: 'emulator'; dataDir: string };

export type ServerKind = ServerSpec['kind'];

/** A pre-created session: the token for X-Service-Session and the entry body it must send. */
export interface PooledSession {
  token: string;
  body: string;
}

/** An authorization code ready for the agency's exchange: the POST /sessions body, and the entry body after it. */
export interface IssuedCode {
  exchange: string;
  entry: string;
}

/** Commands the emulator child answers, with what each returns. */
export interface Commands {
  env: { command: { type: 'env' }; result: { sandboxKey: string; productionKey: string } };
  sandboxSessions: { command: { type: 'sandboxSessions'; count: number }; result: PooledSession[] };
  productionSessions: { command: { type: 'productionSessions'; count: number }; result: PooledSession[] };
  entryCounts: { command: { type: 'entryCounts' }; result: { sandbox: number; production: number } };
  authCodes: { command: { type: 'authCodes'; count: number }; result: IssuedCode[] };
  moreKeys: { command: { type: 'moreKeys'; count: number }; result: Array<{ environment: 'sandbox' | 'production'; secret: string }> };
  /** CPU profiling of the emulator child (BENCH_PROFILE): start, then stop writing a .cpuprofile. */
  profileStart: { command: { type: 'profileStart' }; result: null };
  profileStop: { command: { type: 'profileStop'; path: string }; result: null };
}

export type Command = Commands[keyof Commands]['command'];
export type ParentMessage = { type: 'start'; spec: ServerSpec } | { type: 'call'; id: number; command: Command };
export type ChildMessage =
  | { type: 'listening'; port: number }
  | { type: 'failed'; message: string }
  | { type: 'reply'; id: number; result?: unknown; error?: string };

export const SERVER_LABELS: Record<ServerKind, string> = {
  'node-http': 'node:http',
  express: 'express',
  'express-sqlite': 'express+sqlite',
  emulator: 'emulator',
};

export interface ChildServer {
  readonly kind: ServerKind;
  readonly url: string;
  readonly pid: number;
  call<K extends keyof Commands>(command: Commands[K]['command'] & { type: K }): Promise<Commands[K]['result']>;
  stop(): Promise<void>;
}

const CHILD_SCRIPT = new URL('./server-child.js', import.meta.url);

export function startChild(spec: ServerSpec): Promise<ChildServer> {
  const child = fork(CHILD_SCRIPT, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let nextId = 1;

  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => {
      const error = new Error(`[bench] ${SERVER_LABELS[spec.kind]} child exited (${signal ?? code})`);
      reject(error);
      for (const waiting of pending.values()) waiting.reject(error);
    });
    child.on('message', (message: ChildMessage) => {
      if (message.type === 'failed') reject(new Error(`[bench] ${SERVER_LABELS[spec.kind]} did not start: ${message.message}`));
      if (message.type === 'listening') resolve(handle(child, spec.kind, message.port));
      if (message.type === 'reply') {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.error !== undefined) waiting?.reject(new Error(`[bench] emulator child: ${message.error}`));
        else waiting?.resolve(message.result);
      }
    });
    child.send({ type: 'start', spec } satisfies ParentMessage);
  });

  function handle(process: ChildProcess, kind: ServerKind, port: number): ChildServer {
    return {
      kind,
      url: `http://127.0.0.1:${port}`,
      pid: process.pid!,
      call(command) {
        const id = nextId++;
        return new Promise((done, fail) => {
          pending.set(id, { resolve: done as (value: unknown) => void, reject: fail });
          process.send({ type: 'call', id, command } satisfies ParentMessage);
        });
      },
      stop: () => stopChild(process),
    };
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      done();
    });
    child.kill('SIGTERM');
  });
}
