import { describe, expect, it } from 'vitest';
import { FixtureError, parseFixture } from '../emulator/fixture.js';
import { DEFAULT_FIXTURE } from './world.js';

const withChange = (change: (fixture: Record<string, any>) => void) => {
  const fixture = structuredClone(DEFAULT_FIXTURE) as Record<string, any>;
  change(fixture);
  return JSON.stringify(fixture);
};

describe('fixture validation', () => {
  it('the default fixture has a restricted country, terms with a minimum age, test, preview and recalled packs', () => {
    expect(DEFAULT_FIXTURE.promotion.countries.length).toBeGreaterThan(0);
    expect(Object.values(DEFAULT_FIXTURE.promotion.terms.by_country).some((terms) => terms.minimum_age)).toBe(true);
    const batches = DEFAULT_FIXTURE.brands.flatMap((brand) => brand.skus.flatMap((sku) => sku.batches));
    expect(new Set(batches.map((batch) => batch.kind))).toEqual(new Set(['production', 'test', 'preview']));
    expect(batches.some((batch) => batch.recalled > 0)).toBe(true);
    expect(DEFAULT_FIXTURE.brands.length).toBeGreaterThanOrEqual(2);
  });

  it.each([
    ['text that is not JSON', () => '{"seed":', /not JSON/],
    ['a wrong type, naming the path', () => withChange((f) => (f.promotion.budget = 'lots')), /promotion\.budget: /],
    ['a bad country code', () => withChange((f) => (f.collectors[0].country = 'Germany')), /collectors\.0\.country: must be a two-letter country code/],
    ['odds that add up to more than 1', () => withChange((f) => (f.promotion.prizes[0].odds = 0.95)), /promotion\.prizes: odds add up to/],
    ['a promotion of an unknown brand', () => withChange((f) => (f.promotion.brand = 'nobody')), /promotion\.brand: no brand has the slug "nobody"/],
    ['an end before the start', () => withChange((f) => (f.promotion.dates.end = '2025-01-01T00:00:00Z')), /promotion\.dates\.end: must be after/],
    ['an unknown field', () => withChange((f) => (f.promotion.odds = 1)), /promotion: /],
  ])('refuses %s with one line naming the file', (_name, text, message) => {
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(FixtureError);
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(/^\[emulator\] invalid fixture fixtures\/broken\.json: /);
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(message);
  });
});
