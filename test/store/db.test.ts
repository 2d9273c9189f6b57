import { describe, expect, it } from 'vitest';
import { openDb } from '../../emulator/store/db.js';

const names = (db: ReturnType<typeof openDb>) => (db.prepare('SELECT name FROM t ORDER BY name').all() as Array<{ name: string }>).map((row) => row.name);

describe("the connection's transactions (one set of wrappers per connection)", () => {
  it('commits, hands the arguments and the result through, and rolls back on a throw', () => {
    const db = openDb(':memory:');
    db.exec('CREATE TABLE t (name TEXT)');
    const add = db.transaction((name: string, twice: boolean) => {
      db.prepare('INSERT INTO t (name) VALUES (?)').run(name);
      if (twice) db.prepare('INSERT INTO t (name) VALUES (?)').run(`${name}2`);
      return name.length;
    });
    expect(add('a', true)).toBe(1);
    expect(add.immediate('bb', false)).toBe(2);
    expect(() => db.transaction(() => {
      db.prepare("INSERT INTO t (name) VALUES ('never')").run();
      throw new Error('refused');
    }).exclusive()).toThrow('refused');
    expect(names(db)).toEqual(['a', 'a2', 'bb']);
    expect(db.inTransaction).toBe(false);
  });

  it('nests as savepoints: an inner refusal rolls back alone, the outer one commits', () => {
    const db = openDb(':memory:');
    db.exec('CREATE TABLE t (name TEXT)');
    db.transaction(() => {
      db.prepare("INSERT INTO t (name) VALUES ('outer')").run();
      expect(() => db.transaction(() => {
        db.prepare("INSERT INTO t (name) VALUES ('inner')").run();
        throw new Error('inner refused');
      }).immediate()).toThrow('inner refused');
      expect(db.inTransaction).toBe(true);
    }).deferred();
    expect(names(db)).toEqual(['outer']);
  });
});
