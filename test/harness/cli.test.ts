/**
 * The `harness` command from outside: dist/harness/cli.js spawned against worlds running in this
 * process. Exit codes 0, 1, 2 and 3; durations, ports and temporary paths stripped before comparing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { type Server, createServer } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { approve, overview, setCallbacks } from '../../emulator/console/lifecycle.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { envValues } from '../../emulator/control/env.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { type HarnessWorld, harnessWorld } from './world.js';

const CLI = fileURLToPath(new URL('../../dist/harness/cli.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function harness(args: string[], env: NodeJS.ProcessEnv = {}, onStart?: (child: ChildProcess) => void): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    onStart?.(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const targetArgs = (world: HarnessWorld) => ['--callback', world.target.callback, '--preview', world.target.preview, '--emulator', world.target.emulator, '--config', world.target.config, '--out', world.target.out];

/** Durations, ports and temporary folders vary from run to run. */
function normalize(text: string, world: HarnessWorld): string {
  return text
    .replaceAll(world.folder, '<tmp>')
    .replaceAll(world.agency.url, '<agency>')
    .replaceAll(world.emulator.baseUrl, '<emulator>')
    .replace(/\d+\.\d s/g, '<t> s');
}

/** The report prints these lines together, in this order. */
function expectPrinted(run: { stdout: string }, world: HarnessWorld, lines: string[]): void {
  expect(normalize(run.stdout, world)).toContain(lines.join('\n'));
}

