/** The health probe: whether the world reads, by what every route reads first (its promotions and keys). */
import type { Db } from './db.js';

/** Why the database cannot be read, or undefined when it can. */
export function databaseProblem(db: Db): string | undefined {
  try {
    db.prepare('SELECT (SELECT count(*) FROM promotions) + (SELECT count(*) FROM agency_keys)').get();
    return undefined;
  } catch (error) {
    return `the database cannot be read (${(error as { code?: string }).code ?? 'error'})`;
  }
}
