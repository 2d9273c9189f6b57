/**
 * `harness verify` from outside: dist/harness/cli.js spawned against worlds running in this process.
 * Exit codes 0, 1, 2, 3 and 130, the report it writes, and the brand's state it leaves; durations,
 * ports and temporary paths stripped before comparing.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { overview } from '../../emulator/use-cases/console/reads.js';
import { approve } from '../../emulator/use-cases/console/approval.js';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { envValues } from '../../emulator/use-cases/control/env-values.js';
import { coverSandbox, fetchPost } from '../support/sandbox-coverage.js';
import { expectPrinted, harness, normalize, targetArgs } from './cli-support.js';
import { useHarnessWorld } from './world.js';
import { TELLS_HEADING } from '../../harness/report/legend.js';

describe('against the reference agency', () => {
  const started = useHarnessWorld({ approved: true });

  test('verify exits 0 when every check passed; it prints its plan on stderr (the scenarios it will run and how many checks) before the first scenario ends, then the evidence rules, the grouped checklist and the verdict', async () => {
    const world = started();
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page,callback.no_store,callback.cookie_flags']);
    expect(run.code).toBe(0);
    // The tells that remained depend on the machine (its graphics, its system): present, then left out of the comparison.
    const tells = new RegExp(String.raw`^${TELLS_HEADING.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:\n(?: {2}\S.*\n)+\n`, 'm');
    const printed = normalize(run.stdout, world);
    expect(printed).toMatch(tells);
    expect(printed.replace(tells, '')).toBe(
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
    const world = started();
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
    const world = started();
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
    const world = started();
    const registered = () => overview(world.emulator.world).experience.callbacks.production;
    const brand = registered()!.replace('127.0.0.1', 'localhost');
    if (registered() !== brand) {
      expect(isRefused(setCallbacks(world.emulator.world, { production: brand, preview: world.target.preview.replace('127.0.0.1', 'localhost') }))).toBe(false);
      await coverSandbox(fetchPost(world.emulator.baseUrl, envValues(world.emulator.world).sandbox_key!));
      expect(isRefused(approve(world.emulator.world))).toBe(false);
    }
    const { experience, checklist, history } = overview(world.emulator.world);
    let interruptedRegistered = false;
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page'], { onStart: (child) => {
      void (async () => {
        // Bounded: the run registers its URLs within its preflight and browser start.
        for (let waited = 0; waited < 60_000 && registered() === brand; waited += 100) await sleep(100);
        interruptedRegistered = registered() !== brand;
        child.kill('SIGTERM');
      })();
    } });
    // The signal came once the run had registered its own URLs: the putting back below is not of a run that changed nothing.
    expect(interruptedRegistered).toBe(true);
    expect(run.code).toBe(130);
    expect(normalize(run.stderr, world)).toContain("[harness] interrupted (SIGTERM): no verdict, no report; restoring the emulator's state\n");
    expect(run.stderr).toContain("[harness] the emulator's callback URLs, checklist and approval are as the run found them, and the faults it armed are cleared\n");
    expect(normalize(run.stderr, world)).toMatch(/\[harness\] the earlier report in <tmp>\/report\/ was removed: this run has no verdict\n$/);
    const after = overview(world.emulator.world);
    expect({ callbacks: after.experience.callbacks, approved_at: after.experience.approved_at, checklist: after.checklist, history: after.history }).toEqual({ callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history });
    expect(readdirSync(world.folder).filter((name) => name.startsWith('.') || name === 'report')).toEqual([]);
  }, 120_000);

  test('SIGKILL once the run has registered its own URLs (issue 48 item 4): the next run finds what it left, undoes it and says so, and ends with the brand\'s state as it was', async () => {
    const world = started();
    const view = () => {
      const { experience, checklist, history } = overview(world.emulator.world);
      return { callbacks: experience.callbacks, approved_at: experience.approved_at, checklist, history };
    };
    const before = view();
    expect(before.callbacks.production).toContain('localhost');
    let killed = 0;
    const run = await harness(['verify', ...targetArgs(world), '--only', 'journey.landing_page'], { onStart: (child) => {
      killed = child.pid!;
      void (async () => {
        for (let waited = 0; waited < 60_000 && view().callbacks.production === before.callbacks.production; waited += 100) await sleep(100);
        child.kill('SIGKILL');
      })();
    } });
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
  const started = useHarnessWorld({ defects: ['landing-requires-scan'], approved: true });

  test('verify exits 1, says why, points to the evidence, writes --format json,junit,html, and keeps a Playwright trace', async () => {
    const world = started();
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
    const world = started();
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
