/**
 * The brand's console on the command line: `keys`, `callback set`, `checklist`, `approve`,
 * `pause`, `resume`. Each finds the running emulator through its data folder and calls
 * `/_emulator/console`; `--json` prints the answer as it came.
 */
import { Command, Option } from 'commander';
import type { Checklist } from '../console/checklist.js';
import type { KeyJson } from '../console/lifecycle.js';
import { HOSTED_REASON_TEXT, type Route } from '../journey/routing.js';
import { control, requireRunning } from './instance.js';
import { DEFAULT_DATA, dataPaths } from './paths.js';
import { CLI } from './paths.js';

type Printed = { data: string; json?: boolean };

const dataOption = () => new Option('--data <dir>', 'the data folder: database, logs, instance file').default(DEFAULT_DATA);
const jsonOption = () => new Option('--json', 'print the answer as JSON');

async function consoleCall(data: string, method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
  return control(await requireRunning(dataPaths(data)), method, `/console${path}`, method === 'POST' ? (body ?? {}) : undefined);
}

/** Prints JSON with --json, else the text `describe` makes of the answer. */
function print<T>(options: Printed, answer: unknown, describe: (answer: T) => string): void {
  process.stdout.write(options.json ? `${JSON.stringify(answer, null, 2)}\n` : `${describe(answer as T)}\n`);
}

function routingLine(route: Route): string {
  return route.to === 'agency'
    ? `production scans go to the agency at ${route.callback}`
    : `production scans go to the hosted page: ${route.reasons.map((reason) => HOSTED_REASON_TEXT[reason]).join('; ')}`;
}

function keyTable(keys: KeyJson[]): string {
  const rows = [['ID', 'ENV', 'KEY', 'STATUS', 'EXPIRES'], ...keys.map((key) => [String(key.id), key.environment, key.masked, key.status, key.expires_at?.slice(0, 10) ?? ''])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n');
}

const SHOWN_ONCE = 'Copy it now: it is shown once and only its hash is stored.';

function keysCommand(): Command {
  const keys = new Command('keys').description("the promotion's agency keys: list, create, rotate, revoke");
  keys.command('list').description('list the keys, masked').addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed) => print<{ data: KeyJson[] }>(options, await consoleCall(options.data, 'GET', '/keys'), ({ data }) => keyTable(data)));
  keys.command('create').description('create a key; its secret is printed once')
    .addOption(new Option('--env <environment>', 'the key\'s environment').choices(['sandbox', 'production']).makeOptionMandatory())
    .addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed & { env: string }) =>
      print<KeyJson & { secret: string }>(options, await consoleCall(options.data, 'POST', '/keys', { environment: options.env }), (key) => `[emulator] created ${key.environment} key #${key.id}:\n${key.secret}\n${SHOWN_ONCE}`));
  keys.command('rotate').description('create a new key of the same environment; the old one works until you revoke it')
    .argument('<id>', 'the key to replace').addOption(dataOption()).addOption(jsonOption())
    .action(async (id: string, options: Printed) =>
      print<KeyJson & { secret: string; replaces: number }>(options, await consoleCall(options.data, 'POST', `/keys/${encodeURIComponent(id)}/rotate`), (key) =>
        `[emulator] created ${key.environment} key #${key.id} to replace #${key.replaces}:\n${key.secret}\n${SHOWN_ONCE}\nOnce the agency uses it: ${CLI} keys revoke ${key.replaces}`));
  keys.command('revoke').description('revoke a key at once').argument('<id>', 'the key to revoke').addOption(dataOption()).addOption(jsonOption())
    .action(async (id: string, options: Printed) =>
      print<{ key: KeyJson; routing: Route }>(options, await consoleCall(options.data, 'POST', `/keys/${encodeURIComponent(id)}/revoke`), ({ key, routing }) => `[emulator] revoked ${key.environment} key #${key.id}; ${routingLine(routing)}`));
  return keys;
}

function callbackCommand(): Command {
  const callback = new Command('callback').description("the agency's callback URLs");
  callback.command('set').description('set the production (and preview) callback URL; a change clears the approval and the checklist')
    .requiredOption('--production <url>', 'the production callback URL: https, no query, no fragment')
    .option('--preview <url>', 'the preview callback URL the brand reviews')
    .addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed & { production: string; preview?: string }) => {
      const body = { production: options.production, ...(options.preview === undefined ? {} : { preview: options.preview }) };
      type Answer = { callbacks: { production: string; preview: string | null }; changed: boolean; warnings: string[] };
      print<Answer>(options, await consoleCall(options.data, 'POST', '/callbacks', body), ({ callbacks, changed, warnings }) =>
        [
          `[emulator] production callback: ${callbacks.production}`,
          `[emulator] preview callback: ${callbacks.preview ?? '(none)'}`,
          changed ? '[emulator] changed: the approval and the checklist start over' : '[emulator] unchanged',
          ...warnings.map((warning) => `[emulator] warning: ${warning}`),
        ].join('\n'));
    });
  return callback;
}

function checklistCommand(): Command {
  return new Command('checklist').description('the six sandbox scenarios: session created and entry submitted by this promotion\'s sandbox key')
    .addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed) =>
      print<Checklist>(options, await consoleCall(options.data, 'GET', '/checklist'), ({ items, complete, missing }) =>
        [
          ...items.map((item) => `${item.session_created && item.entry_submitted ? 'ok  ' : 'todo'}  ${item.scenario.padEnd(16)} session ${item.session_created ? 'created' : 'missing'}, entry ${item.entry_submitted ? 'submitted' : 'missing'}`),
          complete ? '[emulator] checklist complete' : `[emulator] checklist incomplete: ${missing.length} step(s) to go`,
        ].join('\n')));
}

function approveCommand(): Command {
  return new Command('approve').description('approve the agency experience; refused with what is missing while the checklist is incomplete or the promotion is not live')
    .addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed) =>
      print<{ approved_at: string }>(options, await consoleCall(options.data, 'POST', '/approve'), ({ approved_at }) => `[emulator] approved at ${approved_at}`));
}

function routingCommand(name: 'pause' | 'resume', description: string): Command {
  return new Command(name).description(description).addOption(dataOption()).addOption(jsonOption())
    .action(async (options: Printed) => print<{ routing: Route }>(options, await consoleCall(options.data, 'POST', `/${name}`), ({ routing }) => `[emulator] ${name === 'pause' ? 'paused' : 'resumed'}: ${routingLine(routing)}`));
}

/** The console's commands, for `program.addCommand` in cli.ts. */
export function consoleCommands(): Command[] {
  return [
    keysCommand(),
    callbackCommand(),
    checklistCommand(),
    approveCommand(),
    routingCommand('pause', 'send production scans to the hosted page; entries and prizes stay'),
    routingCommand('resume', 'route production scans to the agency again'),
  ];
}
