/** An experience answer held until the turn's shared transaction commits (README.md). */
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { PlumbingError, storageFailure, writeError } from '../errors.js';
import type { Db } from './connection.js';
import { joinTurnTransaction } from './turn-transaction.js';

/**
 * Joins the turn's shared transaction (turn-transaction.ts) and holds the answer until it is
 * committed; should the commit fail, the answer is a 500 instead. Experience handlers answer
 * synchronously, which the lint checks (eslint/synchronous.js, decisions/013).
 */
export function holdAnswerUntilCommit(db: Db, logger: Logger): RequestHandler {
  return (_req, res, next) => {
    const end = res.end;
    let held: unknown[] | undefined;
    res.end = ((...args: unknown[]) => {
      held = args;
      return res;
    }) as typeof res.end;
    joinTurnTransaction(db, (error) => {
      res.end = end;
      if (!held) return;
      if (!error) return void (end as (...args: unknown[]) => void).apply(res, held);
      const full = storageFailure(error);
      logger.error(full ? {} : { err: error }, full ? 'the disk is full: the turn transaction did not commit' : 'the turn transaction did not commit');
      res.removeHeader('Content-Length');
      writeError(res, full ?? new PlumbingError('internal_error'));
    });
    next();
  };
}
