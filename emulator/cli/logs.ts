/** `emulator logs [--follow]`: the data folder's JSON log, made readable. */
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { setTimeout as sleep } from 'node:timers/promises';
import { PRETTY_IGNORE } from '../logger.js';
import { CliError } from '../cli-error.js';
import { dataFlag, dataPaths } from './paths.js';
import { CLI } from './paths.js';

const FOLLOW_EVERY_MS = 200;
/** Read a piece at a time: a log of gigabytes is no buffer of gigabytes. */
const PIECE_BYTES = 1024 * 1024;

export async function logs(data: string, options: { follow?: boolean }): Promise<void> {
  const paths = dataPaths(data);
  if (!existsSync(paths.log)) throw new CliError(`[emulator] no log in ${paths.dir} yet; start an emulator with \`${CLI} start${dataFlag(paths.dir)}\``);
  const { prettyFactory } = await import('pino-pretty');
  const pretty = prettyFactory({ colorize: process.stdout.isTTY === true && !process.env.NO_COLOR, ignore: PRETTY_IGNORE });
  const print = (lines: string[]) => process.stdout.write(lines.map((line) => pretty(line)).join(''));

  let offset = 0;
  let partial = '';
  const decoder = new StringDecoder('utf8');
  for (;;) {
    const size = statSync(paths.log).size;
    if (size < offset) offset = 0;
    while (size > offset) {
      const length = Math.min(PIECE_BYTES, size - offset);
      const text = partial + decoder.write(readFrom(paths.log, offset, length));
      offset += length;
      const lines = text.split('\n');
      partial = lines.pop()!;
      print(lines.filter(Boolean));
    }
    if (!options.follow) return;
    await sleep(FOLLOW_EVERY_MS);
  }
}

function readFrom(path: string, offset: number, length: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}
