import { execFileSync } from 'node:child_process';
import { expect, test } from 'vitest';
import { formatOffset } from '../../emulator/clock.js';
import { envExports, shellQuote } from '../../emulator/cli/print.js';

test('shell quoting survives quotes, dollars, backticks and newlines through eval "$(npx emulator env)"', () => {
  const value = `it's $HOME \`id\` "x"\n\\`;
  const printed = execFileSync('/bin/sh', ['-c', 'eval "$(cat)"; printf %s "$V"'], { input: `export V=${shellQuote(value)}\n`, encoding: 'utf8' });
  expect(printed).toBe(value);
});

const ENV = { base_url: 'http://127.0.0.1:4010', sandbox_key: 'pk_sandbox_x', production_key: null, reporting_token: 'pkd_y', brand_slug: 'alpenmilch' };

test('env exports every PROMO_ variable, empty when the fixture has no such key, after a comment naming the promotion', () => {
  const exports = envExports({ ...ENV, promotion: { id: 1, slug: 'spring-instant-win', name: 'Spring Instant Win', mechanic: 'instant_win' } });
  expect(exports).toBe(
    '# promotion #1 spring-instant-win (Spring Instant Win), the default: name another with --promotion\n' +
      "export PROMO_BASE_URL='http://127.0.0.1:4010'\nexport PROMO_SANDBOX_KEY='pk_sandbox_x'\nexport PROMO_PRODUCTION_KEY=''\n" +
      "export PROMO_REPORTING_TOKEN='pkd_y'\nexport PROMO_BRAND_SLUG='alpenmilch'\n",
  );
  expect(envExports({ ...ENV, promotion: { id: 2, slug: 'codes', name: 'Codes', mechanic: 'code_unlock' } }, true).split('\n')[0]).toBe('# promotion #2 codes (Codes)');
});

test("a promotion's name cannot end the comment and run a command through eval", () => {
  const exports = envExports({ ...ENV, promotion: { id: 1, slug: 'x', name: 'Evil\nexport INJECTED=yes\r\nexport ALSO=yes', mechanic: 'content' } });
  const printed = execFileSync('/bin/sh', ['-c', 'eval "$(cat)"; printf %s "${INJECTED:-no}${ALSO:-no}$PROMO_BRAND_SLUG"'], { input: exports, encoding: 'utf8' });
  expect(printed).toBe('nonoalpenmilch');
});

test('clock offsets read like the durations `clock advance` takes', () => {
  expect(formatOffset(31 * 60_000)).toBe('+31m');
  expect(formatOffset(-(90 * 60_000 + 400))).toBe('-1h30m');
  expect(formatOffset(2 * 86_400_000 + 1500)).toBe('+2d2s');
  expect(formatOffset(250)).toBe('+250ms');
  expect(formatOffset(0)).toBe('+0s');
});
