/** An experience answer, a value, written once the turn's shared transaction commits (README.md). */
import type { Response } from 'express';
import type { Logger } from 'pino';
import { type HttpError, PlumbingError, storageFailure, writeError } from '../errors.js';
import type { Db } from './connection.js';
import { type Answer, writeAnswer } from './json.js';
import { joinTurnTransaction } from './turn-transaction.js';

/**
 * Joins the turn's shared transaction (turn-transaction.ts), runs `make` in it, and writes the
 * answer it returns (an answer, or an error for the one error writer) once the transaction is
 * committed; should the commit fail, the answer is a 500 (a 507 on a full disk) instead. An error
 * `make` throws goes to the area's error handler at once: it tells of no write. Experience
 * handlers answer synchronously, which the lint checks (eslint/synchronous.js, decisions/013).
 */
export function answerAtCommit(db: Db, logger: Logger, res: Response, make: () => Answer | HttpError): void {
  let answer: Answer | HttpError | undefined;
  joinTurnTransaction(db, (error) => {
    if (answer === undefined) return;
    if (!error) return answer instanceof Error ? writeError(res, answer) : writeAnswer(res, answer);
    const full = storageFailure(error);
    logger.error(full ? {} : { err: error }, full ? 'the disk is full: the turn transaction did not commit' : 'the turn transaction did not commit');
    writeError(res, full ?? new PlumbingError('internal_error'));
  });
  answer = make();
}
