/**
 * The SQL of a data folder's lock (cli/folder-lock.ts says why the lock is an SQLite database): an
 * EXCLUSIVE transaction, begun and never ended, holds it; a read that meets SQLITE_BUSY finds it held.
 */
import Database from 'better-sqlite3';

/** Holds `file`'s exclusive lock until the handle is closed; throws SQLITE_BUSY when another process still holds it after `waitMs`. */
export function takeExclusiveLock(file: string, waitMs: number): Database.Database {
  const lock = new Database(file, { timeout: waitMs });
  try {
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    throw error;
  }
  return lock;
}

/** Whether a process holds `file`'s exclusive lock; false when the file is missing or cannot be read for another reason. */
export function exclusiveLockHeld(file: string): boolean {
  let probe: Database.Database | undefined;
  try {
    probe = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    probe.prepare('SELECT count(*) FROM sqlite_master').get();
    return false;
  } catch (error) {
    return (error as { code?: string }).code === 'SQLITE_BUSY';
  } finally {
    probe?.close();
  }
}
