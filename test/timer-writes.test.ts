/**
 * A write from a timer or an I/O callback gets a transaction of its own (decisions/013): the lint
 * (eslint/timer-writes.js) refuses one that would join the requests' shared transaction instead.
 */
import { ESLint } from 'eslint';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { timerWritesRule } from '../eslint/timer-writes.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The code under lint, at the root: outside the project, so the project service takes its text as given. */
const SAMPLE = 'timer-sample.ts';

const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser, parserOptions: { projectService: { allowDefaultProject: [SAMPLE], defaultProject: 'tsconfig.json' }, tsconfigRootDir: ROOT } },
    plugins: { timers: { rules: { 'own-transaction': timerWritesRule } } },
    rules: { 'timers/own-transaction': 'error' },
  }],
});

/** The lint's messages on `body`, in a module that can reach a context, the store and the events. */
async function problems(body: string): Promise<string[]> {
  const code = `import type { Context } from './emulator/context.js';
import { announce } from './emulator/events.js';
import { setMeta } from './emulator/store/db.js';
import { ownTransaction } from './emulator/fast-path/turn-transaction.js';
${body}
`;
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, SAMPLE) });
  return result!.messages.map((message) => message.message);
}

const REFUSED = expect.stringMatching(/shared transaction \(decisions\/013\): wrap it in ownTransaction/);

describe('writes from timers and I/O callbacks', () => {
  // The first lint loads the project's TypeScript program: seconds alone, more beside other test files.
  beforeAll(() => problems('export {};'), 180_000);

  it('a timer write without ownTransaction is refused by the lint, with the reason', async () => {
    expect(await problems("export const later = (ctx: Context) => setTimeout(() => setMeta(ctx.db, 'k', 'v'), 10);")).toEqual([REFUSED]);
  });

  it('the same write inside ownTransaction passes', async () => {
    expect(await problems("export const later = (ctx: Context) => setTimeout(() => ownTransaction(ctx.db, () => setMeta(ctx.db, 'k', 'v')), 10);")).toEqual([]);
  });

  it('an async function writing through the context, or handing it on, is refused', async () => {
    expect(await problems(`declare function save(ctx: Context): void;
export async function afterFetch(ctx: Context): Promise<void> {
  await fetch('http://sink.test/');
  ctx.db.prepare('DELETE FROM meta').run();
  save(ctx);
}`)).toEqual([REFUSED, REFUSED]);
  });

  it('reading the connection is open, logging through the context and announcing pass', async () => {
    expect(await problems(`export async function afterFetch(ctx: Context): Promise<void> {
  await fetch('http://sink.test/');
  if (!ctx.db.open) return;
  ctx.logger.info('fetched');
  announce(ctx, 'webhooks.enqueued');
}`)).toEqual([]);
  });

  it('an emitter listener writing outside ownTransaction is refused', async () => {
    expect(await problems("export const listen = (ctx: Context) => ctx.events.on('webhooks.enqueued', () => setMeta(ctx.db, 'k', 'v'));")).toEqual([REFUSED]);
  });
});
