import { expect, it } from 'vitest';
import { createCollector } from '../../emulator/store/collectors.js';
import { openDb } from '../../emulator/store/db.js';
import { snapshotTables } from '../../emulator/store/snapshot.js';

it('gives every table, or the named ones, each row as JSON text in a stable order', () => {
  const db = openDb(':memory:');
  createCollector(db, { email: 'b@example.test', country: 'DE', city: null, now: 0 });
  createCollector(db, { email: 'a@example.test', country: 'AT', city: 'Graz', now: 0 });
  const all = snapshotTables(db);
  expect(Object.keys(all)).toContain('sessions');
  expect(all.sessions).toEqual([]);
  const { collectors } = snapshotTables(db, ['collectors']);
  expect(collectors.map((row) => (JSON.parse(row) as { email: string }).email).sort()).toEqual(['a@example.test', 'b@example.test']);
  expect(collectors).toEqual([...collectors].sort());
  expect(snapshotTables(db, ['collectors'])).toEqual({ collectors });
});

it('refuses a table that does not exist rather than reading nothing', () => {
  const db = openDb(':memory:');
  expect(() => snapshotTables(db, ['colectors'])).toThrow(/no table named colectors/);
});
