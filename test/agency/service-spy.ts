/**
 * A recording proxy between the agency and the emulator: every call the agency makes, with its
 * unredacted body and session header, and faults to shape the next answers (a 429, a dropped
 * connection). Tests point the agency's `emulatorUrl` here.
 */
import { type IncomingMessage, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Call {
  /** When the call arrived (system clock, ms). */
  at: number;
  method: string;
  /** Path without the /api/experience/v1 prefix, e.g. `/session/entry`. */
  path: string;
  session: string | undefined;
  body: Record<string, unknown> | undefined;
  status: number;
  response: Record<string, unknown> | undefined;
}

export type Fault = { status: number; headers?: Record<string, string>; body: object } | 'drop';

const PREFIX = '/api/experience/v1';
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

export async function startServiceSpy(upstream: string) {
  const calls: Call[] = [];
  const faults: Array<{ method: string; path: string; times: number; fault: Fault }> = [];

  const server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const url = req.url ?? '/';
    const path = url.split('?')[0]!.replace(PREFIX, '');
    const call: Call = {
      at: Date.now(), method: req.method ?? 'GET', path, session: req.headers['x-service-session'] as string | undefined,
      body: raw ? (JSON.parse(raw) as Record<string, unknown>) : undefined, status: 0, response: undefined,
    };
    if (url.startsWith(PREFIX)) calls.push(call);

    const planned = faults.find((candidate) => candidate.method === call.method && candidate.path === path && candidate.times > 0);
    if (planned) {
      planned.times -= 1;
      if (planned.fault === 'drop') return req.socket.destroy();
      call.status = planned.fault.status;
      call.response = planned.fault.body as Record<string, unknown>;
      res.writeHead(planned.fault.status, { 'content-type': 'application/json', ...planned.fault.headers }).end(JSON.stringify(planned.fault.body));
      return;
    }
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name) && name !== 'host')) as Record<string, string>;
    const answer = await fetch(upstream + url, { method: req.method, headers, body: raw || undefined, redirect: 'manual' });
    const text = await answer.text();
    call.status = answer.status;
    call.response = answer.headers.get('content-type')?.includes('json') && text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
    const back: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!HOP_BY_HOP.has(name)) back[name] = value;
    });
    res.writeHead(answer.status, back).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    /** Calls of one endpoint, e.g. `spy.of('POST', '/session/entry')`. */
    of: (method: string, path: string) => calls.filter((call) => call.method === method && call.path === path),
    /** Answers the next `times` calls of an endpoint with the fault instead of the emulator's answer. */
    fail(method: string, path: string, fault: Fault, times = 1) {
      faults.push({ method, path, times, fault });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type ServiceSpy = Awaited<ReturnType<typeof startServiceSpy>>;

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.on('data', (chunk) => (text += chunk));
    req.on('end', () => resolve(text));
  });
}
