/** `emulator logs [--follow]`: the data folder's JSON log, made readable. */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRETTY_IGNORE } from '../logger.js';
import { CliError } from '../cli-error.js';
import { dataFlag, dataPaths } from './paths.js';
import { CLI } from './paths.js';

const FOLLOW_EVERY_MS = 200;

export async function logs(data: string, options: { follow?: boolean }): Promise<void> {
  const paths = dataPaths(data);
  if (!existsSync(paths.log)) throw new CliError(`[emulator] no log in ${paths.dir} yet; start an emulator with \`${CLI} start${dataFlag(paths.dir)}\``);
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory({ colorize: process.stdout.isTTY === true && !process.env.NO_COLOR, ignore: PRETTY_IGNORE });
  const print = (lines: string[]) => process.stdout.write(lines.map((line) => pretty(line)).join(''));

  let offset = 0;
  let partial = '';
  for (;;) {
    const size = statSync(paths.log).size;
    if (size < offset) offset = 0;
    if (size > offset) {
      const text = partial + readFrom(paths.log, offset, size - offset);
      offset = size;
      const lines = text.split('\n');
      partial = lines.pop()!;
      print(lines.filter(Boolean));
    }
    if (!options.follow) return;
    await sleep(FOLLOW_EVERY_MS);
  }
}

function readFrom(path: string, offset: number, length: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
