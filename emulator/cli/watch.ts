/**
 * `emulator start --watch`: edits of the fixture's campaign content apply live; an edit that
 * would need a reset (keys, packs, ids) is reported and not applied.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Context } from '../context.js';
import { type Fixture, FixtureError, type PromotionContent, parseFixture, readFixtureText } from '../fixture.js';
import { type Db, getMeta, setMeta } from '../store/db.js';
import { defaultPromotionId, updatePromotionContent } from '../store/promotions.js';
import { ownTransaction } from '../fast-path/turn-transaction.js';
import { CLI } from './paths.js';

/** Promotion fields `updatePromotionContent` can change on a running world; any other field needs a reset. */
const LIVE_PROMOTION_FIELDS = new Set<keyof PromotionContent>([
  'name', 'status', 'dates', 'copy', 'countries', 'budget', 'delivery_delay_seconds', 'prizes', 'terms',
]);

export type FixtureChange =
  | { kind: 'none' }
  | { kind: 'content'; fields: string[] }
  | { kind: 'reset'; fields: string[] };

/** What an edit of the fixture changed, and whether it can apply to a running world. */
export function classifyChange(before: Fixture, after: Fixture): FixtureChange {
  const reset: string[] = [];
  const content: string[] = [];
  for (const field of keysOf(before, after)) {
    if (field !== 'promotion' && !isDeepStrictEqual(before[field], after[field])) reset.push(field);
  }
  for (const field of keysOf(before.promotion, after.promotion)) {
    if (isDeepStrictEqual(before.promotion[field], after.promotion[field])) continue;
    const name = `promotion.${field}`;
    if (field === 'prizes' && before.promotion.prizes.length !== after.promotion.prizes.length) reset.push(`${name} (how many)`);
    else (LIVE_PROMOTION_FIELDS.has(field) ? content : reset).push(name);
  }
  if (reset.length) return { kind: 'reset', fields: reset };
  return content.length ? { kind: 'content', fields: content } : { kind: 'none' };
}

/** Both objects' keys, so an optional field that was added or removed counts too. */
function keysOf<T extends object>(before: T, after: T): Array<keyof T> {
  return [...new Set([...Object.keys(before), ...Object.keys(after)])] as Array<keyof T>;
}

/**
 * `emulator reset` empties the meta table too, so a missing mark tells the watcher the world was
 * re-seeded from `world.fixture` since it last looked.
 */
const SEEDED_MARK = 'watch_seeded_from_latest';

/** Sets the mark; true if it was missing. */
function markSeeded(db: Db): boolean {
  if (getMeta(db, SEEDED_MARK) !== undefined) return false;
  setMeta(db, SEEDED_MARK, '1');
  return true;
}

export interface FixtureWatcher {
  close(): Promise<void>;
}

/**
 * Watches the fixture file. `world.fixture` always holds the latest valid version, so
 * `emulator reset` applies edits that need a reset.
 */
export async function watchFixture(path: string, world: Context & { fixture: Fixture }): Promise<FixtureWatcher> {
  const { watch } = await import('chokidar');
  let seededFrom = structuredClone(world.fixture);
  // A file event comes in any turn: its writes get a transaction of their own (decisions/013).
  ownTransaction(world.db, () => markSeeded(world.db));

  const onEdit = () => {
    let next: Fixture;
    try {
      next = parseFixture(readFixtureText(path), path);
    } catch (error) {
      const problem = error instanceof FixtureError ? error.message.replace(/^\[emulator\] /, '') : `cannot read fixture ${path}`;
      world.logger.error(`${problem}; still serving the previous version`);
      return;
    }
    if (ownTransaction(world.db, () => markSeeded(world.db))) seededFrom = structuredClone(world.fixture);
    const change = classifyChange(seededFrom, next);
    replaceInPlace(world.fixture, next);
    if (change.kind === 'content') {
      ownTransaction(world.db, () => updatePromotionContent(world.db, defaultPromotionId(world.db), next.promotion));
      seededFrom = structuredClone(next);
      world.logger.info({ fields: change.fields }, `fixture edit applied live: ${change.fields.join(', ')}`);
    } else if (change.kind === 'reset') {
      const seedNote = change.fields.includes('seed') ? ' (a new seed takes effect only in a fresh --data folder)' : '';
      world.logger.warn(
        { fields: change.fields },
        `fixture edit not applied: ${change.fields.join(', ')} need a reset; run \`${CLI} reset\` to apply it, which clears entries and sessions${seedNote}`,
      );
    }
  };

  const watcher = watch(path, { ignoreInitial: true, awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 10 } });
  watcher.on('change', onEdit).on('add', onEdit);
  watcher.on('error', (error) => world.logger.error({ err: error }, `watching ${path} failed`));
  await new Promise<void>((ready) => watcher.once('ready', ready));
  return { close: () => watcher.close() };
}

/** The control router holds this very object and re-seeds from it on reset, so it is edited, not replaced. */
function replaceInPlace(target: Fixture, source: Fixture): void {
  for (const key of Object.keys(target) as Array<keyof Fixture>) if (!(key in source)) delete target[key];
  Object.assign(target, source);
}
