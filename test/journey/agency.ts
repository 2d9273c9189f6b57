/**
 * A tiny agency for the journey tests, implementing spec §4.3 correctly: state and PKCE verifier
 * generated and kept server-side, tied to an HttpOnly SameSite=Lax cookie; state compared in
 * constant time; the transaction consumed once; the code exchanged by the backend; a clean URL
 * after the callback. Defects can be switched on to prove the service refuses them.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Server } from 'node:http';
import express, { type Request, type Response } from 'express';
import { readCookie } from '../../emulator/pages/http.js';

export type AgencyDefect = 'none' | 'exchange_twice' | 'wrong_verifier';

export interface AgencyOptions {
  emulatorUrl: string;
  productionKey: string;
  defect?: AgencyDefect;
  /** Runs when a `service_request` arrives, before the redirect to authorize (e.g. to move the emulator's clock). */
  onServiceRequest?: () => void;
}

/** What the agency saw, for the tests to assert on. */
export interface AgencyRecord {
  serviceRequests: number;
  callbacksWithCode: number;
  exchanges: Array<{ status: number; error?: string }>;
  /** GET /session with the first token after a second exchange of its code. */
  firstSessionAfterReuse?: number;
  entries: Array<{ status: number; state?: string }>;
}

const random = () => randomBytes(32).toString('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function startAgency(options: AgencyOptions) {
  const record: AgencyRecord = { serviceRequests: 0, callbacksWithCode: 0, exchanges: [], entries: [] };
  const transactions = new Map<string, { state: string; verifier: string }>();
  const sessions = new Map<string, { token: string; csrf: string }>();
  const api = (method: string, path: string, body?: object, session?: string) =>
    fetch(`${options.emulatorUrl}/api/experience/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${options.productionKey}`, 'content-type': 'application/json', ...(session ? { 'x-service-session': session } : {}) },
      body: body && JSON.stringify(body),
    });
  const { authorize_url: authorizeUrl } = (await (await api('GET', '/campaign')).json()) as { authorize_url: string };

  const app = express();
  app.use((_req, res, next) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'same-origin' });
    next();
  });
  const page = (res: Response, status: number, title: string, body = '') =>
    res.status(status).type('html').send(`<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`);
  const restart = (res: Response) => page(res, 400, 'Please scan your pack again');

  app.get('/callback', async (req: Request, res: Response) => {
    const { service_request: requestToken, service_code: code, state } = req.query as Record<string, string | undefined>;
    if (requestToken) {
      record.serviceRequests++;
      options.onServiceRequest?.();
      const id = random();
      const transaction = { state: random(), verifier: random() };
      transactions.set(id, transaction);
      res.cookie('agency_tx', id, { httpOnly: true, sameSite: 'lax', path: '/' });
      const challenge = createHash('sha256').update(transaction.verifier).digest('base64url');
      return res.redirect(302, `${authorizeUrl}?${new URLSearchParams({ request_token: requestToken, state: transaction.state, code_challenge: challenge, code_challenge_method: 'S256' })}`);
    }
    if (!code || !state) return page(res, 200, 'Spring Instant Win', '<p>Scan a participating pack to play.</p>');

    record.callbacksWithCode++;
    const id = readCookie(req, 'agency_tx');
    const transaction = id ? transactions.get(id) : undefined;
    if (!id || !transaction || !sameText(state, transaction.state)) return restart(res);
    transactions.delete(id);
    const verifier = options.defect === 'wrong_verifier' ? random() : transaction.verifier;
    const exchange = async () => {
      const answer = await api('POST', '/sessions', { authorization_code: code, code_verifier: verifier });
      const body = (await answer.json()) as { session_token?: string; error?: string };
      record.exchanges.push({ status: answer.status, error: body.error });
      return body.session_token;
    };
    const token = await exchange();
    if (!token) return restart(res);
    if (options.defect === 'exchange_twice') {
      await exchange();
      record.firstSessionAfterReuse = (await api('GET', '/session', undefined, token)).status;
    }
    const sessionId = random();
    sessions.set(sessionId, { token, csrf: random() });
    res.cookie('agency_session', sessionId, { httpOnly: true, sameSite: 'lax', path: '/' });
    res.redirect(303, '/play');
  });

  const session = (req: Request) => sessions.get(readCookie(req, 'agency_session') ?? '');

  app.get('/play', async (req, res) => {
    const current = session(req);
    if (!current) return restart(res);
    const answer = await api('GET', '/session', undefined, current.token);
    if (!answer.ok) return restart(res);
    const { terms } = (await answer.json()) as { terms: { text: string; version: string; minimum_age?: number } };
    page(res, 200, 'Enter the Spring Instant Win', `<form method="post" action="/play"><p>${terms.text}</p>
      <input type="hidden" name="csrf" value="${current.csrf}"><input type="hidden" name="terms_version" value="${terms.version}">
      <label><input type="checkbox" name="accepted" value="yes"> I accept the terms</label>
      ${terms.minimum_age ? `<label><input type="checkbox" name="age_confirmed" value="yes"> I am ${terms.minimum_age} or older</label>` : ''}
      <button type="submit">Enter</button></form>`);
  });

  app.post('/play', express.urlencoded({ extended: false }), async (req, res) => {
    const current = session(req);
    if (!current || req.body.csrf !== current.csrf) return restart(res);
    const consent = { accepted: req.body.accepted === 'yes', age_confirmed: req.body.age_confirmed === 'yes', terms_version: String(req.body.terms_version) };
    const answer = await api('POST', '/session/entry', { consent }, current.token);
    const body = (await answer.json()) as { entry?: { state: string }; error?: string };
    record.entries.push({ status: answer.status, state: body.entry?.state });
    page(res, answer.status === 200 ? 200 : 400, answer.ok ? `Result: ${body.entry!.state}` : `Entry refused: ${body.error}`);
  });

  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const port = (server.address() as { port: number }).port;
  return {
    /** On `localhost`, a different site from the emulator's 127.0.0.1, as a real agency would be. */
    callbackUrl: `http://localhost:${port}/callback`,
    record,
    close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }),
  };
}

export type Agency = Awaited<ReturnType<typeof startAgency>>;
