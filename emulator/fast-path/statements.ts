/** A connection's statements compiled once per SQL text, and its transaction wrappers built once (README.md). */
import type { Statement, Transaction } from 'better-sqlite3';
import type { Db } from './connection.js';

/** Installs both on a new connection, before its first statement. */
export function fastStatements(db: Db): void {
  cacheStatements(db);
  reuseTransactions(db);
}

/**
 * Compiling a statement costs 8 to 30 µs and a request runs ten or twenty of them, so each SQL text
 * is compiled once per connection. Store modules keep preparing their statements as usual; every SQL
 * text they build interpolates constants only, so the cache stays small. Kept for the bench's
 * guards (decisions/013).
 */
function cacheStatements(db: Db): void {
  const compile = db.prepare.bind(db);
  const compiled = new Map<string, Statement>();
  db.prepare = ((sql: string) => {
    let statement = compiled.get(sql);
    if (!statement) compiled.set(sql, (statement = compile(sql)));
    return statement;
  }) as Db['prepare'];
}

type Write = (...args: unknown[]) => unknown;

/**
 * better-sqlite3 builds four wrapper functions and defines twenty properties on them at every
 * `db.transaction(fn)`: about 6% of the instructions of a production entry (callgrind). Each
 * connection builds its wrappers once, around a runner that calls the function it is handed;
 * `db.transaction(fn)` answers a light function that runs `fn` through them: the same BEGIN
 * variants, the same savepoints when nested, the same rollback on a throw. Kept for the bench's
 * guards (decisions/013).
 */
function reuseTransactions(db: Db): void {
  const runner = db.transaction((write: Write, args: unknown[]) => write(...args));
  db.transaction = (<F extends Write>(write: F) => {
    const run = ((...args: unknown[]) => runner(write, args)) as unknown as Transaction<F>;
    run.default = run;
    run.deferred = (...args) => runner.deferred(write, args) as ReturnType<F>;
    run.immediate = (...args) => runner.immediate(write, args) as ReturnType<F>;
    run.exclusive = (...args) => runner.exclusive(write, args) as ReturnType<F>;
    return run;
  }) as Db['transaction'];
}
