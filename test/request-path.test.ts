/**
 * The guards of the experience API's request path (decisions/013): the answer is a value written
 * at the commit, events wait for the commit, a write from a timer gets a transaction of its own,
 * and the lint refuses an async handler.
 */
import { ESLint } from 'eslint';
import express, { type Response } from 'express';
import request from 'supertest';
import tseslint from 'typescript-eslint';
import { describe, expect, it, vi } from 'vitest';
import { announce } from '../emulator/events.js';
import { getMeta, setMeta } from '../emulator/store/db.js';
import { commitTurnTransaction, joinTurnTransaction, ownTransaction } from '../emulator/fast-path/turn-transaction.js';
import { answerAtCommit } from '../emulator/fast-path/held-answer.js';
import { type Answer, answerOf, directJson } from '../emulator/fast-path/json.js';
import { REQUEST_PATH_FILES, synchronousRequestPath } from '../eslint/synchronous.js';
import { abortOpenTransaction } from './support/raw-storage.js';
import { testWorld } from './world.js';

/** Makes the turn's COMMIT fail, as a full disk would: its transaction is gone before the commit. */
const failTheCommit = abortOpenTransaction;

describe('the answer is a value', () => {
  /** An app whose one route answers `answer` through the turn's commit, `before` run once it is made. */
  const answering = (answer: Answer, before: (db: ReturnType<typeof testWorld>['world']['db'], res: Response) => void) => {
    const { world } = testWorld();
    const app = express();
    app.response.json = directJson(app.response.json);
    const recorded: Array<Answer | undefined> = [];
    app.post('/entry', (_req, res) => {
      res.on('finish', () => recorded.push(answerOf(res)));
      answerAtCommit(world.db, world.logger, res, () => {
        setMeta(world.db, 'answered', 'yes');
        return answer;
      });
      before(world.db, res);
    });
    return { world, app, recorded };
  };

  it('is written from the value the use case returned, only once its write is committed, and read back by the call\'s record', async () => {
    const answer = { status: 201, headers: { 'Retry-After': '3' }, body: { entry: { state: 'won' } } };
    const seen: Array<[boolean, boolean]> = [];
    const { world, app, recorded } = answering(answer, (db, res) => seen.push([res.headersSent, db.inTransaction]));
    const res = await request(app).post('/entry');
    expect(seen).toEqual([[false, true]]);
    expect([res.status, res.headers['retry-after'], res.headers['content-type'], res.body]).toEqual([201, '3', 'application/json; charset=utf-8', answer.body]);
    expect(recorded).toEqual([answer]);
    expect(getMeta(world.db, 'answered')).toBe('yes');
  });

  it('is a 500 instead when the commit fails, and the write is undone', async () => {
    const { world, app, recorded } = answering({ status: 200, body: { entry: { state: 'won' } } }, (db) => failTheCommit(db));
    const res = await request(app).post('/entry');
    expect([res.status, res.body.error]).toEqual([500, 'internal_error']);
    expect(recorded).toEqual([{ status: 500, body: res.body }]);
    expect(getMeta(world.db, 'answered')).toBeUndefined();
  });
});

describe('events after commit', () => {
  /** A world whose shared transaction is open and holds an announced `entry.created`. */
  const announcedInTurn = () => {
    const { world } = testWorld();
    const heard = vi.fn();
    world.events.on('entry.created', heard);
    const settled = vi.fn();
    joinTurnTransaction(world.db, settled);
    announce(world, 'entry.created', { entryId: 7 });
    return { world, heard, settled };
  };

  it('an event announced inside the shared transaction is heard once the commit is done, not before', () => {
    const { world, heard, settled } = announcedInTurn();
    expect(heard).not.toHaveBeenCalled();
    commitTurnTransaction(world.db);
    expect(settled).toHaveBeenCalledWith(undefined);
    expect(heard).toHaveBeenCalledExactlyOnceWith({ entryId: 7 });
  });

  it('an event of a transaction that rolls back is never heard', () => {
    const { world, heard, settled } = announcedInTurn();
    failTheCommit(world.db);
    commitTurnTransaction(world.db);
    expect(settled).toHaveBeenCalledWith(expect.any(Error));
    expect(heard).not.toHaveBeenCalled();
  });

  it('outside the shared transaction an event is heard at once', () => {
    const { world } = testWorld();
    const heard = vi.fn();
    world.events.on('scan.recorded', heard);
    announce(world, 'scan.recorded', { scanId: 3 });
    expect(heard).toHaveBeenCalledExactlyOnceWith({ scanId: 3 });
  });
});

describe('a timer write in its own transaction', () => {
  it('commits the open shared transaction first, and keeps its write when a later turn rolls back', () => {
    const { world } = testWorld();
    const settled = vi.fn();
    joinTurnTransaction(world.db, settled);
    ownTransaction(world.db, () => {
      expect(settled).toHaveBeenCalledWith(undefined);
      setMeta(world.db, 'timer-write', 'kept');
    });
    joinTurnTransaction(world.db, () => {});
    setMeta(world.db, 'request-write', 'undone');
    failTheCommit(world.db);
    commitTurnTransaction(world.db);
    expect(getMeta(world.db, 'timer-write')).toBe('kept');
    expect(getMeta(world.db, 'request-write')).toBeUndefined();
  });
});

describe('async handlers on the request path', () => {
  const eslint = new ESLint({
    overrideConfigFile: true,
    overrideConfig: [{ files: REQUEST_PATH_FILES, languageOptions: { parser: tseslint.parser }, rules: { 'no-restricted-syntax': synchronousRequestPath } }],
  });
  const problems = async (code: string) => (await eslint.lintText(code, { filePath: 'emulator/experience/routes.ts' }))[0]!.messages.map((message) => message.message);

  it('are refused by the lint, with the reason', async () => {
    expect(await problems("router.post('/session/entry', async (req, res) => { res.json(await entry(req)); });")).toEqual([
      expect.stringMatching(/answers synchronously.*decisions\/013/),
      expect.stringMatching(/answers synchronously/),
    ]);
  });

  it('a synchronous handler passes', async () => {
    expect(await problems("router.post('/session/entry', (req, res) => { res.json(entry(req)); });")).toEqual([]);
  });
});
