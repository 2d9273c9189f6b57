/**
 * The guards of the experience API's request path (decisions/013): events wait for the commit,
 * a write from a timer gets a transaction of its own, and the lint refuses an async handler.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it, vi } from 'vitest';
import { announce } from '../emulator/events.js';
import { getMeta, setMeta } from '../emulator/store/db.js';
import { commitTurnTransaction, joinTurnTransaction, ownTransaction } from '../emulator/fast-path/turn-transaction.js';
import { REQUEST_PATH_FILES, synchronousRequestPath } from '../eslint/synchronous.js';
import { abortOpenTransaction } from './support/raw-storage.js';
import { testWorld } from './world.js';

/** Makes the turn's COMMIT fail, as a full disk would: its transaction is gone before the commit. */
const failTheCommit = abortOpenTransaction;

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
