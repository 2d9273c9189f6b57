#!/usr/bin/env node
/**
 * The `harness` command. `verify` exits 0 when every check passed, 1 when one failed, 2 when it
 * could not run (emulator or agency unreachable, bad config, no Chromium: one line says what to
 * fix), 3 when none failed but one is inconclusive (report/legend.ts). `doctor` runs only the
 * preflight (which also finds the promotion); `checks` lists the check ids, `scenarios` the scenarios.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { CHECKS, CHECK_IDS } from './checks/registry.js';
import { GROUPS } from './checks/types.js';
import { DEFAULT_EMULATOR, DEFAULT_OUT } from './config.js';
import { HarnessError, Interrupted } from './errors.js';
import { harnessVersion } from './paths.js';
import { preflight } from './preflight.js';
import { showControls } from './report/escape.js';
import { EXIT, exitCodeOf } from './report/legend.js';
import { FORMATS, type Format, isFormat } from './report/registry.js';
import { BUILT_IN_SCENARIOS, loadScenarios } from './scenarios/load.js';
import { NO_CALLBACK, resolveConfig, resolveTarget } from './target.js';
import { verify } from './verify.js';


const useColour = (stream: NodeJS.WriteStream) => Boolean(stream.isTTY) && !process.env.NO_COLOR;

const program = new Command('harness')
  .description('Drives an agency website through every scenario of the promo emulator and prints the approval checklist.')
  .version(harnessVersion())
  .configureOutput({ outputError: (text, write) => write(`[harness] ${text.replace(/^error: /, '')}`) })
  .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : EXIT.couldNotRun));

/** The options `verify` and `doctor` share: where the agency and the emulator are. */
function targetOptions(command: Command): Command {
  return command
    .option('--callback <url>', "the agency's production callback URL")
    .option('--preview <url>', "the agency's preview callback URL (runs the six sandbox scenarios)")
    .option('--emulator <url>', `the emulator's base URL (default: "emulator" in the config, else PROMO_BASE_URL, else http://127.0.0.1:$EMULATOR_PORT, else ${DEFAULT_EMULATOR})`)
    .option('--promotion <id|slug>', 'the promotion to verify (default: the one the callback URL is registered on, else the default one)')
    .option('--config <file>', 'harness.config.json (default: ./harness.config.json when there is one)')
    .addOption(new Option('--control-token <token>', "the emulator's control token, when it runs off loopback with --control-token").env('HARNESS_CONTROL_TOKEN'))
    .option('--install-browser', 'when no Chromium is found, try `playwright install chromium`, then apt-get on Debian as root');
}

interface TargetFlags {
  callback?: string;
  preview?: string;
  emulator?: string;
  promotion?: string;
  config?: string;
  controlToken?: string;
  installBrowser?: boolean;
}

targetOptions(program.command('verify'))
  .description('run the scenarios against the agency; exit 0 when every check passed, 1 when one failed, 2 when it could not run, 3 when one is inconclusive')
  .option('--only <ids>', 'only these checks (comma-separated ids; `harness checks` lists them)', list)
  .option('--format <formats>', `report files besides the terminal's text: ${FORMATS.join(',')}`, formats)
  .option('--out <dir>', 'the report folder', DEFAULT_OUT)
  .option('--max-seconds <n>', "the run's upper bound in seconds (default: fits its scenarios' own schedule); the reports are written when it is hit", seconds)
  .action(async (options: TargetFlags & { only?: string[]; format?: Format[]; out: string; maxSeconds?: number }) => {
    const report = await verify({
      ...options, formats: options.format, install: options.installBrowser ? 'attempt' : 'never', color: useColour(process.stdout), signal: interruptedBySignal(),
    });
    process.exitCode = exitCodeOf(report.summary);
  });

/**
 * SIGINT (Ctrl-C, also as npx or npm run pass it on) and SIGTERM (a CI runner cancelling the job)
 * end a run the same way: no verdict, the emulator put back as the run found it, no staging folder,
 * the earlier report removed (the terminal says so), exit 130. npx and npm run pass the terminal's
 * Ctrl-C on, so the process gets it twice: a signal within REPEAT_MS of the first is that one. A
 * later one, or a cleanup that has not ended within INTERRUPT_GRACE_MS, ends the process at once.
 * A SIGTERM sent to npx or npm run ends them and the shell they started the harness with, and never
 * reaches the harness: its parent gone, the harness ends the run as if it had.
 */
