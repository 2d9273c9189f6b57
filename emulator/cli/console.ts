/**
 * The brand's console on the command line: `keys`, `callback set`, `checklist`, `approve`,
 * `pause`, `resume`. Each finds the running emulator through its data folder and calls
 * `/_emulator/console`, on the promotion `--promotion` names or else the default one; its text
 * says which promotion it acted on, and `--json` prints the answer as it came.
 */
import { Command, Option } from 'commander';
import type { PromotionRef } from '../use-cases/console/reads.js';
import type { Checklist } from '../use-cases/console/checklist.js';
import type { KeyJson } from '../use-cases/console/keys.js';
import { HOSTED_REASON_TEXT, type Route } from '../use-cases/journey/routing.js';
import { control, requireRunning } from './instance.js';
import { dataOption, dataPaths } from './paths.js';
import { CLI } from './paths.js';

type Printed = { data: string; json?: boolean; promotion?: string };
type Answer<T> = T & { promotion: PromotionRef };

const jsonOption = () => new Option('--json', 'print the answer as JSON');
export const promotionOption = () => new Option('--promotion <id>', "the promotion's id or slug (default: the default promotion; `env --json` lists them)");

/** Every console command takes these three. */
function consoleCommand(name: string, description: string): Command {
  return new Command(name).description(description).addOption(promotionOption()).addOption(dataOption()).addOption(jsonOption());
}

async function consoleCall(options: Printed, method: 'GET' | 'POST', path: string, body?: object): Promise<unknown> {
  const query = options.promotion === undefined ? '' : `?${new URLSearchParams({ promotion: options.promotion })}`;
  return control(await requireRunning(dataPaths(options.data)), method, `/console${path}${query}`, method === 'POST' ? (body ?? {}) : undefined);
}

/** Which promotion a command acted on: without --promotion, the default one, and how to name another. */
export function promotionLine(promotion: PromotionRef, named: boolean): string {
  const which = `[emulator] promotion #${promotion.id} ${promotion.slug} (${promotion.name})`;
  return named ? which : `${which}, the default: name another with --promotion`;
}

/**
 * Prints JSON with --json, else which promotion it was and the text `describe` makes of the answer.
 * A listing (`describe` gives headings and rows apart) keeps its headings on stderr, so that
 * `keys list | head -1` is a key; a terminal shows both.
 */
function print<T>(options: Printed, answer: unknown, describe: (answer: Answer<T>) => string | Listing): void {
  if (options.json) return void process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
  const which = promotionLine((answer as Answer<T>).promotion, options.promotion !== undefined);
  const text = describe(answer as Answer<T>);
  if (typeof text === 'string') return void process.stdout.write(`${which}\n${text}\n`);
  process.stderr.write(`${[which, ...text.headings].join('\n')}\n`);
  if (text.rows.length > 0) process.stdout.write(`${text.rows.join('\n')}\n`);
}

interface Listing {
  headings: string[];
  rows: string[];
}

function routingLine(route: Route): string {
  return route.to === 'agency'
    ? `production scans go to the agency at ${route.callback}`
    : `production scans go to the hosted page: ${route.reasons.map((reason) => HOSTED_REASON_TEXT[reason]).join('; ')}`;
}

function keyTable(keys: KeyJson[]): Listing {
  const rows = [['ID', 'ENV', 'KEY', 'STATUS', 'EXPIRES'], ...keys.map((key) => [String(key.id), key.environment, key.masked, key.status, key.expires_at?.slice(0, 10) ?? ''])];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const [heading, ...lines] = rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd());
  return { headings: [heading!], rows: lines };
}

const SHOWN_ONCE = 'Copy it now: it is shown once and only its hash is stored.';

