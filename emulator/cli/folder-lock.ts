/**
 * One emulator per data folder. The process that serves a folder holds an exclusive lock on its
 * `emulator.lock` for its whole life: an SQLite database in which it opens an EXCLUSIVE transaction
 * and never ends it. SQLite takes the lock with fcntl(2), so the kernel drops it when the process
 * ends, also on kill -9: no stale lock file to clean up, no pid that a new process may have reused.
 * (Node has no flock; a pid file alone is not a lock: two starts both see it absent.) Checking is
 * trying to read: a held lock answers SQLITE_BUSY at once. The holder's pid goes beside it, in
 * `emulator.pid`, for the messages that name it; it means something only while the lock is held.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { exclusiveLockHeld, takeExclusiveLock } from '../store/folder-lock.js';
import type { DataPaths } from './paths.js';

/** Long enough to outwait a check's momentary read; a held lock is never let go sooner. */
const TAKE_WITHIN_MS = 2000;

/** The lock of this process, kept referenced so it is never collected (and closed) while it serves. */
let held: ReturnType<typeof takeExclusiveLock> | undefined;

export class FolderInUse extends Error {}

/** Takes the folder's lock for the rest of this process's life; throws FolderInUse when another process holds it. */
export function holdFolderLock(paths: DataPaths): void {
  try {
    held = takeExclusiveLock(paths.lock, TAKE_WITHIN_MS);
  } catch (error) {
    if ((error as { code?: string }).code === 'SQLITE_BUSY') throw new FolderInUse(paths.dir);
    throw error;
  }
  const partial = `${paths.lockOwner}.${process.pid}`;
  writeFileSync(partial, `${process.pid}\n`);
  renameSync(partial, paths.lockOwner);
}

/** Lets the folder go before the process ends (a command that only borrowed it). */
export function releaseFolderLock(): void {
  held?.close();
  held = undefined;
}

/** Whether a process holds the folder's lock, and its pid when it has written it. */
export function folderHolder(paths: DataPaths): { pid: number | undefined } | undefined {
  if (!exclusiveLockHeld(paths.lock)) return undefined;
  return { pid: ownerPid(paths) };
}

function ownerPid(paths: DataPaths): number | undefined {
  try {
    const pid = Number(readFileSync(paths.lockOwner, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
