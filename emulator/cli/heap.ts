/**
 * V8 grows its young generation while the CLI loads its modules and the fixture, and keeps that
 * memory while the emulator sits idle (about 7 MB). Growth stays off until the server listens;
 * under load it saves garbage-collection time, so `restoreHeapGrowth` turns it back on then.
 * Imported first by cli.ts, so it runs before the other modules load.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--semi-space-growth-factor=1');

export function restoreHeapGrowth(): void {
  setFlagsFromString('--semi-space-growth-factor=2');
}