function keysCommand(): Command {
  const keys = new Command('keys').description("a promotion's agency keys: list, create, rotate, revoke");
  keys.addCommand(consoleCommand('list', 'list the keys, masked')
    .action(async (options: Printed) => print<{ data: KeyJson[] }>(options, await consoleCall(options, 'GET', '/keys'), ({ data }) => keyTable(data))));
  keys.addCommand(consoleCommand('create', 'create a key; its secret is printed once')
    .addOption(new Option('--env <environment>', 'the key\'s environment').choices(['sandbox', 'production']).makeOptionMandatory())
    .action(async (options: Printed & { env: string }) =>
      print<KeyJson & { secret: string }>(options, await consoleCall(options, 'POST', '/keys', { environment: options.env }), (key) => `[emulator] created ${key.environment} key #${key.id}:\n${key.secret}\n${SHOWN_ONCE}`)));
  keys.addCommand(consoleCommand('rotate', 'create a new key of the same environment; the old one works until you revoke it')
    .argument('<id>', 'the key to replace')
    .action(async (id: string, options: Printed) =>
      print<KeyJson & { secret: string; replaces: number }>(options, await consoleCall(options, 'POST', `/keys/${encodeURIComponent(id)}/rotate`), (key) =>
        `[emulator] created ${key.environment} key #${key.id} to replace #${key.replaces}:\n${key.secret}\n${SHOWN_ONCE}\nOnce the agency uses it: ${CLI} keys revoke ${key.replaces}${options.promotion === undefined ? '' : ` --promotion ${key.promotion.slug}`}`)));
  keys.addCommand(consoleCommand('revoke', 'revoke a key at once').argument('<id>', 'the key to revoke')
    .action(async (id: string, options: Printed) =>
      print<{ key: KeyJson; routing: Route }>(options, await consoleCall(options, 'POST', `/keys/${encodeURIComponent(id)}/revoke`), ({ key, routing }) => `[emulator] revoked ${key.environment} key #${key.id}; ${routingLine(routing)}`)));
  return keys;
}

function callbackCommand(): Command {
  const callback = new Command('callback').description("the agency's callback URLs");
  callback.addCommand(consoleCommand('set', 'set the production (and preview) callback URL; a change clears the approval and the checklist')
    .requiredOption('--production <url>', 'the production callback URL: https, no query, no fragment')
    .option('--preview <url>', 'the preview callback URL the brand reviews')
    // A bare URL is not taken for the production one: it may be the agency's preview.
    .allowExcessArguments()
    .hook('preAction', (command) => {
      const [url] = command.args;
      if (url !== undefined) command.error(`callback set takes each URL after its flag, so a preview is never registered as production: ${CLI} callback set --production ${url} [--preview URL]`, { code: 'commander.excessArguments' });
    })
    .action(async (options: Printed & { production: string; preview?: string }) => {
      const body = { production: options.production, ...(options.preview === undefined ? {} : { preview: options.preview }) };
      type Change = { callbacks: { production: string; preview: string | null }; changed: boolean; warnings: string[] };
      print<Change>(options, await consoleCall(options, 'POST', '/callbacks', body), ({ callbacks, changed, warnings }) =>
        [
          `[emulator] production callback: ${callbacks.production}`,
          `[emulator] preview callback: ${callbacks.preview ?? '(none)'}`,
          changed ? '[emulator] changed: the approval and the checklist start over' : '[emulator] unchanged',
          ...warnings.map((warning) => `[emulator] warning: ${warning}`),
        ].join('\n'));
    }));
  return callback;
}

function checklistCommand(): Command {
  return consoleCommand('checklist', 'the six sandbox scenarios: session created and entry submitted by the promotion\'s sandbox key')
    .action(async (options: Printed) =>
      print<Checklist>(options, await consoleCall(options, 'GET', '/checklist'), ({ items, complete, missing }) =>
        [
          ...items.map((item) => `${item.session_created && item.entry_submitted ? 'ok  ' : 'todo'}  ${item.scenario.padEnd(16)} session ${item.session_created ? 'created' : 'missing'}, entry ${item.entry_submitted ? 'submitted' : 'missing'}`),
          complete ? '[emulator] checklist complete' : `[emulator] checklist incomplete: ${missing.length} step(s) to go`,
        ].join('\n')));
}

function approveCommand(): Command {
  return consoleCommand('approve', 'approve the agency experience; refused with what is missing while the checklist is incomplete or the promotion is not live')
    .action(async (options: Printed) =>
      print<{ approved_at: string }>(options, await consoleCall(options, 'POST', '/approve'), ({ approved_at }) => `[emulator] approved at ${approved_at}`));
}

function routingCommand(name: 'pause' | 'resume', description: string): Command {
  return consoleCommand(name, description)
    .action(async (options: Printed) => print<{ routing: Route }>(options, await consoleCall(options, 'POST', `/${name}`), ({ routing }) => `[emulator] ${name === 'pause' ? 'paused' : 'resumed'}: ${routingLine(routing)}`));
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
