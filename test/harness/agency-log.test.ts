/**
 * logs.params_redacted judges the agency's log as the run read it (facts.agencyLog), never the file
 * as it stands when the checks run; the run reads at most the log's end, from a whole line on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { CHECKS } from '../../harness/checks/registry.js';
import { ConfigSchema } from '../../harness/config.js';
import { readAgencyLog } from '../../harness/run/agency-log.js';
import { RunFacts } from '../../harness/run/facts.js';

const AGENCY = 'http://127.0.0.1:3000';
const AT = Date.parse('2026-11-28T14:55:20.000Z');
const folder = mkdtempSync(join(tmpdir(), 'agency-log-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const check = CHECKS.find((candidate) => candidate.id === 'logs.params_redacted')!;

/** A run that saw one journey, its config naming `file` as the agency's log. */
function runWith(file: string): RunFacts {
  const facts = new RunFacts(ConfigSchema.parse({ agency_log: file }), { agency: AGENCY, emulator: 'http://127.0.0.1:4010', callback: `${AGENCY}/callback` }, '/tmp');
  facts.journeys.push({
    scenario: 'production-won', journey: 'main', pack: { code: 'P1', outcome: 'won' }, country: 'DE', email: 'h@example.test', consent: [], submissions: [],
    serviceRequest: 'request-value-123', issuedCallback: `${AGENCY}/callback?service_code=code-value-456&state=state-value-789`,
  });
  facts.pages.push({ scenario: 'production-won', journey: 'main', environment: 'production', at: AT, url: `${AGENCY}/entry`, status: 200, shows: [], links: [], title: '', text: '' });
  return facts;
}

describe('the check reads the facts only', () => {
  test('a leak in the log the run read fails, though the file is gone by the time the checks run', () => {
    const facts = runWith(join(folder, 'gone.log'));
    facts.agencyLog = { file: join(folder, 'gone.log'), text: `{"time":${AT + 50},"url":"/callback?state=state-value-789"}\n` };
    expect(check.evaluate(facts)).toMatchObject({ status: 'fail', reason: "1 of 3 journey values appear in the agency's log" });
  });

  test('a clean log the run read passes, though the file now holds a leak', () => {
    const file = join(folder, 'changed.log');
    writeFileSync(file, `{"time":${AT + 50},"url":"/callback?state=state-value-789"}\n`);
    const facts = runWith(file);
    facts.agencyLog = { file, text: `{"time":${AT + 50},"url":"/callback?service_code=[redacted]"}\n` };
    expect(check.evaluate(facts)).toMatchObject({ status: 'pass' });
  });

  test('a log the config names but the run did not read: inconclusive, saying so', () => {
    const file = join(folder, 'unread.log');
    writeFileSync(file, `{"time":${AT + 50},"url":"/callback?state=state-value-789"}\n`);
    expect(check.evaluate(runWith(file))).toMatchObject({ status: 'inconclusive', reason: `the run did not read the agency log ${file}` });
  });
});

describe('reading the log', () => {
  test('a file that cannot be read is read as such: the check is inconclusive', () => {
    const file = join(folder, 'missing.log');
    const facts = runWith(file);
    facts.agencyLog = readAgencyLog(file);
    expect(facts.agencyLog).toEqual({ file, text: undefined });
    expect(check.evaluate(facts)).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining('cannot be read') });
  });

  test('a log longer than the bound is read from its end, from the first whole line on, and the evidence says how much was left unread', () => {
    const file = join(folder, 'long.log');
    const early = `{"url":"/callback?service_code=code-value-456","pad":"${'x'.repeat(200)}"}\n`;
    const late = `{"time":${AT + 50},"url":"/callback?state=state-value-789"}\n`;
    writeFileSync(file, `${early}${late}`);
    const log = readAgencyLog(file, late.length + 10);
    expect(log).toEqual({ file, text: late, skipped: Buffer.byteLength(early) });
    const facts = runWith(file);
    facts.agencyLog = log;
    const verdict = check.evaluate(facts)!;
    expect(verdict).toMatchObject({ status: 'fail', reason: "1 of 3 journey values appear in the agency's log" });
    expect(verdict.evidence[0]!.label).toBe(`state value state-… on line 1 of ${file} (its end: the first ${Buffer.byteLength(early)} bytes left unread)`);
    expect(readAgencyLog(file)).toEqual({ file, text: `${early}${late}` });
  });

  test('a read part with no line end holds no whole line: nothing of it is read as a line', () => {
    const file = join(folder, 'one-line.log');
    const line = `{"time":${AT + 50},"url":"/callback?state=state-value-789","pad":"${'x'.repeat(200)}"}`;
    writeFileSync(file, line);
    expect(readAgencyLog(file, 100)).toEqual({ file, text: '', skipped: Buffer.byteLength(line) });
  });

  test("a clean log whose first line read is already of this run is inconclusive: the run's earlier lines were left unread", () => {
    const file = join(folder, 'cut.log');
    const early = `{"time":${AT + 10},"url":"/callback?service_code=code-value-456","pad":"${'x'.repeat(200)}"}\n`;
    const late = `{"time":${AT + 50},"url":"/callback?service_code=[redacted]"}\n`;
    writeFileSync(file, `${early}${late}`);
    const facts = runWith(file);
    facts.agencyLog = readAgencyLog(file, late.length + 10);
    expect(check.evaluate(facts)).toMatchObject({ status: 'inconclusive', reason: expect.stringContaining("holds this run's lines from its first line read on") });
  });
});
