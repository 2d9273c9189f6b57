/**
 * A lint setting that names a file fails when the file does not exist (eslint/named-files.js), so
 * a rename cannot leave a rule silently checking nothing, as the request path's once did.
 */
import { describe, expect, it } from 'vitest';
import { existing } from '../eslint/named-files.js';

describe('the files the lint names', () => {
  it('every one exists: the config loads', async () => {
    const { default: config } = (await import(new URL('../eslint.config.js', import.meta.url).href)) as { default: unknown[] };
    expect(config.length).toBeGreaterThan(3);
  });

  it('a file or a glob that matches no path stops the lint, naming it', () => {
    expect(() => existing(['emulator/app.ts', 'emulator/control/observer.ts'])).toThrow(/names emulator\/control\/observer\.ts, which no longer exists/);
    expect(() => existing(['emulator/gone/**/*.ts'])).toThrow(/emulator\/gone\/\*\*\/\*\.ts/);
  });

  it('a file and a glob that match pass', () => {
    expect(existing(['emulator/app.ts', 'emulator/store/**/*.ts'])).toEqual(['emulator/app.ts', 'emulator/store/**/*.ts']);
  });
});
