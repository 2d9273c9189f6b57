/**
 * The baselines the emulator is compared with: what the same request costs with nothing but the
 * framework. Each answers the emulator's own JSON for the route, serialized per request as a real
 * handler would, and parses a POST body as JSON. The Express apps switch off ETag and
 * X-Powered-By like the emulator does, so the ratio measures only what the emulator adds.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import express from 'express';
import type { Answer } from './servers.js';

const routeKey = (method: string, path: string) => `${method} ${path}`;

function answersByRoute(answers: Answer[]): Map<string, Answer> {
  return new Map(answers.map((answer) => [routeKey(answer.method, answer.path), answer]));
}

/** A bare `node:http` server. */
export function nodeHttpServer(answers: Answer[]): Server {
  const routes = answersByRoute(answers);
  return createServer((req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const answer = routes.get(routeKey(req.method ?? 'GET', path));
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const body = JSON.stringify(answer ? answer.json : { error: 'not_found' });
      res.writeHead(answer?.status ?? 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
}

/** A plain Express app: one route per answer. */
export function expressApp(answers: Answer[]): express.Express {
  return expressWith(answers, (_req, res, answer) => res.status(answer.status).json(answer.json));
}

/** A plain Express app that inserts one row per POST into SQLite (WAL, synchronous NORMAL). */
export function expressSqliteApp(answers: Answer[], dataDir: string): express.Express {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS entries (id INTEGER PRIMARY KEY, session TEXT, body TEXT NOT NULL, created_at INTEGER NOT NULL)');
  const insert = db.prepare('INSERT INTO entries (session, body, created_at) VALUES (?, ?, ?)');
  return expressWith(answers, (req, res, answer) => {
    if (answer.method === 'POST') insert.run(req.get('x-service-session') ?? null, JSON.stringify(req.body ?? null), Date.now());
    res.status(answer.status).json(answer.json);
  });
}

function expressWith(answers: Answer[], handle: (req: express.Request, res: express.Response, answer: Answer) => void): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  for (const answer of answers) {
    const route = (req: express.Request, res: express.Response) => handle(req, res, answer);
    if (answer.method === 'GET') app.get(answer.path, route);
    else app.post(answer.path, route);
  }
  return app;
}
