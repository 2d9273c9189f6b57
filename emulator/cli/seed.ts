/** `emulator seed --scans N [--webhooks]`: more seeded scan history on the running emulator, for scale testing. */
import { Command, InvalidArgumentError } from 'commander';
import { CliError } from '../cli-error.js';
import { controlResponse, requireRunning } from './instance.js';
import { CLI, dataOption, dataPaths } from './paths.js';
import { say, sayError } from './print.js';

/** Generous: seeding runs at well over 10,000 scans a second. */
const timeoutFor = (scans: number) => 30_000 + scans / 10;

export function seedCommand(): Command {
  return new Command('seed')
    .description('add production scans (with entries and redemptions) to the history, for scale testing; progress goes to stderr')
    .requiredOption('--scans <n>', 'how many scans to add, up to 10,000,000', scanCount)
    .option('--webhooks', 'also send scan.processed for every seeded production scan (one delivery per scan and endpoint)')
    .addOption(dataOption())
    .action(async (options: { scans: number; webhooks?: boolean; data: string }) => {
      const instance = await requireRunning(dataPaths(options.data));
      const res = await controlResponse(instance, 'POST', '/seed', { scans: options.scans, webhooks: options.webhooks === true, progress: true }, timeoutFor(options.scans));
      const answer = await followProgress(res);
      say(`[emulator] seeded ${options.scans} scans in ${(answer.milliseconds / 1000).toFixed(1)} s`);
    });
}

/**
 * Reads the NDJSON answer, printing a plain line on stderr each time another tenth is done (short
 * of the end, which stdout reports), whether or not stderr is a terminal: a CI log shows it too.
 */
async function followProgress(res: Response): Promise<{ milliseconds: number }> {
  let shownTenths = 0;
  let rest = '';
  const decoder = new TextDecoder();
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const lines = (rest + decoder.decode(chunk, { stream: true })).split('\n');
    rest = lines.pop()!;
    for (const line of lines.filter(Boolean)) {
      const message = JSON.parse(line) as { added: number; total: number } | { milliseconds: number };
      if ('milliseconds' in message) return message;
      const tenths = Math.floor((message.added / message.total) * 10);
      if (tenths > shownTenths && message.added < message.total) {
        shownTenths = tenths;
        sayError(`[emulator] seeding: ${Math.floor((message.added / message.total) * 100)}% (${message.added.toLocaleString('en')} of ${message.total.toLocaleString('en')} scans)`);
      }
    }
  }
  throw new CliError(`[emulator] the emulator stopped answering before seeding was done; see \`${CLI} logs\``);
}

function scanCount(text: string): number {
  if (!/^[1-9]\d*$/.test(text) || Number(text) > 10_000_000) throw new InvalidArgumentError('A whole number from 1 to 10,000,000.');
  return Number(text);
}
