/**
 * Every shell block of README.md (and of docs/*.md) runs as written, in order, in one bash session,
 * against a fresh emulator: what a newcomer pasting them one after the other would get (issue 15).
 *
 * The blocks stay as written. The session only gets what the README itself documents:
 * `EMULATOR_PORT` (a free port) and `EMULATOR_DATA` (a temp folder) for the emulator, and `npx
 * emulator` runs the built CLI (`dist/emulator/cli.js`, the package's bin) without npm's own start-up.
 * `set -euo pipefail` stops at the first failing command or unset variable, and `curl` fails on an
 * HTTP error (`--fail-with-body`, unless the block asks for `-f` itself), so a 404 in a snippet fails
 * the test. A block preceded by `<!-- not run: reason -->` is skipped, and the test lists it.
 * Run `npm run build` first.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, test } from 'vitest';
import { freePort } from './hardening/processes.js';
import { stopEmulatorOf } from './packaging/support.js';
import { type Block, codeBlocks, SHELL } from './support/markdown.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function documents(): Block[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => join('docs', name));
  return ['README.md', ...docs].flatMap((file) => codeBlocks(file, readFileSync(join(ROOT, file), 'utf8'), SHELL));
}

const scratch = mkdtempSync(join(tmpdir(), 'emulator-readme-'));
const data = join(scratch, 'data');

afterAll(() => {
  stopEmulatorOf(data);
  rmSync(scratch, { recursive: true, force: true });
});

/** `npx emulator …` and `npx harness …` as the package's bins; anything else npx would fetch is refused. */
function npxShim(): string {
  const bin = join(scratch, 'bin');
  if (existsSync(bin)) return bin;
  mkdirSync(bin);
  writeFileSync(join(bin, 'npx'), `#!/bin/sh
case "$1" in
  emulator) shift; exec "${process.execPath}" "${join(ROOT, 'dist/emulator/cli.js')}" "$@" ;;
  harness) shift; exec "${process.execPath}" "${join(ROOT, 'dist/harness/cli.js')}" "$@" ;;
  *) echo "README test: npx $1 is not available here; mark the block <!-- not run: reason -->" >&2; exit 127 ;;
esac
`);
  chmodSync(join(bin, 'npx'), 0o755);
  return bin;
}

const PRELUDE = `set -euo pipefail
curl() {
  local arg
  for arg in "$@"; do case "$arg" in --fail|--fail-with-body|-[!-]*f*) command curl "$@"; return;; esac; done
  command curl --fail-with-body "$@"
}
`;

function runBash(script: string, env: NodeJS.ProcessEnv, cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('close', (code) => resolve({ code, output }));
  });
}

test('every shell block of the README runs as written, in order, against a fresh emulator', { timeout: 240_000 }, async () => {
  const blocks = documents();
  const run = blocks.filter((block) => !block.skipped);
  const skipped = blocks.filter((block) => block.skipped);
  console.info(`README blocks not run:\n${skipped.map((block) => `  ${block.file}:${block.line}  ${block.skipped}`).join('\n')}`);
  expect(run.length).toBeGreaterThanOrEqual(8);

  const script = PRELUDE + run.map((block) => `printf '\\n::block %s::\\n' '${block.file}:${block.line}'\n${block.text}\n`).join('');
  const work = join(scratch, 'work');
  mkdirSync(work);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PROMO_|EMULATOR_|HARNESS_CONTROL)/.test(name)));
  const env = { ...inherited, PATH: `${npxShim()}:${process.env.PATH}`, EMULATOR_PORT: String(await freePort()), EMULATOR_DATA: data, NO_COLOR: '1' };
  const { code, output } = await runBash(script, env, work);

  const failedIn = [...output.matchAll(/::block (\S+)::/g)].at(-1)?.[1];
  expect(code, `the block at ${failedIn} failed:\n${output.slice(-4000)}`).toBe(0);
  expect([...output.matchAll(/::block (\S+)::/g)].length).toBe(run.length);
});

test('a block is skipped only by a marker that says why', () => {
  const blocks = codeBlocks('example.md', ['```sh', 'echo run', '```', '', '<!-- not run: starts a server in the foreground -->', '', '```bash', 'npm start', '```', '  ```shell', '  echo indented', '  ```', '```ts', 'let x = 1;', '```'].join('\n'), SHELL);
  expect(blocks).toEqual([
    { file: 'example.md', line: 1, lang: 'sh', text: 'echo run' },
    { file: 'example.md', line: 7, lang: 'bash', text: 'npm start', skipped: 'starts a server in the foreground' },
    { file: 'example.md', line: 10, lang: 'shell', text: 'echo indented' },
  ]);
});

test("the reference agency's walk-through sets the callback URLs before it runs the previews, which a callback change would clear", () => {
  const text = readFileSync(join(ROOT, 'fixtures/agency-reference/README.md'), 'utf8');
  const walk = text.slice(text.indexOf('## Walk through it as an agency'), text.indexOf('## What it does'));
  const steps = walk.split(/\n(?=\d+\. )/).slice(1);
  const callbackStep = steps.findIndex((step) => step.includes('emulator callback set'));
  const previewStep = steps.findIndex((step) => step.includes('/preview` and each of the six'));
  const approveStep = steps.findIndex((step) => step.includes('emulator approve'));
  expect(callbackStep).toBeGreaterThanOrEqual(0);
  expect([callbackStep < previewStep, previewStep < approveStep]).toEqual([true, true]);
});
