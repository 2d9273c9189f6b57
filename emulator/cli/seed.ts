/** `emulator seed --scans N [--webhooks]`: more seeded scan history on the running emulator, for scale testing. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { control, requireRunning } from './instance.js';
import { DEFAULT_DATA, dataPaths } from './paths.js';
import { say } from './print.js';

/** Generous: seeding runs at well over 10,000 scans a second. */
const timeoutFor = (scans: number) => 30_000 + scans / 10;

export function seedCommand(): Command {
  return new Command('seed')
    .description('add production scans (with entries and redemptions) to the history, for scale testing')
    .requiredOption('--scans <n>', 'how many scans to add, up to 10,000,000', scanCount)
    .option('--webhooks', 'also send scan.processed for every seeded production scan (one delivery per scan and endpoint)')
    .addOption(new Option('--data <dir>', 'the data folder of the running emulator').default(DEFAULT_DATA))
    .action(async (options: { scans: number; webhooks?: boolean; data: string }) => {
      const instance = await requireRunning(dataPaths(options.data));
      const answer = (await control(instance, 'POST', '/seed', { scans: options.scans, webhooks: options.webhooks === true }, timeoutFor(options.scans))) as {
        milliseconds: number;
      };
      say(`[emulator] seeded ${options.scans} scans in ${(answer.milliseconds / 1000).toFixed(1)} s`);
    });
}

function scanCount(text: string): number {
  if (!/^[1-9]\d*$/.test(text) || Number(text) > 10_000_000) throw new InvalidArgumentError('A whole number from 1 to 10,000,000.');
  return Number(text);
}
