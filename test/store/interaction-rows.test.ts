import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { commitTurnTransaction, joinTurnTransaction } from '../../emulator/fast-path/turn-transaction.js';
import { openDb } from '../../emulator/store/db.js';
import { listInteractions } from '../../emulator/store/interaction-reads.js';
import { discardInteractions, recordInteraction } from '../../emulator/store/interaction-rows.js';

const call = (status: number) => ({ at: 1, key_id: 1, session_id: null, method: 'GET', path: '/api/experience/v1/campaign', status, error: status >= 400 ? 'invalid_key' : null, body: null });
const stored = (db: ReturnType<typeof openDb>) => (db.prepare('SELECT status FROM interactions ORDER BY id').all() as Array<{ status: number }>).map((row) => row.status);

describe('the interaction log', () => {
  it('writes the calls of an event-loop turn together, at the end of the turn', async () => {
    const db = openDb(':memory:');
    recordInteraction(db, call(200));
    recordInteraction(db, call(401));
    expect(stored(db)).toEqual([]);
    await nextTurn();
    expect(stored(db)).toEqual([200, 401]);
  });

  it('writes the waiting calls inside the turn\'s shared transaction, committed with it', () => {
    const db = openDb(':memory:');
    recordInteraction(db, call(200));
    const outcomes: unknown[] = [];
    joinTurnTransaction(db, (error) => outcomes.push(error));
    commitTurnTransaction(db);
    expect(outcomes).toEqual([undefined]);
    expect(stored(db)).toEqual([200]);
  });

  it('is complete for any reader, even within the turn', () => {
    const db = openDb(':memory:');
    recordInteraction(db, call(200));
    expect(listInteractions(db, {}).map((row) => row.status)).toEqual([200]);
  });

  it('forgets unwritten calls when the world is reset', async () => {
    const db = openDb(':memory:');
    recordInteraction(db, call(200));
    discardInteractions(db);
    await nextTurn();
    expect(stored(db)).toEqual([]);
  });
});

describe('the interaction log against hostile bodies', () => {
  it('records a note for a body nested too deeply to serialize', () => {
    const db = openDb(':memory:');
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`) as unknown;
    recordInteraction(db, { ...call(400), body: deep });
    expect(listInteractions(db, {})[0]!.body).toEqual({ unrecorded: 'the body is nested too deeply to record' });
  });
});
