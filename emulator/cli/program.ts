/**
 * The `emulator` command. Each action loads its module when it runs, so `status` or `env` never
 * pay for express and SQLite.
 */
import { Argument, Command, InvalidArgumentError, Option } from 'commander';
import { CliError } from '../cli-error.js';
import { consoleCommands, promotionOption } from './console.js';
import { parsePublicUrl } from './public-url.js';
import { seedCommand } from './seed.js';
import { webhooksCommand } from './webhooks.js';
import { CLI, dataOption, packageVersion } from './paths.js';
import { CLOCK_HELP } from './clock-usage.js';
import { endOnClosedOutput, sayError } from './print.js';
import { usageRules } from './usage.js';

const program = new Command('emulator')
  .description('A local sandbox of the packaging-promotion service: experience and reporting APIs on 127.0.0.1.')
  .version(packageVersion())
  .configureOutput({ outputError: (text, write) => write(`[emulator] ${text.replace(/^error: /, '')}`) });


program
  .command('start')
  .description('start in the background, wait until healthy, print the base URL, keys and known-outcome packs')
  .addOption(new Option('--port <port>', 'port to listen on').env('EMULATOR_PORT').argParser(parsePort).default(4010))
  .option('--host <host>', 'address to bind; 0.0.0.0 exposes it to your network', '127.0.0.1')
  .addOption(dataOption())
  .option('--fixture <path>', 'the seed world (default: the built-in fixtures/default.json)')
  .option('--seed <seed>', "overrides the fixture's seed (keys, codes and draws derive from it)")
  .option('--foreground', 'run in this process and log to the terminal (what Docker runs)')
  .option('--watch', 'apply edits of the fixture\'s campaign content live; report edits that need a reset')
  .addOption(new Option('--control-token <token>', 'lets non-loopback callers use /_emulator with this bearer token').env('EMULATOR_CONTROL_TOKEN'))
  .option('--allow-link-local-webhooks', 'let webhooks go where cloud metadata services answer: link-local addresses (169.254.0.0/16, fe80::/10) and the clouds\' own (100.100.100.200, fd00:ec2::254, ...)')
  .addOption(
    new Option('--public-url <url>', 'the origin agencies and browsers reach it at, if not the bind address (Docker, tunnel): pages, authorize_url, links, CSV and webhooks carry it')
      .env('EMULATOR_PUBLIC_URL')
      .argParser(parsePublicUrl),
  )
  .action(async (options) => (await import('./start.js')).start(options));

program
  .command('stop')
  .description('stop the emulator of the data folder')
  .addOption(dataOption())
  .action(async ({ data }) => (await import('./commands.js')).stop(data));

program
  .command('status')
  .description('say whether an emulator runs for the data folder (exit 0) or not (exit 1)')
  .addOption(dataOption())
  .action(async ({ data }) => (await import('./commands.js')).status(data));

program
  .command('env')
  .description(`a promotion's connection values as shell exports: eval "$(${CLI} env)"`)
  .addOption(promotionOption())
  .addOption(dataOption())
  .option('--json', 'everything /_emulator/env returns (every promotion and company too), as JSON')
  .action(async ({ data, ...options }) => (await import('./commands.js')).env(data, options));

program
  .command('logs')
  .description("print the emulator's log")
  .addOption(dataOption())
  .option('-f, --follow', 'keep printing new lines until Ctrl-C')
  .action(async ({ data, ...options }) => (await import('./logs.js')).logs(data, options));

program
  .command('reset')
  .description('seed the world from the fixture again: entries, sessions and scans are gone; the clock stays where it is')
  .addOption(dataOption())
  .action(async ({ data }) => (await import('./commands.js')).reset(data));

program
  .command('clock')
  .description('show or move the virtual clock (expiries, delivery progress, webhook retries)')
  .addArgument(new Argument('[action]', 'what to do; without one, shows the clock').choices(['advance', 'freeze', 'unfreeze', 'reset']))
  .argument('[value]', 'advance: a duration such as 31m, 2h, 1h30m, 90d; freeze: an ISO time with Z or an offset (default now)')
  .addOption(dataOption())
  .addHelpText('after', CLOCK_HELP)
  // `clock advance -1h` reaches the action, which says the clock only moves forward, rather than commander's "unknown option".
  .allowUnknownOption()
  .action(async (action, value, { data }) => (await import('./commands.js')).clock(data, action, value));

for (const command of [...consoleCommands(), webhooksCommand(), seedCommand()]) {
  program.addCommand(command);
}

function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new InvalidArgumentError('A port is a whole number from 0 to 65535.');
  return port;
}

usageRules(program);
endOnClosedOutput();
program.parseAsync().catch((error: unknown) => {
  if (!(error instanceof CliError)) throw error;
  sayError(error.message);
  process.exitCode = error.exitCode;
});
