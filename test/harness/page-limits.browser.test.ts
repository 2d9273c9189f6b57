/**
 * What a page can take is bounded (issue 42, item 2): a page that floods its console keeps only the
 * first CONSOLE_LIMIT messages, each cut to its length, and the run's notes say the limit was hit.
 */
import { expect, test } from 'vitest';
import { CONSOLE_LIMIT, BrowserSession } from '../../harness/browser/session.js';
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
    }, CONSOLE_LIMIT.messages * 4);
    await expect.poll(() => facts.notes.length, { timeout: 30_000 }).toBe(1);
    expect(facts.notes[0]).toMatch(/^flood \(main\): the page wrote more than 500 console messages; only the first 500 were kept$/);
    expect(facts.console.length).toBe(CONSOLE_LIMIT.messages);
    expect(Math.max(...facts.console.map((message) => message.text.length))).toBe(CONSOLE_LIMIT.chars);
  } finally {
    await session.close();
  }
});
