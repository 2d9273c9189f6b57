/**
 * Stand-in for `emulator start --foreground` while the CLI does not exist: loads the default
 * fixture and serves it with startServer. Usage: node dist/bench/start-server.js --data DIR --port N
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { loadFixture } from '../emulator/fixture.js';
import { createLogger } from '../emulator/logger.js';
import { startServer } from '../emulator/server.js';
import { DEFAULT_FIXTURE_PATH } from './paths.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, port: { type: 'string' } } });
if (!values.data || !values.port) {
  console.error('[bench] usage: start-server --data DIR --port N');
  process.exit(1);
}

const logger = createLogger('emulator', { level: 'info' }, pino.destination({ dest: join(values.data, 'emulator.log'), mkdir: true, sync: false }));
const running = await startServer({ fixture: loadFixture(DEFAULT_FIXTURE_PATH), data: values.data, host: '127.0.0.1', port: Number(values.port), logger });
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
