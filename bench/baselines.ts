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
  const insert = openDatabase(dataDir).prepare('INSERT INTO baseline_entries (session, body, created_at) VALUES (?, ?, ?)');
  return expressWith(answers, (req, res, answer) => {
    if (answer.method === 'POST') insert.run(req.get('x-service-session') ?? null, JSON.stringify(req.body ?? null), Date.now());
    res.status(answer.status).json(answer.json);
  });
}

/**
 * The Express + SQLite baseline of start to healthy: opens its database, and in a fresh folder
 * creates the schema and seeds it (in one transaction), then answers GET /_emulator/health as the
 * emulator does.
 */
export function expressSqliteStart(dataDir: string): { app: express.Express; db: Database.Database } {
  const db = openDatabase(dataDir);
  if ((db.prepare('SELECT count(*) AS n FROM brands').get() as { n: number }).n === 0) seed(db);
  const app = plainExpress();
  app.get('/_emulator/health', (_req, res) => {
    res.json({ status: 'ok', pid: process.pid });
  });
  return { app, db };
}

/** A small schema, as a plain app's first migration: four tables, two indexes. */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS brands (id INTEGER PRIMARY KEY, slug TEXT NOT NULL UNIQUE, name TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS promotions (id INTEGER PRIMARY KEY, brand_id INTEGER NOT NULL REFERENCES brands (id), title TEXT NOT NULL, content TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS prizes (id INTEGER PRIMARY KEY, promotion_id INTEGER NOT NULL REFERENCES promotions (id), name TEXT NOT NULL, stock INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS baseline_entries (id INTEGER PRIMARY KEY, session TEXT, body TEXT NOT NULL, created_at INTEGER NOT NULL);
  CREATE INDEX IF NOT EXISTS prizes_by_promotion ON prizes (promotion_id);
  CREATE INDEX IF NOT EXISTS baseline_entries_by_session ON baseline_entries (session);
`;

/** The baseline's database in `dataDir` (created if missing), as a plain app opens it: WAL, synchronous NORMAL, its schema. */
function openDatabase(dataDir: string): Database.Database {
  mkdirSync(dataDir, { recursive: true });
  const db = new Database(join(dataDir, 'baseline.sqlite'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  return db;
}

/** A small world: 2 brands, 10 promotions each, 5 prizes per promotion (122 rows). */
function seed(db: Database.Database): void {
  const brand = db.prepare('INSERT INTO brands (slug, name) VALUES (?, ?) RETURNING id');
  const promotion = db.prepare('INSERT INTO promotions (brand_id, title, content) VALUES (?, ?, ?) RETURNING id');
  const prize = db.prepare('INSERT INTO prizes (promotion_id, name, stock) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let b = 1; b <= 2; b++) {
      const { id: brandId } = brand.get(`brand-${b}`, `Brand ${b}`) as { id: number };
      for (let p = 1; p <= 10; p++) {
        const { id: promotionId } = promotion.get(brandId, `Promotion ${b}.${p}`, JSON.stringify({ countries: ['DE', 'AT'], odds: 0.1, prizes: 5 })) as { id: number };
        for (let z = 1; z <= 5; z++) prize.run(promotionId, `Prize ${z}`, 100 * z);
      }
    }
  })();
}

function expressWith(answers: Answer[], handle: (req: express.Request, res: express.Response, answer: Answer) => void): express.Express {
  const app = plainExpress();
  for (const answer of answers) {
    const route = (req: express.Request, res: express.Response) => handle(req, res, answer);
    if (answer.method === 'GET') app.get(answer.path, route);
    else app.post(answer.path, route);
  }
  return app;
}

function plainExpress(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(express.json());
  return app;
}