describe('could not run: exit 2 and one line saying what to fix', () => {
  test('the emulator is not reachable', async () => {
    const run = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--emulator', 'http://127.0.0.1:9']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('[harness] the emulator at http://127.0.0.1:9 is not reachable (bad port): start it with `npx emulator start` or pass --emulator URL\n');
  });

  test('no callback, a bad config, an unknown check, an unknown format', async () => {
    const noCallback = await harness(['verify']);
    expect([noCallback.code, noCallback.stderr]).toEqual([2, '[harness] no callback URL: pass --callback URL (the production callback URL of the agency)\n']);
    const config = join(process.cwd(), 'package.json');
    const badConfig = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--config', config]);
    expect(badConfig.code).toBe(2);
    expect(badConfig.stderr).toMatch(/^\[harness\] the config .*package\.json: \(file\): Unrecognized keys/);
    expect(badConfig.stderr.trim().split('\n')).toHaveLength(1);
    const unknownCheck = await harness(['verify', '--callback', 'http://127.0.0.1:9/callback', '--only', 'state.nope']);
    expect([unknownCheck.code, unknownCheck.stderr]).toEqual([2, '[harness] --only names unknown check state.nope; `harness checks` lists them\n']);
    const unknownFormat = await harness(['verify', '--format', 'pdf']);
    expect(unknownFormat.code).toBe(2);
    expect(unknownFormat.stderr).toMatch(/^\[harness\] option '--format <formats>' argument 'pdf' is invalid\. unknown format pdf; choose from text, json, junit, html, markdown\n$/);
  });

  test('`harness checks` lists every check id with its group', async () => {
    const run = await harness(['checks']);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toHaveLength(50);
    expect(run.stdout).toMatch(/^state\.tampered_rejected +PKCE and state: A callback with a tampered state is rejected \(changed, truncated, extended, halved, case-swapped, empty\)$/m);
    expect(run.stdout).toMatch(/^journey\.state\.rate_limited +Journey: The service's 429 rate_limited is shown as its own state$/m);
  });

  test('`harness scenarios` lists every scenario with its phase and the checks it feeds, as the config leaves them', async () => {
    const run = await harness(['scenarios']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^entry-rate-limited +production: .*\n +feeds behaviour\.retry_after_honoured, journey\.state\.rate_limited/m);
    expect(run.stdout.match(/^\S/gm)).toHaveLength(19);
  });
});

describe('an emulator off loopback, behind its control token', () => {
  const seen: Array<string | undefined> = [];
  let server: Server;
  let url: string;
  let agency: Server;
  let callback: string;
  beforeAll(async () => {
    agency = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>campaign</h1>'));
    await new Promise<void>((resolve) => agency.listen(0, '127.0.0.1', resolve));
    callback = `http://127.0.0.1:${(agency.address() as AddressInfo).port}/callback`;
    // Answers the preflight's control calls only with `Authorization: Bearer s3cret`, as emulator/control/guard.ts does off loopback.
    server = createServer((req, res) => {
      const path = req.url ?? '/';
      seen.push(req.headers.authorization);
      const answer = (status: number, body: object) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (req.headers.authorization !== 'Bearer s3cret') return answer(403, { error: 'forbidden', message: 'The control plane answers loopback callers only; start with --control-token to allow others.' });
      if (path === '/_emulator/health') return answer(200, { status: 'ok', base_url: url });
      if (path === '/_emulator/faults') return answer(200, { data: [] });
      if (path.startsWith('/_emulator/promotions')) return answer(200, { data: [{ id: 1, slug: 'only-one', name: 'Only one', default: true, mechanic: 'instant_win', live: true, state: 'live' }] });
      if (path === '/_emulator/console?promotion=1') return answer(200, { promotion: { live: true }, experience: { approved_at: null, routing_paused: false, routing: { to: 'agency' } } });
      answer(404, { error: 'not_found' });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => agency.close(resolve));
  });

  test('the token goes with every control call, from --control-token or HARNESS_CONTROL_TOKEN', async () => {
    const flag = await harness(['doctor', '--callback', callback, '--emulator', url, '--control-token', 's3cret']);
    expect([flag.code, flag.stderr]).toEqual([0, '']);
    const env = await harness(['doctor', '--callback', callback, '--emulator', url], { HARNESS_CONTROL_TOKEN: 's3cret' });
    expect([env.code, env.stderr]).toEqual([0, '']);
    expect(seen.length).toBeGreaterThanOrEqual(6);
    expect(new Set(seen)).toEqual(new Set(['Bearer s3cret']));
  });

  test('without the token, or with another, it is exit 2 and one line saying what to pass', async () => {
    const none = await harness(['doctor', '--callback', callback, '--emulator', url]);
    expect([none.code, none.stderr]).toEqual([2, `[harness] the emulator at ${url} refused its control plane without a token: it answers without one only on loopback (127.0.0.1, localhost or [::1]) and only when not told it is reachable from elsewhere (--public-url, a --host that is not loopback); pass its control token (--control-token or HARNESS_CONTROL_TOKEN; \`npx emulator env\` exports it)\n`]);
    const wrong = await harness(['verify', '--callback', callback, '--emulator', url, '--control-token', 'nope']);
    expect([wrong.code, wrong.stderr]).toEqual([2, `[harness] the emulator at ${url} refused the control token: pass the token it was started with (--control-token or HARNESS_CONTROL_TOKEN)\n`]);
  });
});

describe('against the reference agency', () => {
  let world: HarnessWorld;
  beforeAll(async () => {
    world = await harnessWorld({ approved: true });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  test('doctor checks what a run needs and exits 0; an agency that does not answer, or no --callback once the rest is checked, is exit 2', async () => {
    const run = await harness(['doctor', '--callback', world.target.callback, '--preview', world.target.preview, '--emulator', world.target.emulator]);
    expect(run.code).toBe(0);
    expect(normalize(run.stdout, world)).toMatch(
      /^\[harness\] ok {2}emulator at <emulator> \(ok\)\n\[harness\] ok {2}the emulator lets the harness inject faults and read its observed calls\n\[harness\] ok {2}promotion 1 spring-instant-win \(instant_win, live, the default\): the one the callback URL is registered on\n\[harness\] ok {2}agency callback <agency>\/callback\n\[harness\] ok {2}agency preview <agency>\/preview\n\[harness\] ok {2}Chromium \/\S+\n\[harness\] note: the callback URL uses plain http on 127\.0\.0\.1: .*\n.*\n\[harness\] ready: `harness verify` can run\n$/,
    );
    const down = await harness(['doctor', '--callback', 'http://127.0.0.1:9/callback', '--emulator', world.target.emulator]);
    expect([down.code, down.stderr]).toEqual([2, "[harness] the agency's callback URL http://127.0.0.1:9/callback is not reachable (bad port): start the agency, or check --callback\n"]);
    // Without --callback (issue 49 item 7) it checks the rest first, then says what is missing: exit 2.
    const noCallback = await harness(['doctor', '--emulator', world.target.emulator]);
    expect([noCallback.code, noCallback.stderr]).toEqual([2, '[harness] no callback URL: pass --callback URL (the production callback URL of the agency); everything else above is ready\n']);
    expect(normalize(noCallback.stdout, world)).toMatch(/^\[harness\] ok {2}emulator at <emulator> \(ok\)\n.*\n\[harness\] ok {2}promotion 1 spring-instant-win \(instant_win, live, the default\): the default: no callback URL to find it by\n\[harness\] ok {2}Chromium \/\S+\n/);
  });

  test('doctor and verify refuse, in one line and before registering anything, a callback or preview that cannot be the agency (issue 26 item 2): the emulator, a 404, no HTTP', async () => {
    const pages = createServer((req, res) => {
      if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Hello</h1>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    const notHttp = createNetServer((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH_9.6\r\n')));
    await new Promise<void>((resolve) => notHttp.listen(0, '127.0.0.1', resolve));
    const ssh = `http://127.0.0.1:${(notHttp.address() as AddressInfo).port}/callback`;
    const emulatorCallback = `${world.target.emulator}/callback`;
    const registered = () => world.emulator.world.db.prepare('SELECT production_callback, preview_callback, approved_at FROM promotions WHERE id = 1').get();
    const before = registered();
    try {
      const cases: Array<[string[], string]> = [
        [['--callback', emulatorCallback], `the agency's callback URL ${emulatorCallback} is the emulator itself (${world.target.emulator}), not the agency: check --callback`],
        [['--callback', emulatorCallback.replace('127.0.0.1', 'localhost')], `the agency's callback URL ${emulatorCallback.replace('127.0.0.1', 'localhost')} is the emulator itself (${world.target.emulator}), not the agency: check --callback`],
        [['--callback', `${other}/missing`], `the agency's callback URL ${other}/missing answers 404 (no page there): check --callback`],
        [['--callback', ssh], expect.stringMatching(new RegExp(`^the agency's callback URL ${ssh} does not answer HTTP \\(HPE_\\w+\\): check --callback$`)) as unknown as string],
        // A 404 is refused when nothing else of the agency answers: not the preview either.
        [['--callback', `${other}/missing`, '--preview', `${other}/missing`], `the agency's callback URL ${other}/missing answers 404 (no page there): check --callback`],
      ];
      for (const [args, line] of cases) {
        const doctor = await harness(['doctor', ...args, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stdout.includes('ready'), doctor.stderr.replace(/^\[harness\] (.*)\n$/, '$1')]).toEqual([2, false, line]);
      }
      const run = await harness(['verify', '--callback', emulatorCallback, '--preview', emulatorCallback, '--emulator', world.target.emulator, '--out', join(world.folder, 'refused')]);
      expect([run.code, run.stderr]).toEqual([2, `[harness] ${cases[0]![1]}\n`]);
      expect(registered()).toEqual(before);
    } finally {
      pages.closeAllConnections();
      await new Promise((resolve) => pages.close(resolve));
      await new Promise((resolve) => notHttp.close(resolve));
    }
  }, 120_000);

  test('preflight lets through an agency answering, however badly (issue 42 item 4, issue 47 item 5): a callback that answers 400 in plain text, or fails, without its parameters, a 404 at one URL while the other answers, headers past the harness\'s own HTTP client, are noted, and the checks judge them', async () => {
    const pages = createServer((req, res) => {
      if (req.url === '/plain') return res.writeHead(400, { 'content-type': 'text/plain' }).end('missing service_request');
      if (req.url === '/missing') return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>');
      if (req.url === '/big') return res.writeHead(200, { 'content-type': 'text/html', 'x-padding': 'a'.repeat(200_000) }).end('<h1>campaign</h1>');
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>');
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    const other = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
    try {
      for (const [path, answer] of [['/plain', '400 with text/plain'], ['/broken', '502 with text/html']]) {
        const doctor = await harness(['doctor', '--callback', `${other}${path}`, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stderr]).toEqual([0, '']);
        expect(doctor.stdout).toContain(`[harness] note: the callback URL ${other}${path}, opened without parameters, answered ${answer}: the journeys judge it\n`);
      }
      const notes: Array<[string[], string]> = [
        [['--callback', `${other}/missing`, '--preview', `${other}/plain`], `the callback URL ${other}/missing answers 404 (no page there) while the preview URL answers: the journeys judge it`],
        [['--callback', `${other}/plain`, '--preview', `${other}/missing`], `the preview URL ${other}/missing answers 404 (no page there) while the callback URL answers: the journeys judge it`],
        [['--callback', `${other}/big`], `the callback URL ${other}/big answered with headers larger than the harness's own HTTP client reads (UND_ERR_HEADERS_OVERFLOW): the journeys, in the browser, judge it`],
      ];
      for (const [args, note] of notes) {
        const doctor = await harness(['doctor', ...args, '--emulator', world.target.emulator]);
        expect([doctor.code, doctor.stderr]).toEqual([0, '']);
        expect(doctor.stdout).toContain(`[harness] note: ${note}\n`);
      }
    } finally {
      await new Promise((resolve) => pages.close(resolve));
    }
  });

  test('verify exits 0 when every check passed; it prints its plan on stderr (the scenarios it will run and how many checks) before the first scenario ends, then the evidence rules, the grouped checklist and the verdict', async () => {
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page,callback.no_store,callback.cookie_flags']);
    expect(run.code).toBe(0);
    expect(normalize(run.stdout, world)).toBe(
      [
        'Verified promotion spring-instant-win (id 1, instant_win): Spring Instant Win',
        '',
        'PASS needs positive evidence: at least one observation of what the check judges, from scenarios that all ran to their end.',
        'FAIL needs evidence of a violation, shown with the check.',
        'INCONCLUSIVE: the run could not judge the check (nothing observed, a scenario stopped or could not start, approval refused); the reason says what to configure.',
        'WARN and MANUAL pass, with something for the brand to read or review by hand.',
        'Exit codes: 0 every check passed (warn and manual allowed); 1 a check failed; 2 the harness could not run; 3 no check failed but one is inconclusive (not an approval); 130 interrupted by Ctrl-C or SIGTERM (no report).',
        '',
        'Journey',
        '  PASS         journey.landing_page   The callback URL without service_request is the campaign landing page',
        'Callback hygiene',
        '  PASS         callback.no_store      Every callback response carries Cache-Control: no-store',
        "  WARN         callback.cookie_flags  The agency's cookies are HttpOnly, SameSite=Lax and Secure",
        '               agency_session is not Secure: accepted on plain-http loopback for local development only; deployed over https it must be Secure',
        '               evidence: <tmp>/report/evidence/callback.cookie_flags.json',
        '',
        '3 checks: 2 pass, 0 fail, 1 warn, 0 manual, 0 inconclusive · <t> s',
        'exit 0: every check passed on positive evidence (warnings and manual reviews are for the brand to read)',
        // As root Chromium cannot sandbox the agency's pages, and the report says so.
        ...(process.getuid?.() === 0 ? ["Note: the agency's pages ran without Chromium's sandbox: the harness runs as root, where Chromium cannot sandbox the pages it runs"] : []),
        'Report folder: <tmp>/report: evidence/ (no report file: --format html,json,junit,markdown writes them)',
        '',
      ].join('\n'),
    );
    expect(run.stdout).not.toMatch(/\u001b\[/);
    expect(normalize(run.stderr, world).split('\n')[0]).toBe('[harness] verify <agency>/callback against promotion spring-instant-win (id 1, instant_win) at the emulator <emulator> (only journey.landing_page, callback.no_store, callback.cookie_flags)');
    expect(run.stderr).toMatch(/\[harness\] \[\d\/\d\] landing ok <?\d/);
    const lines = normalize(run.stderr, world).split('\n');
    const plan = lines.indexOf('[harness] plan: 6 scenario(s) in parallel browser contexts, then 3 check(s)');
    expect(plan).toBeGreaterThan(0);
    expect(lines.slice(plan + 1, plan + 7).map((line) => /^\[harness\] {3}(\S+) \(production\): /.exec(line)?.[1])).toEqual(['landing', 'production-lost-replay', 'production-won', 'state-other-browser', 'state-tampered', 'state-unsolicited']);
    expect(lines[plan + 1]).toBe('[harness]   landing (production): The callback URL opened without service_request shows the campaign');
    expect(lines.findIndex((line) => /^\[harness\] \[1\/6\] /.test(line))).toBeGreaterThan(plan + 6);
  }, 120_000);

  test('--promotion (or "promotion" in the config) naming no promotion, or one that has ended, is exit 2 and one line naming the promotions there are', async () => {
    const unknown = await harness(['verify', ...targetArgs(world), '--promotion', 'nope']);
    expect(unknown.code).toBe(2);
    // The report of the run before, if one ran, is removed, and the terminal says so.
    expect(unknown.stderr).toMatch(/^(\[harness\] the earlier report in \S+\/report\/ was removed: this run has no verdict\n)?\[harness\] the emulator has no promotion "nope": pass --promotion with one of 1 spring-instant-win \(instant_win, live, the default\), 2 nordkakao-cafe-codes \(code_unlock, live\), .*, 5 krispa-winter-crunch \(instant_win, ended\)\n$/);
    const config = join(world.folder, 'ended.json');
    writeFileSync(config, JSON.stringify({ promotion: 'krispa-winter-crunch' }));
    const ended = await harness(['doctor', '--callback', world.target.callback, '--emulator', world.target.emulator, '--config', config]);
    expect(ended.code).toBe(2);
    expect(ended.stderr).toMatch(/^\[harness\] the promotion krispa-winter-crunch \(the one asked for\) is ended, not live, so no journey can reach it: pass --promotion with a live one of 1 spring-instant-win .*\n$/);
  }, 60_000);

  test('verify exits 3 when no check failed but one could not be judged, and says what to configure; it leaves the URLs, checklist and approval the brand had (issue 49 item 2)', async () => {
    // The brand registered the agency as localhost and approved; the run registers 127.0.0.1, runs the previews and approves.
    const brand = { production: world.target.callback.replace('127.0.0.1', 'localhost'), preview: world.target.preview.replace('127.0.0.1', 'localhost') };
    expect(isRefused(setCallbacks(world.emulator.world, brand))).toBe(false);
    await coverSandbox(fetchPost(world.emulator.baseUrl, envValues(world.emulator.world).sandbox_key!));
    expect(isRefused(approve(world.emulator.world))).toBe(false);
    const brandView = () => {
      const { experience, checklist, history } = overview(world.emulator.world);
      return { callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history };
    };
    const before = brandView();
    const config = join(world.folder, 'no-log.json');
    writeFileSync(config, JSON.stringify({ trace: 'off' }));
    const run = await harness(['verify', ...targetArgs(world), '--config', config, '--only', 'logs.params_redacted']);
    expect(run.stderr).toMatch(/\[harness\] \[\d\/3\] sandbox-previews ok /);
    expect(brandView()).toEqual(before);
    expect(run.code).toBe(3);
    expectPrinted(run, world, [
      "  INCONCLUSIVE logs.params_redacted  service_request, service_code and state never appear in the agency's log",
      "               the harness cannot read the agency's log",
      '               configure: agency_log: the file the agency writes its request log to, readable by the harness',
    ]);
    expect(run.stdout).toContain('exit 3: no check failed, but 1 could not be judged: not an approval; each says what to configure');
  }, 120_000);

  test('SIGTERM once the run has registered its own URLs (issue 48 item 4): exit 130, the brand\'s URLs, checklist and approval put back, the earlier report removed, no staging folder, and the terminal says each', async () => {
    const registered = () => overview(world.emulator.world).experience.callbacks.production;
    const brand = registered()!.replace('127.0.0.1', 'localhost');
    if (registered() !== brand) {
      expect(isRefused(setCallbacks(world.emulator.world, { production: brand, preview: world.target.preview.replace('127.0.0.1', 'localhost') }))).toBe(false);
      await coverSandbox(fetchPost(world.emulator.baseUrl, envValues(world.emulator.world).sandbox_key!));
      expect(isRefused(approve(world.emulator.world))).toBe(false);
    }
    const { experience, checklist, history } = overview(world.emulator.world);
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page'], {}, (child) => {
      void (async () => {
        // Bounded: the run registers its URLs within its preflight and browser start.
        for (let waited = 0; waited < 60_000 && registered() === brand; waited += 100) await sleep(100);
        child.kill('SIGTERM');
      })();
    });
    expect(run.code).toBe(130);
    expect(normalize(run.stderr, world)).toContain("[harness] interrupted (SIGTERM): no verdict, no report; restoring the emulator's state\n");
    expect(run.stderr).toContain("[harness] the emulator's callback URLs, checklist and approval are as the run found them, and the faults it armed are cleared\n");
    expect(normalize(run.stderr, world)).toMatch(/\[harness\] the earlier report in <tmp>\/report\/ was removed: this run has no verdict\n$/);
    const after = overview(world.emulator.world);
    expect({ callbacks: after.experience.callbacks, approved_at: after.experience.approved_at, checklist: after.checklist, history: after.history }).toEqual({ callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history });
    expect(readdirSync(world.folder).filter((name) => name.startsWith('.') || name === 'report')).toEqual([]);
  }, 120_000);

  test('SIGKILL once the run has registered its own URLs (issue 48 item 4): the next run finds what it left, undoes it and says so, and ends with the brand\'s state as it was', async () => {
    const view = () => {
      const { experience, checklist, history } = overview(world.emulator.world);
      return { callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history };
    };
    const before = view();
    expect(before.callbacks.production).toContain('localhost');
    let killed = 0;
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page'], {}, (child) => {
      killed = child.pid!;
      void (async () => {
        for (let waited = 0; waited < 60_000 && view().callbacks.production === before.callbacks.production; waited += 100) await sleep(100);
        child.kill('SIGKILL');
      })();
    });
    expect(run.code).toBeNull();
    expect(view().callbacks).not.toEqual(before.callbacks);
    expect(readdirSync(world.folder).filter((name) => name.startsWith('.report-run-'))).toHaveLength(1);

    const next = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page']);
    expect(next.code).toBe(0);
    expect(next.stderr).toMatch(/^\[harness\] removed 1 staging folder\(s\) an earlier run left beside report \(\.report-run-\w+\)\n/);
    expect(next.stderr).toContain(`[harness] note: an earlier run (pid ${killed} on `);
    expect(next.stderr).toContain('ended without restoring the emulator: its callback URLs, checklist and approval are put back as it found them, and its faults cleared\n');
    expect(view()).toEqual(before);
    expect(readdirSync(world.folder).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 180_000);
});

describe('against an agency with a defect', () => {
  let world: HarnessWorld;
  beforeAll(async () => {
    world = await harnessWorld({ defects: ['landing-requires-scan'], approved: true });
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  test('verify exits 1, says why, points to the evidence, writes --format json,junit,html, and keeps a Playwright trace', async () => {
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page', '--format', 'json,junit,html']);
    expect(run.code).toBe(1);
    expectPrinted(run, world, [
      '  FAIL         journey.landing_page  The callback URL without service_request is the campaign landing page',
      '               the callback URL without service_request answers an error instead of the campaign: <agency>/callback: HTTP 400; shows page:error',
      '               evidence: <tmp>/report/evidence/journey.landing_page.json',
    ]);
    const json = JSON.parse(readFileSync(join(world.target.out, 'report.json'), 'utf8')) as { checks: Array<{ id: string; status: string; reason: string; evidence: Array<{ path?: string }> }> };
    expect(json.checks).toEqual([expect.objectContaining({ id: 'journey.landing_page', status: 'fail' })]);
    const trace = json.checks[0]!.evidence.find((item) => item.path?.endsWith('.zip'))?.path;
    expect(trace).toBe('traces/landing--landing.zip');
    expect(existsSync(join(world.target.out, trace!))).toBe(true);
    expect(readdirSync(join(world.target.out, 'traces'))).toEqual(['landing--landing.zip']);
    const junit = readFileSync(join(world.target.out, 'junit.xml'), 'utf8');
    expect(junit).toMatch(/<testsuites name="harness verify" tests="1" failures="1" errors="0" skipped="0"/);
    expect(junit).toContain(`<failure message="${json.checks[0]!.reason}" type="fail">`);
    const html = readFileSync(join(world.target.out, 'report.html'), 'utf8');
    expect(html).toContain('<li class="fail" id="check-journey.landing_page"><span class="status">FAIL</span> <span class="id">journey.landing_page</span>');
    expect(html).toContain('<a href="traces/landing--landing.zip">traces/landing--landing.zip</a>; open it from the report folder with <code>npx playwright-core show-trace traces/landing--landing.zip</code>');
    expect(normalize(run.stdout, world)).toContain('               trace: npx playwright-core show-trace <tmp>/report/traces/landing--landing.zip');
    // The report stands alone (issue 40 item 4, 49 item 5): copied to another folder, every link of every page in it opens a file of
    // the copy, and every anchor one of its ids: the rules as a page, the reference agency's file a failure names among them.
    const copy = join(world.folder, 'sent-on', 'report');
    cpSync(world.target.out, copy, { recursive: true });
    const pages = readdirSync(copy, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.html'));
    expect(pages.sort()).toEqual(['reference/pages-landing.ts.html', 'report.html', 'rules.html']);
    const dead = pages.flatMap((page) => [...readFileSync(join(copy, page), 'utf8').matchAll(/href="([^"]*)"/g)].flatMap((match) => {
      const [file, anchor] = match[1]!.replaceAll('&amp;', '&').split('#') as [string, string | undefined];
      if (/^(file|https?):|^\//.test(file)) return [`${page}: ${match[1]} leaves the folder`];
      const target = file === '' ? join(copy, page) : join(copy, dirname(page), file);
      if (!existsSync(target)) return [`${page}: ${match[1]} opens no file`];
      return anchor && !readFileSync(target, 'utf8').includes(`id="${anchor}"`) ? [`${page}: ${match[1]} has no such anchor`] : [];
    }));
    expect(dead).toEqual([]);
    expect(html).toContain('<a href="rules.html#callback-is-landing">callback-is-landing</a>');
    expect(html).toContain('<a href="reference/pages-landing.ts.html"><code>fixtures/agency-reference/pages/landing.ts</code></a>');
  }, 120_000);

  test('a report folder from an earlier run is not mistaken for this run: its "Approve" does not survive a failing run that writes no report.html (issue 42 item 5)', async () => {
    mkdirSync(join(world.target.out, 'evidence'), { recursive: true });
    writeFileSync(join(world.target.out, 'evidence', 'stale.json'), '{}');
    writeFileSync(join(world.target.out, 'report.html'), '<header id="verdict" class="banner approve"><h1>Approve</h1></header>');
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page']);
    expect(run.code).toBe(1);
    expect(readdirSync(world.target.out).sort()).toEqual(['.harness-report', 'evidence', 'traces']);
    expect(readdirSync(join(world.target.out, 'evidence'))).toEqual(['journey.landing_page.json']);
    expect(readdirSync(world.folder).filter((name) => name.startsWith('.'))).toEqual([]);
  }, 120_000);
});
