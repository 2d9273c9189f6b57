/**
 * `emulator webhooks add URL [--events ...] [--json] | list [--json] | remove ID | listen
 * [--forward-to URL]`: the running emulator's webhook endpoints, through its control plane, and
 * its events as they happen (listen.ts). Loads no express or SQLite.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { isIdText } from '../domain/ids.js';
import { WEBHOOK_EVENTS } from '../store/webhooks.js';
import { control, requireRunning } from './instance.js';
import { dataOption, dataPaths } from './paths.js';
import { say } from './print.js';
import { CLI } from './paths.js';

interface EndpointAnswer {
  id: number;
  url: string;
  events: string[];
  created_at: string;
  secret?: string;
}

const running = async (data: string) => requireRunning(dataPaths(data));

export function webhooksCommand(): Command {
  const command = new Command('webhooks').description('endpoints the emulator sends signed events to (scans, entries, batches)');

  command
    .command('add')
    .description('register an endpoint; prints its id and signing secret, shown this once')
    .argument('<url>', 'where to POST events, http or https')
    .addOption(new Option('--events <names...>', 'the events to send (default: all)').choices(WEBHOOK_EVENTS))
    .option('--json', 'print the endpoint, secret included, as JSON')
    .addOption(dataOption())
    .action(async (url: string, options: { events?: string[]; json?: boolean; data: string }) => {
      const endpoint = (await control(await running(options.data), 'POST', '/webhooks', { url, events: options.events })) as EndpointAnswer;
      if (options.json) return void say(JSON.stringify(endpoint, null, 2));
      say(`[emulator] webhook endpoint ${endpoint.id} receives ${endpoint.events.join(', ')} at ${endpoint.url}`);
      say(`  Signing secret (shown once): ${endpoint.secret}`);
      say('  Verify X-Service-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "t.body"> with it; see the README.');
    });

  command
    .command('list')
    .description('list the endpoints in use')
    .option('--json', 'print them as JSON')
    .addOption(dataOption())
    .action(async (options: { json?: boolean; data: string }) => {
      const { data } = (await control(await running(options.data), 'GET', '/webhooks')) as { data: EndpointAnswer[] };
      if (options.json) return void say(JSON.stringify(data, null, 2));
      if (data.length === 0) return void say(`[emulator] no webhook endpoints; add one with \`${CLI} webhooks add URL\``);
      for (const endpoint of data) say(`${String(endpoint.id).padEnd(5)}${endpoint.url}  ${endpoint.events.join(',')}`);
    });

  command
    .command('remove')
    .description('stop sending to an endpoint; its deliveries stay readable')
    .argument('<id>', 'the endpoint id, as `webhooks list` shows it', endpointId)
    .addOption(dataOption())
    .action(async (id: number, options: { data: string }) => {
      await control(await running(options.data), 'POST', `/webhooks/${id}/remove`);
      say(`[emulator] removed webhook endpoint ${id}`);
    });

  command
    .command('listen')
    .description('print each webhook delivery as it happens and forward it, signed, to a URL (like `stripe listen`)')
    .option('--forward-to <url>', 'POST each delivery here, signed with the secret this command prints')
    .addOption(new Option('--events <names...>', 'only these events (default: all)').choices(WEBHOOK_EVENTS))
    .option('--print-body', 'print each delivery\'s JSON body too')
    .addOption(dataOption())
    .action(async (options: { forwardTo?: string; events?: string[]; printBody?: boolean; data: string }) => (await import('./listen.js')).listen(options));

  return command;
}

function endpointId(text: string): number {
  if (!isIdText(text)) throw new InvalidArgumentError('An endpoint id is a whole number, as `webhooks list` shows it.');
  return Number(text);
}
