/**
 * The Dockerfile and compose.yaml, checked without a Docker engine: what the build copies exists and
 * passes .dockerignore, and the commands the images run work here, each run in a folder laid out as
 * its stage's COPY lines lay out /app.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { ConfigSchema } from '../../harness/config.js';
import { ROOT, freePort, removeTempFolders, run, startProcess, stopAll, tempFolder, waitForOk } from './support.js';

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  name: string;
  image: string;
  instructions: Instruction[];
}

/** FROM starts a stage; continuation lines are joined and comments dropped. */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  for (const line of lines) {
    const [, keyword, args] = /^(\S+)\s+(.*)$/.exec(line)!;
    if (keyword === 'FROM') {
      const [, image, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args!)!;
      stages.push({ name: name ?? String(stages.length), image: image!, instructions: [] });
    } else {
      stages.at(-1)!.instructions.push({ keyword: keyword!.toUpperCase(), args: args! });
    }
  }
  return stages;
}

const stages = parseDockerfile(readFileSync(join(ROOT, 'Dockerfile'), 'utf8'));
const stage = (name: string) => stages.find((candidate) => candidate.name === name)!;
const final = stages.at(-1)!;
const instruction = (of: Stage, keyword: string) => of.instructions.filter((each) => each.keyword === keyword).map((each) => each.args);
const exec = (args: string) => JSON.parse(args) as string[];
const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');

interface Copy {
  from?: string;
  sources: string[];
  target: string;
}

function copies(of: Stage): Copy[] {
  return instruction(of, 'COPY').map((args) => {
    const words = args.split(/\s+/);
    const from = words[0]!.startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
    return { from, sources: words.slice(0, -1), target: words.at(-1)! };
  });
}

/** Top-level .dockerignore patterns, `*` and plain names only, the last match deciding. */
function ignored(path: string): boolean {
  const patterns = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
  const top = path.split('/')[0];
  let result = false;
  for (const pattern of patterns) {
    const negated = pattern.startsWith('!');
    const name = negated ? pattern.slice(1) : pattern;
    if (name === '*' || name === top || name === path) result = !negated;
  }
  return result;
}

/**
 * A folder holding what `COPY --from=build /app/...` puts in the stage's /app. The build stage's
 * /app is this checkout after `npm run build` (its dist/, without a single executable in dist/sea).
 */
function layOut(of: Stage): string {
  const app = tempFolder('emulator-docker-app-');
  const buildRoot = instruction(stage('build'), 'WORKDIR').at(-1)!;
  for (const copy of copies(of)) {
    expect(copy.from).toBe('build');
    for (const source of copy.sources) {
      const inRepo = join(ROOT, source.replace(new RegExp(`^${buildRoot}/?`), ''));
      const target = join(app, copy.target.endsWith('/') ? join(copy.target, source.split('/').at(-1)!) : copy.target);
      mkdirSync(dirname(target), { recursive: true });
      if (source.endsWith('/node_modules')) symlinkSync(inRepo, target);
      else cpSync(inRepo, target, { recursive: true, filter: (path) => !path.startsWith(join(ROOT, 'dist', 'sea')) });
    }
  }
  return app;
}

afterEach(async () => {
  await stopAll();
  removeTempFolders();
});

test('the images build from node:22 slim and the emulator image runs as a non-root user with its data in a volume', () => {
  expect(stages.map((each) => each.name)).toEqual(['build', 'tools', 'emulator']);
  for (const each of stages) expect(each.image).toMatch(/^node:22-[a-z]+-slim$/);
  expect(instruction(final, 'USER')).toEqual(['node']);
  expect(instruction(final, 'VOLUME')).toEqual(['/data']);
  expect(instruction(final, 'HEALTHCHECK')[0]).toContain('"status", "--data", "/data"');
});

test('every file the build stage copies exists and is not excluded by .dockerignore', () => {
  const sources = copies(stage('build')).flatMap((copy) => copy.sources);
  expect(sources).toEqual(expect.arrayContaining(['package.json', 'package-lock.json', 'emulator', 'fixtures']));
  for (const source of sources) {
    expect(existsSync(join(ROOT, source)), source).toBe(true);
    expect(ignored(source), `${source} is excluded by .dockerignore`).toBe(false);
  }
});

