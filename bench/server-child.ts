/**
 * Entry point of a child process that runs one server under test on 127.0.0.1 (port 0) and says
 * which port over IPC; the emulator child also answers the commands of servers.ts.
 */
import { writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector';
import { expressApp, expressSqliteApp, nodeHttpServer } from './baselines.js';
import type { ChildMessage, Command, ParentMessage, ServerSpec } from './servers.js';
import { agencyKeys, authCodes, entryCounts, moreKeys, productionSessions, sandboxSessions, startEmulator } from './world.js';

type Emulator = Awaited<ReturnType<typeof startEmulator>>;

let emulator: Emulator | undefined;

const send = (message: ChildMessage) => process.send!(message);

process.on('message', (message: ParentMessage) => {
  if (message.type === 'start') {
    start(message.spec).then(
      (port) => send({ type: 'listening', port }),
      (error: Error) => send({ type: 'failed', message: error.message }),
    );
  } else {
    const { id } = message;
    new Promise((resolve) => resolve(answer(message.command))).then(
      (result) => send({ type: 'reply', id, result }),
      (error: Error) => send({ type: 'reply', id, error: error.stack ?? String(error) }),
    );
  }
});

process.on('SIGTERM', () => {
  if (emulator) void emulator.close().then(() => process.exit(0));
  else process.exit(0);
});

async function start(spec: ServerSpec): Promise<number> {
  if (spec.kind === 'emulator') {
    emulator = await startEmulator(spec.dataDir);
    return portOf(emulator.server);
  }
  const server =
    spec.kind === 'node-http' ? nodeHttpServer(spec.answers)
    : spec.kind === 'express' ? expressApp(spec.answers).listen(0, '127.0.0.1')
    : expressSqliteApp(spec.answers, spec.dataDir).listen(0, '127.0.0.1');
  if (!server.listening) {
    await new Promise<void>((listening, failed) => {
      server.once('error', failed);
      if (spec.kind === 'node-http') server.listen(0, '127.0.0.1', listening);
      else server.once('listening', listening);
    });
  }
  return portOf(server);
}

function answer(command: Command): unknown {
  if (command.type === 'profileStart') return startProfile();
  if (command.type === 'profileStop') return stopProfile(command.path);
  if (!emulator) throw new Error('commands need the emulator child');
  const { world } = emulator;
  switch (command.type) {
    case 'env': {
      const { sandboxKey, productionKey } = agencyKeys(world);
      return { sandboxKey, productionKey };
    }
    case 'sandboxSessions':
      return sandboxSessions(world, command.count);
    case 'productionSessions':
      return productionSessions(world, command.count);
    case 'entryCounts':
      return entryCounts(world);
    case 'authCodes':
      return authCodes(world, command.count);
    case 'moreKeys':
      return moreKeys(world, command.count);
  }
}

let profiler: Session | undefined;

function post(method: string): Promise<unknown> {
  return new Promise((resolve, reject) => profiler!.post(method, (error, result) => (error ? reject(error) : resolve(result))));
}

async function startProfile(): Promise<null> {
  profiler = new Session();
  profiler.connect();
  await post('Profiler.enable');
  await post('Profiler.start');
  return null;
}

async function stopProfile(path: string): Promise<null> {
  const { profile } = (await post('Profiler.stop')) as { profile: unknown };
  profiler!.disconnect();
  writeFileSync(path, JSON.stringify(profile));
  return null;
}

function portOf(server: Server): number {
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the server has no TCP address');
  return address.port;
}
