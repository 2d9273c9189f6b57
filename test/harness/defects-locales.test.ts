/**
 * The defects whose evidence the harness reads from the page (consent, terms, the preview's links,
 * the way back after a 429) still fail their check with the agency speaking another language: each
 * in two locales besides the agency's own, taken in turn so that every locale is covered. And a
 * correct wait page that only links back, in those languages, is followed: its link is found.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { LOCALES, type Locale } from '../../fixtures/locales.js';
import { useChromium } from '../support/chromium.js';
import { harnessWorld, useDefectMatrix } from './world.js';

const browser = useChromium();

const PAGE_DEFECTS = {
  reference: [
    ['consent-preselected', 'consent.not_preselected'], ['consent-bundled-with-marketing', 'consent.separate_from_marketing'], ['consent-assumed', 'consent.required'],
    ['age-not-asked', 'consent.age_confirmation'], ['no-terms-refresh', 'consent.refresh_after_422'], ['terms-as-html', 'terms.html_inert'],
    ['javascript-link', 'terms.javascript_link_inert'], ['preview-skips-refused-entries', 'coverage.sandbox_calls'],
  ],
  spa: [
    ['consent-prechecked', 'consent.not_preselected'], ['consent-with-newsletter', 'consent.separate_from_marketing'], ['acceptance-assumed-by-backend', 'consent.required'],
    ['age-not-asked', 'consent.age_confirmation'], ['no-reread-after-422', 'consent.refresh_after_422'], ['terms-innerhtml', 'terms.html_inert'],
    ['terms-links-unchecked', 'terms.javascript_link_inert'], ['retry-after-ignored', 'behaviour.retry_after_honoured'],
  ],
} as const;

const OWN: Record<keyof typeof PAGE_DEFECTS, Locale> = { reference: 'en', spa: 'de' };

/** The `index`th pair of locales other than the agency's own, in turn. */
function twoLocales(kind: keyof typeof PAGE_DEFECTS, index: number): Locale[] {
  const others = LOCALES.filter((locale) => locale !== OWN[kind]);
  return [others[(2 * index) % others.length]!, others[(2 * index + 1) % others.length]!];
}

const cases = (Object.keys(PAGE_DEFECTS) as Array<keyof typeof PAGE_DEFECTS>).flatMap((kind) =>
  PAGE_DEFECTS[kind].flatMap(([defect, check], index) => twoLocales(kind, index).map((locale) => [kind, defect, check, locale] as const)));

const caseName = (kind: string, defect: string, locale: Locale) => `${kind}:${defect}:${locale}`;
const verdictOf = useDefectMatrix(browser, 'locales', cases.map(([kind, defect, check, locale]) => ({ name: caseName(kind, defect, locale), check, options: { kind, defects: [defect], locale } })));

describe('a defect read from the page fails its check in another language', () => {
  test.for(cases)('the %s agency with --defect %s fails %s in --locale %s', ([kind, defect, check, locale]) => {
    const verdict = verdictOf(caseName(kind, defect, locale));
    expect(verdict?.status, `${check}: ${verdict?.reason}`).toBe('fail');
  });
});

describe.concurrent('after a 429, a wait page whose only way back is a link, in another language', () => {
  test.for(['fr', 'pl'] as const)('--locale %s: the link is found and followed, the entry goes again, nothing before Retry-After', { timeout: 240_000 }, async (locale, { onTestFinished }) => {
    const world = await harnessWorld({ approved: true, locale, agency: { afterRateLimit: 'link' }, config: { trace: 'off' } });
    onTestFinished(() => world.close());
    const report = await world.verify({ only: ['behaviour.retry_after_honoured'], browser: browser() });
    expect(report.checks[0], report.checks[0]?.reason).toMatchObject({ status: 'pass' });
    const posts = readFileSync(world.agencyLog, 'utf8').split('\n').filter((line) => /"method":"POST"/.test(line) && /"url":"\/entry"/.test(line));
    expect(posts).toHaveLength(2);
  });
});
