/**
 * The server secret the pages' CSRF values are bound to (pages/csrf.ts): random, made once per
 * data folder and kept in `meta`, so that every process serving the folder accepts the forms the
 * others rendered. A reset empties `meta`: the next page rendered makes a new one.
 */
import { randomBytes } from 'node:crypto';
import { type Db, getMeta, setMetaOnce } from './db.js';

const KEY = 'form_secret';

export interface FormSecret {
  /** For rendering a form: made if there is none yet. */
  issue(): Buffer;
  /** For checking a form: none yet means no form can be valid, and nothing is written. */
  check(): Buffer | undefined;
}

export function formSecret(db: Db): FormSecret {
  const read = () => {
    const stored = getMeta(db, KEY);
    return stored === undefined ? undefined : Buffer.from(stored, 'base64url');
  };
  return {
    issue() {
      setMetaOnce(db, KEY, randomBytes(32).toString('base64url'));
      return read()!;
    },
    check: read,
  };
}