test("the emulator image's command serves with its files alone and its health check passes", async () => {
  const app = layOut(final);
  const data = tempFolder('emulator-docker-data-');
  const port = await freePort();
  const [command, ...args] = [...exec(instruction(final, 'ENTRYPOINT')[0]!), ...exec(instruction(final, 'CMD')[0]!)];
  expect(args.slice(1)).toEqual(['start', '--host', '0.0.0.0', '--foreground', '--data', '/data']);

  const here = args.map((arg) => arg.replace(/^\/app\//, `${app}/`).replace(/^\/data$/, data));
  // EMULATOR_CONTROL_TOKEN set but empty, as an unset compose variable would give it: no token.
  const emulator = startProcess(command === 'node' ? process.execPath : command!, [...here, '--port', String(port)], { cwd: app, env: { ...process.env, EMULATOR_CONTROL_TOKEN: '' } });
  await waitForOk(`http://127.0.0.1:${port}/sign-in`, emulator);

  // Bound to 0.0.0.0, the emulator asks loopback callers for its token too: a call without it is refused, the health check passes.
  expect((await fetch(`http://127.0.0.1:${port}/_emulator/health`)).status).toBe(403);
  const healthcheck = exec(instruction(final, 'HEALTHCHECK')[0]!.replace(/^.*?CMD\s+/, '')).map((arg) => arg.replace(/^\/app\//, `${app}/`).replace(/^\/data$/, data));
  expect(healthcheck[0]).toBe('node');
  expect((await run(process.execPath, healthcheck.slice(1), { cwd: app })).code).toBe(0);
  const instance = JSON.parse(readFileSync(join(data, 'instance.json'), 'utf8')) as { fixture: string };
  expect(instance.fixture).toBe(join(app, 'fixtures', 'default.json'));
}, 60_000);

function composeBlock(service: string): string {
  return new RegExp(`^  ${service}:\\n((?:    .*\\n|\\n)*)`, 'm').exec(compose)?.[1] ?? '';
}

function composeCommand(service: string): string[] {
  return exec(/^\s+command: (\[.*\])$/m.exec(composeBlock(service))![1]!);
}

test('compose builds stages the Dockerfile has and runs the agency and harness commands of the tools image', async () => {
  const targets = [...compose.matchAll(/target: (\w+)/g)].map((match) => match[1]);
  expect(targets.length).toBeGreaterThan(0);
  for (const target of targets) expect(stages.map((each) => each.name)).toContain(target);

  const tools = layOut(stage('tools'));
  const emulatorPort = await freePort();
  const emulator = startProcess(process.execPath, [join(ROOT, 'dist', 'emulator', 'cli.js'), 'start', '--foreground', '--port', String(emulatorPort), '--data', tempFolder('emulator-docker-data-')]);
  await waitForOk(`http://127.0.0.1:${emulatorPort}/_emulator/health`, emulator);

  const agencyPort = await freePort();
  const local = (arg: string) => arg.replace('emulator:4010', `127.0.0.1:${emulatorPort}`).replace('127.0.0.1:3000', `127.0.0.1:${agencyPort}`).replace(/^3000$/, String(agencyPort));
  const [node, ...agencyArgs] = composeCommand('agency').map(local);
  expect(node).toBe('node');
  // The agency has no control-plane trust in compose (no shared loopback with the emulator, no
  // token): its keys are given, and are the emulator's. Only the harness holds the token.
  expect(composeBlock('agency')).not.toMatch(/network_mode|CONTROL_TOKEN/);
  expect(composeBlock('harness')).toContain('network_mode: service:agency');
  const token = (service: string) => /^\s+\w+_CONTROL_TOKEN: (\S+)$/m.exec(composeBlock(service))?.[1];
  expect(token('harness')).toBe(token('emulator'));
  expect(token('emulator')).toMatch(/:-[\w-]{16,}\}$/);
  const keys = Object.fromEntries([...composeBlock('agency').matchAll(/^\s+(PROMO_\w+_KEY): (\S+)$/gm)].map((match) => [match[1]!, match[2]!]));
  const env = (await (await fetch(`http://127.0.0.1:${emulatorPort}/_emulator/env`)).json()) as { sandbox_key: string; production_key: string };
  expect(keys).toEqual({ PROMO_SANDBOX_KEY: env.sandbox_key, PROMO_PRODUCTION_KEY: env.production_key });
  const agency = startProcess(process.execPath, agencyArgs, { cwd: tools, env: { ...process.env, ...keys } });
  const agencyCheck = exec(/^\s+test: (\[.*\])$/m.exec(compose)![1]!).map(local);
  expect(agencyCheck.slice(0, 2)).toEqual(['CMD', 'node']);
  await waitForOk(`http://127.0.0.1:${agencyPort}/callback`, agency);
  expect((await run(process.execPath, agencyCheck.slice(2), { cwd: tools })).code).toBe(0);

  const [, script, subcommand, ...harnessArgs] = composeCommand('harness');
  const help = await run(process.execPath, [script!, subcommand!, '--help'], { cwd: tools });
  expect(help.code).toBe(0);
  for (const flag of harnessArgs.filter((arg) => arg.startsWith('--'))) expect(help.stdout).toContain(flag);
  const config = JSON.parse(/^\s+content: '(.*)'$/m.exec(compose)![1]!) as unknown;
  expect(ConfigSchema.safeParse(config).error).toBeUndefined();
}, 60_000);
