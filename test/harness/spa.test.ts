/**
 * The single-page agency (fixtures/agency-spa): client-rendered, German, its own page and state
 * names, its entry a `fetch` with a CSRF header, a wait page that retries by itself after a 429.
 * Configured only by its own harness.config.json (its markers; no entry endpoint, no form), drawing
 * each view as slowly as an old phone, holding the keys of the code-unlock promotion, it passes every
 * check in a full verify after a short run and an emulator reset (runs.ts, verifyAfterReset: the
 * defect matrices' live turns never run on a reset emulator); each of its defects fails the check
 * tied to it. The reference agency's full verify of the default promotion (an instant win) is
 * `npm run demo`'s (demo.test.ts).
 *
 * Against the code unlock (decision 008) every admitted entry wins a code from the pool, so no pack
 * is drawn `lost`: the scenarios that only need an entry take a winning pack instead, and the lost
 * state is judged on the preview's sandbox scenario. Every console and control call of the run acts
 * on that promotion, and the reports name it. Without --promotion, the harness finds it again from
 * the callback URL it registered there.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { setCallbacks } from '../../emulator/use-cases/console/callbacks.js';
import { isRefused } from '../../emulator/wire-contract.js';
import { approvalHistory } from '../../emulator/store/approvals.js';
import { listPromotions } from '../../emulator/store/promotions.js';
import { SPA_DEFECTS } from '../../fixtures/agency-spa/defects.js';
import { EmulatorClient } from '../../harness/emulator-client/client.js';
import { preflight } from '../../harness/preflight.js';
import { escapeHtml } from '../../harness/report/escape.js';
import type { Report } from '../../harness/report/types.js';
import { useChromium } from '../support/chromium.js';
import { BEFORE_RESET, expectEveryCheckPassed, verifyAfterReset } from './runs.js';
import { type HarnessWorld, harnessWorld, useDefectMatrix } from './world.js';

const browser = useChromium();
const CODE_UNLOCK = 'nordkakao-cafe-codes';
/** What the single-page agency's own config tells the harness: the run's allowances. */
const SPA_CONFIG = JSON.parse(readFileSync(new URL('../../fixtures/agency-spa/harness.config.json', import.meta.url), 'utf8')) as { markers: { states: Record<string, string> } };

