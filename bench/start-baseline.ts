/**
 * The baselines of start to healthy, spawned and timed exactly like `emulator start --foreground`
 * (startup.ts): `node dist/bench/start-baseline.js node-http|express-sqlite --data DIR --port N`.
 * - `node-http`: a bare node:http server answering GET /_emulator/health;
 * - `express-sqlite`: a plain Express app that opens DIR/baseline.sqlite, or in a fresh folder
 *   creates and seeds it (baselines.ts), then answers health.
 * The bare server loads nothing but node:http; Express and better-sqlite3 load only for the other.
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { data: { type: 'string' }, port: { type: 'string' } } });
const [kind] = positionals;
const port = Number(values.port);

if (kind === 'node-http' && values.port) {
  const server = createServer((req, res) => {
    const healthy = req.method === 'GET' && req.url === '/_emulator/health';
    const body = JSON.stringify(healthy ? { status: 'ok', pid: process.pid } : { error: 'not_found' });
    res.writeHead(healthy ? 200 : 404, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }).listen(port, '127.0.0.1');
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
} else if (kind === 'express-sqlite' && values.port && values.data) {
  const { expressSqliteStart } = await import('./baselines.js');
  const { app, db } = expressSqliteStart(values.data);
  const server = app.listen(port, '127.0.0.1');
  process.once('SIGTERM', () =>
    server.close(() => {
      db.close();
      process.exit(0);
    }),
  );
} else {
  console.error('[bench] usage: start-baseline node-http|express-sqlite --data DIR --port N');
  process.exit(1);
}
