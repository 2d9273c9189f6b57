/**
 * What a page can take is bounded (issue 42, item 2): a page that floods its console keeps only the
 * first CONSOLE_LIMIT messages, each cut to its length, and the run's notes say the limit was hit;
 * one that floods on is ended; one that holds more memory than the guard allows is ended (issue 48);
 * a single huge message is not kept whole anywhere in the harness's process.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchChromium } from '../../harness/browser/chromium.js';
import { CONSOLE_LIMIT, BrowserSession } from '../../harness/run/browser-session.js';
import { ConfigSchema } from '../../harness/config.js';
import { RunFacts } from '../../harness/run/facts.js';
import { useChromium } from '../support/chromium.js';

const browser = useChromium();

test('a page that writes thousands of long console messages keeps the first ones, cut short, and the notes say so', { timeout: 60_000 }, async () => {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:1', emulator: 'http://127.0.0.1:2', callback: 'http://127.0.0.1:1/callback' }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'flood', 'main', { trace: 'off', recorded: [] });
  try {
    await session.page.evaluate((count) => {
      for (let index = 0; index < count; index += 1) console.log(`${index} ${'x'.repeat(10_000)}`);
    }, CONSOLE_LIMIT.ended - 1);
    await expect.poll(() => facts.notes.length, { timeout: 30_000 }).toBe(1);
    expect(facts.notes[0]).toMatch(/^flood \(main\): the page wrote more than 500 console messages; only the first 500 were kept$/);
    expect(facts.console.length).toBe(CONSOLE_LIMIT.messages);
    expect(Math.max(...facts.console.map((message) => message.text.length))).toBe(CONSOLE_LIMIT.chars);
  } finally {
    await session.close();
  }
});

test('a page that floods on is ended at CONSOLE_LIMIT.ended messages, and the notes say so (issue 48 item 3)', { timeout: 60_000 }, async () => {
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:1', emulator: 'http://127.0.0.1:2', callback: 'http://127.0.0.1:1/callback' }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'flood', 'main', { trace: 'off', recorded: [] });
  try {
    void session.page.evaluate(() => {
      for (;;) console.log('pending');
    }).catch(() => undefined);
    await expect.poll(() => session.page.isClosed(), { timeout: 45_000 }).toBe(true);
    expect(facts.notes).toContain(`flood (main): the page wrote ${CONSOLE_LIMIT.ended} console messages; the harness ended it`);
  } finally {
    await session.close();
  }
});

test('a page that logs one 50 MB string leaves the harness holding its cut, not the string (issue 48 item 4)', { timeout: 90_000 }, async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  /** What the harness may still hold of the message once it is recorded: its cut and bookkeeping, far below the string. */
  const BOUND_MB = 40;
  const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:1', emulator: 'http://127.0.0.1:2', callback: 'http://127.0.0.1:1/callback' }, '/tmp');
  const session = await BrowserSession.open(browser(), facts, 'huge', 'main', { trace: 'off', recorded: [] });
  const heldMb = () => {
    gc();
    return (process.memoryUsage().heapUsed - before) / 1024 / 1024;
  };
  gc();
  const before = process.memoryUsage().heapUsed;
  try {
    await session.page.setContent('<title>Gewinn</title>');
    // Each place that kept it whole held more than the bound (a string above about 100 MB ends its own renderer first: the script cap).
    await session.page.evaluate(() => console.log('x'.repeat(50 * 1024 * 1024)));
    await expect.poll(() => facts.console.length, { timeout: 60_000 }).toBe(1);
    expect(facts.console[0]!.text.length).toBe(CONSOLE_LIMIT.chars);
    // Before: Chromium's log of the message on stderr, Playwright's last messages and the argument's handle, and the cut (a slice) kept it.
    await expect.poll(heldMb, { timeout: 20_000 }).toBeLessThan(BOUND_MB);
  } finally {
    await session.close();
  }
});

describe('the memory guard (issue 48 item 3)', () => {
  let guarded: Browser | undefined;
  /** A low bound, so the test needs little of a shared machine: the guard is the same at any bound. */
  const LIMIT_MB = 300;
  beforeAll(async () => {
    guarded = await launchChromium({ install: 'never', rendererLimitMb: LIMIT_MB });
  }, 120_000);
  afterAll(() => guarded?.close());

  test('a page whose typed arrays and workers hold more than the bound (none of it script heap) is ended, and the notes say so', { timeout: 60_000 }, async () => {
    const facts = new RunFacts(ConfigSchema.parse({}), { agency: 'http://127.0.0.1:1', emulator: 'http://127.0.0.1:2', callback: 'http://127.0.0.1:1/callback' }, '/tmp');
    const session = await BrowserSession.open(guarded!, facts, 'hoard', 'main', { trace: 'off', recorded: [] });
    try {
      await session.page.setContent('<title>Nagroda</title>');
      // 64 MB at a time, each byte written so it is resident: four workers and the page, 160 MB each.
      void session.page.evaluate(() => {
        const hoard = 'const kept = []; for (let i = 0; i < 10; i += 1) { const chunk = new Uint8Array(16 * 1024 * 1024); chunk.fill(1); kept.push(chunk); }; setInterval(() => kept.length, 1000);';
        const url = URL.createObjectURL(new Blob([hoard], { type: 'text/javascript' }));
        const { Worker } = globalThis as unknown as { Worker: new (source: string) => unknown };
        for (let i = 0; i < 4; i += 1) new Worker(url);
        (globalThis as unknown as { kept: unknown }).kept = Array.from({ length: 10 }, () => new Uint8Array(16 * 1024 * 1024).fill(1));
      }).catch(() => undefined);
      await expect.poll(() => facts.notes.find((note) => note.startsWith('hoard (main): the page crashed or was ended')), { timeout: 45_000 }).toBeDefined();
    } finally {
      await session.close();
    }
  });
});