function interruptedBySignal(): AbortSignal {
  const controller = new AbortController();
  let first = 0;
  const stop = (why: string) => {
    if (controller.signal.aborted) {
      if (Date.now() - first > REPEAT_MS) process.exit(EXIT.interrupted);
      return;
    }
    first = Date.now();
    clearInterval(orphaned);
    process.stderr.write(`[harness] interrupted (${why}): no verdict, no report; restoring the emulator's state\n`);
    controller.abort();
    setTimeout(() => process.exit(EXIT.interrupted), INTERRUPT_GRACE_MS).unref();
  };
  for (const name of ['SIGINT', 'SIGTERM'] as const) process.on(name, () => stop(name));
  const parent = process.ppid;
  const orphaned = setInterval(() => process.ppid !== parent && stop('the process that started it ended'), PARENT_CHECK_MS);
  orphaned.unref();
  return controller.signal;
}

const PARENT_CHECK_MS = 250;
const REPEAT_MS = 1_000;
const INTERRUPT_GRACE_MS = 15_000;

targetOptions(program.command('doctor'))
  .description('only the preflight: emulator, promotion, agency URLs, Chromium; exit 0 when all is ready, 2 when not (without --callback it checks the rest, then says so)')
  .action(async (options: TargetFlags) => {
    const { client, callback, preview, promotion } = resolveTarget(options);
    const result = await preflight({ client, callback, preview, promotion, install: options.installBrowser ? 'attempt' : 'never', browserGiven: false }, (line) => process.stdout.write(`${showControls(line)}\n`));
    for (const note of result.notes) process.stdout.write(`[harness] note: ${showControls(note)}\n`);
    if (!callback) throw new HarnessError(`${NO_CALLBACK}; everything else above is ready`);
    process.stdout.write('[harness] ready: `harness verify` can run\n');
  });

program
  .command('checks')
  .description('list the checks: id, group and title')
  .action(() => {
    const width = Math.max(...CHECKS.map((check) => check.id.length));
    for (const check of CHECKS) process.stdout.write(`${check.id.padEnd(width)}  ${GROUPS[check.group]}: ${check.title}\n`);
  });

program
  .command('scenarios')
  .description('list the scenarios, built-in and from the config\'s folders: id, phase and the checks each feeds')
  .option('--config <file>', 'harness.config.json (default: ./harness.config.json when there is one)')
  .action((options: { config?: string }) => {
    const { config } = resolveConfig(options.config);
    const { scenarios } = loadScenarios([BUILT_IN_SCENARIOS, ...config.scenarios], CHECK_IDS, config.disable_scenarios);
    const width = Math.max(...scenarios.map((scenario) => scenario.id.length));
    for (const scenario of scenarios) process.stdout.write(`${scenario.id.padEnd(width)}  ${scenario.phase}: ${scenario.title}\n${' '.repeat(width + 2)}feeds ${scenario.feeds.join(', ')}\n`);
  });

function list(text: string): string[] {
  return text.split(',').map((item) => item.trim()).filter(Boolean);
}

function formats(text: string): Format[] {
  const names = list(text);
  const unknown = names.filter((name) => !isFormat(name));
  if (unknown.length) throw new InvalidArgumentError(`unknown format ${unknown.join(', ')}; choose from ${FORMATS.join(', ')}`);
  return names as Format[];
}

function seconds(text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 10 || value > 86_400) throw new InvalidArgumentError('a whole number of seconds from 10 to 86400');
  return value;
}

// A reader that stops early (`harness checks | head -1`) closes the pipe: end quietly, as a writer to a pipe should.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

program.parseAsync().catch((error: unknown) => {
  if (error instanceof Interrupted) {
    process.exit(EXIT.interrupted);
  }
  // The message may quote what the agency answered (a content type): printed, never obeyed.
  if (error instanceof HarnessError) process.stderr.write(`[harness] ${showControls(error.message)}\n`);
  else if (process.env.HARNESS_DEBUG) process.stderr.write(`[harness] could not run: ${(error instanceof Error ? (error.stack ?? error.message) : String(error)).split('\n').map(showControls).join('\n')}\n`);
  else process.stderr.write(`[harness] could not run: ${showControls(firstLine(error))} (HARNESS_DEBUG=1 shows the stack)\n`);
  process.exitCode = EXIT.couldNotRun;
});

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n').find((line) => line.trim())?.trim() ?? 'unknown error';
}