describe('the single-page agency on the code unlock, drawing each view 600 ms after its data arrived (longer than the quiet the harness waits for after an action)', () => {
  let world: HarnessWorld;
  let runs: { before: Report; after: Report };
  let printed = '';
  const stdout = new Writable({ write: (chunk, _encoding, done) => ((printed += String(chunk)), done()) });
  beforeAll(async () => {
    world = await harnessWorld({ kind: 'spa', spa: { renderDelayMs: 600 }, promotion: CODE_UNLOCK, config: { trace: 'off' } });
    runs = await verifyAfterReset(world, { browser: browser(), promotion: CODE_UNLOCK }, { formats: ['json', 'html'], reporters: undefined, stdout });
  }, 600_000);
  afterAll(async () => {
    await world?.close();
  });

  test('passes every check in a full verify after a short run and an emulator reset, exit 0 each time, every scenario run to its end: the harness waits for what a page draws, it does not read it once', () => {
    expectEveryCheckPassed([runs.before], BEFORE_RESET);
    expectEveryCheckPassed([runs.after]);
    expect(runs.after.scenarios.filter((scenario) => scenario.status !== 'passed')).toEqual([]);
  });

  test('the run acted on the code unlock and left it as it found it (issue 49 item 2): no callback URLs, no approval, no history line; the default promotion untouched', () => {
    const promotions = listPromotions(world.emulator.world.db);
    const codeUnlock = promotions.find((promotion) => promotion.slug === CODE_UNLOCK)!;
    expect([codeUnlock.production_callback, codeUnlock.preview_callback, codeUnlock.approved_at]).toEqual([null, null, null]);
    expect(approvalHistory(world.emulator.world.db, codeUnlock.id)).toEqual([]);
    expect(runs.after.run.notes).toContain("the emulator's callback URLs, checklist and approval are as the run found them, and the faults it armed are cleared");
    const instantWin = promotions.find((promotion) => promotion.slug === 'spring-instant-win')!;
    expect([instantWin.production_callback, instantWin.approved_at]).toEqual([null, null]);
    expect(runs.after.checks.find((check) => check.id === 'journey.won_details')!.status).toBe('pass');
  });

  test("the production entries won codes of the pool (decision 008: the fixture's prefix NKCAFE), the sandbox ones synthetic codes", async () => {
    const observed = (await (await fetch(`${world.emulator.baseUrl}/_emulator/observed?after=0&limit=5000`)).json()) as { data: Array<{ answer?: { codes?: string[] } }> };
    const codes = observed.data.flatMap((call) => call.answer?.codes ?? []);
    expect(codes.filter((code) => code.startsWith('NKCAFE-')).length).toBeGreaterThanOrEqual(3);
    expect(codes.filter((code) => !/^(NKCAFE|SANDBOX)-/.test(code))).toEqual([]);
  });

  test('the journeys that need no outcome of their own took winning packs: the code unlock draws no lost pack', () => {
    const lost = runs.after.checks.find((check) => check.id === 'journey.state.lost')!;
    expect(lost.status).toBe('pass');
    expect(lost.evidence.map((item) => item.label).join('\n')).toMatch(/^preview .*the service answered 200 lost; the page shows lost/m);
  });

  test('report.json, report.html and the terminal name the promotion verified', () => {
    const json = JSON.parse(readFileSync(join(world.target.out, 'report.json'), 'utf8')) as { run: { promotion: unknown } };
    expect(json.run.promotion).toEqual({ id: 2, slug: CODE_UNLOCK, name: 'Nordkakao Café Codes', mechanic: 'code_unlock' });
    expect(readFileSync(join(world.target.out, 'report.html'), 'utf8')).toContain('<tr><td>Promotion</td><td>Nordkakao Café Codes: promotion nordkakao-cafe-codes (id 2, code_unlock)</td></tr>');
    expect(printed).toContain('Verified promotion nordkakao-cafe-codes (id 2, code_unlock): Nordkakao Café Codes\n');
  });

  test("the run's allowances are its config's markers, read back from the run: in report.json, beside the checks they can change, and in report.html and the terminal", () => {
    const settings = ['markers.state: body[data-ergebnis="{name}"]', `markers.states: ${JSON.stringify(SPA_CONFIG.markers.states)}`, 'markers.preview_link: a[data-szenario="{scenario}"]'];
    const json = JSON.parse(readFileSync(join(world.target.out, 'report.json'), 'utf8')) as Report;
    expect(json.run.allowances.map((allowance) => allowance.setting)).toEqual(settings);
    expect(json.run.allowances.find((allowance) => allowance.setting.startsWith('markers.preview_link'))!.checks).toEqual(['coverage.sandbox_calls']);
    expect(json.checks.find((check) => check.id === 'journey.state.won')!.allowed_by).toEqual(settings.slice(0, 2));
    expect(json.checks.find((check) => check.id === 'callback.no_third_party')!.allowed_by).toBeUndefined();
    const html = readFileSync(join(world.target.out, 'report.html'), 'utf8');
    expect(settings.filter((setting) => !html.includes(`<td>Allowed by the config</td><td><code>${escapeHtml(setting)}</code>`))).toEqual([]);
    expect(printed).toContain(`Allowed by the config (each shown beside the checks it can change):\n${settings.map((setting) => `  ${setting}\n`).join('')}`);
  });

  test('without --promotion, the promotion the callback URL is registered on is the one verified', async () => {
    // Registered by the brand: the runs above left no URL of their own behind.
    const codeUnlock = listPromotions(world.emulator.world.db).find((promotion) => promotion.slug === CODE_UNLOCK)!;
    expect(isRefused(setCallbacks(world.emulator.world, { production: world.agency.callbackUrl, preview: world.agency.previewUrl }, codeUnlock.id))).toBe(false);
    const client = new EmulatorClient(world.emulator.baseUrl);
    const ready = await preflight({ client, callback: world.agency.callbackUrl, preview: world.agency.previewUrl, install: 'never', browserGiven: true });
    expect(ready.promotion.slug).toBe(CODE_UNLOCK);
    expect((await client.overview()).promotion.name).toBe('Nordkakao Café Codes');
  });

  test('a promotion that does not exist, or is scheduled or ended, cannot be verified: one line naming the promotions there are', async () => {
    const there = /pass --promotion with (a live )?one of 1 spring-instant-win \(instant_win, live, the default\), 2 nordkakao-cafe-codes \(code_unlock, live\), 3 krispa-behind-the-crunch \(content, live\), 4 alpenmilch-summer-white \(instant_win, scheduled\), 5 krispa-winter-crunch \(instant_win, ended\)$/;
    await expect(world.verify({ promotion: 'nope' })).rejects.toThrow(/^the emulator has no promotion "nope": /);
    await expect(world.verify({ promotion: 'nope' })).rejects.toThrow(there);
    await expect(world.verify({ promotion: '4' })).rejects.toThrow(/^the promotion alpenmilch-summer-white \(the one asked for\) is scheduled, not live, so no journey can reach it: /);
    await expect(world.verify({ promotion: 'krispa-winter-crunch' })).rejects.toThrow(/^the promotion krispa-winter-crunch \(the one asked for\) is ended, not live/);
    await expect(world.verify({ promotion: 'krispa-winter-crunch' })).rejects.toThrow(there);
  });
});

describe('with one of its defects switched on, its check fails', () => {
  const verdictOf = useDefectMatrix(browser, 'spa', SPA_DEFECTS.map(({ name, check }) => ({ name, check, options: { kind: 'spa', defects: [name] } })));
  test.for(SPA_DEFECTS.map((defect) => [defect.name, defect.check] as const))('--defect %s fails %s', ([name, check]) => {
    const verdict = verdictOf(name);
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
  });
});
