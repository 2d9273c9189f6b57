/** `emulator seed --scans N [--webhooks]`: more seeded scan history on the running emulator, for scale testing. */
import { Command, InvalidArgumentError } from 'commander';
import { CliError } from '../cli-error.js';
import { isIdText } from '../domain/ids.js';
import { controlResponse, requireRunning } from './instance.js';
import { CLI, dataOption, dataPaths } from './paths.js';
import { say, sayError } from './print.js';

/** Generous: seeding runs at well over 10,000 scans a second. */
const timeoutFor = (scans: number) => 30_000 + Math.ceil(scans / 10);

export function seedCommand(): Command {
  return new Command('seed')
    .description('add production scans (with entries and redemptions) to the history, for scale testing; progress goes to stderr')
    .requiredOption('--scans <n>', 'how many scans to add, up to 10,000,000', scanCount)
    .option('--webhooks', 'make every seeded scan a production one and send scan.processed for each (one delivery per scan and endpoint)')
    .addOption(dataOption())
    .action(async (options: { scans: number; webhooks?: boolean; data: string }) => {
      const instance = await requireRunning(dataPaths(options.data));
      // Ctrl-C ends the request: the emulator stops seeding between two chunks, and this says what it added.
      const cancel = new AbortController();
      process.once('SIGINT', () => cancel.abort());
      const res = await controlResponse(instance, 'POST', '/seed', { scans: options.scans, webhooks: options.webhooks === true, progress: true }, timeoutFor(options.scans), cancel.signal).catch((error: unknown) => {
        // Ctrl-C before the answer's first line: the emulator stops all the same, having said nothing yet.
        throw cancel.signal.aborted ? ended('seeding cancelled', 0, options.scans, false) : error;
      });
      const answer = await followProgress(res, options.scans);
      say(`[emulator] seeded ${options.scans} scans in ${(answer.milliseconds / 1000).toFixed(1)} s`);
    });
}

type SeedLine = { added: number; total: number } | { milliseconds: number } | { stopped: 'cancelled' | 'reset'; added: number } | { error: string; message: string; added: number };

/**
 * What was added when a seed ended early: exactly what the emulator said, or, when it could not say
 * (Ctrl-C here, the emulator gone), at least the last step it reported (each was committed first).
 */
function ended(how: string, added: number, total: number, exact = true): CliError {
  return new CliError(`[emulator] ${how}; ${exact ? '' : 'at least '}${added.toLocaleString('en')} of ${total.toLocaleString('en')} scans were added and stay`);
}

/**
 * Reads the NDJSON answer, printing progress on stderr whether or not it is a terminal (a CI log
 * shows it too). A seed that ends early (Ctrl-C, a reset, a full disk, the emulator gone) says how
 * many scans it added, in one line, never with a stack trace.
 */
async function followProgress(res: Response, total: number): Promise<{ milliseconds: number }> {
  let shownTenths = 0;
  let rest = '';
  let committed = 0;
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
      rest = lines.pop()!;
      for (const line of lines.filter(Boolean)) {
        const message = JSON.parse(line) as SeedLine;
        if ('milliseconds' in message) return message;
        if ('error' in message) throw ended(`seeding stopped: ${message.message}`, message.added, total);
        if ('stopped' in message && message.stopped === 'reset') throw new CliError(`[emulator] seeding stopped: the emulator was reset meanwhile, which removed the ${message.added.toLocaleString('en')} scans seeded before it`);
        if ('stopped' in message) throw ended('seeding cancelled', message.added, total);
        committed = message.added;
        shownTenths = showProgress(message, shownTenths);
      }
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    // The connection ended mid-answer: Ctrl-C here, or the emulator stopped (`TypeError: terminated`).
    if ((error as Error).name === 'AbortError') throw ended('seeding cancelled', committed, total, false);
    throw ended(`the emulator stopped answering during the seed (see \`${CLI} logs\`)`, committed, total, false);
  }
  throw ended(`the emulator stopped answering before seeding was done (see \`${CLI} logs\`)`, committed, total, false);
}

/** A plain line on stderr each time another tenth is done, short of the end (which stdout reports). */
function showProgress(message: { added: number; total: number }, shownTenths: number): number {
  const tenths = Math.floor((message.added / message.total) * 10);
  if (tenths <= shownTenths || message.added >= message.total) return shownTenths;
  sayError(`[emulator] seeding: ${Math.floor((message.added / message.total) * 100)}% (${message.added.toLocaleString('en')} of ${message.total.toLocaleString('en')} scans)`);
  return tenths;
}

function scanCount(text: string): number {
  if (!isIdText(text) || Number(text) > 10_000_000) throw new InvalidArgumentError('A whole number from 1 to 10,000,000.');
  return Number(text);
}
