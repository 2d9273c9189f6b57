import { describe, expect, it } from 'vitest';
import { FixtureError, parseFixture, promotionSlug } from '../emulator/fixture.js';
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

  it('a fixture of one company and one promotion, as before issue 13, still loads and seeds that one promotion', () => {
    const { companies: _companies, promotions: _promotions, ...single } = structuredClone(DEFAULT_FIXTURE);
    const parsed = parseFixture(JSON.stringify({ ...single, promotion: { ...single.promotion, slug: undefined } }), 'old.json');
    expect(parsed.promotions).toEqual([]);
    expect(parsed.companies).toEqual([]);
    expect(promotionSlug(parsed.promotion)).toBe('spring-instant-win');
  });

  it.each([
    ['text that is not JSON', () => '{"seed":', /not JSON/],
    ['a wrong type, naming the path', () => withChange((f) => (f.promotion.budget = 'lots')), /promotion\.budget: /],
    ['a bad country code', () => withChange((f) => (f.collectors[0].country = 'Germany')), /collectors\.0\.country: must be a two-letter country code/],
    ['odds that add up to more than 1', () => withChange((f) => (f.promotion.prizes[0].odds = 0.95)), /promotion\.prizes: odds add up to/],
    ['a promotion of an unknown brand', () => withChange((f) => (f.promotion.brand = 'nobody')), /promotion\.brand: no brand has the slug "nobody"/],
    ['an end before the start', () => withChange((f) => (f.promotion.dates.end = '2025-01-01T00:00:00Z')), /promotion\.dates\.end: must be after/],
    ['an unknown field', () => withChange((f) => (f.promotion.odds = 1)), /promotion: /],
    ['two promotions with one slug', () => withChange((f) => (f.promotions[1].slug = f.promotions[0].slug)), /promotions: promotion slug "nordkakao-cafe-codes" is used twice/],
    ['two brands with one slug', () => withChange((f) => (f.companies[0].brands[0].slug = 'alpenmilch')), /brands: brand slug "alpenmilch" is used twice/],
    ['a SKU listed by two promotions', () => withChange((f) => (f.promotions[2].skus = ['AM-WHT', 'AM-CHO'], f.promotion.skus = ['AM-CHO'])), /promotions\.2\.skus: SKU AM-CHO is listed by another promotion/],
    ['a SKU of another brand', () => withChange((f) => (f.promotions[3].skus = ['NK-DRK'])), /promotions\.3\.skus: brand "krispa" has no SKU NK-DRK/],
    ['two promotions of a brand without a skus list', () => withChange((f) => delete f.promotions[2].skus), /promotions\.2\.skus: brand "alpenmilch" already has a promotion without a skus list/],
    ['a code unlock without a pool', () => withChange((f) => delete f.promotions[0].code_pool), /promotions\.0\.code_pool: a code_unlock promotion needs a code_pool/],
    ['a code unlock whose odds add up to less than 1', () => withChange((f) => (f.promotions[0].prizes[0].odds = 0.5)), /promotions\.0\.prizes: the odds of a code_unlock promotion's prizes add up to 1: every admitted entry gets one \(they add up to 0\.7\)/],
    ['a content promotion whose odds add up to less than 1', () => withChange((f) => (f.promotions[1].prizes[0].odds = 0.9)), /promotions\.1\.prizes: the odds of a content promotion's prizes add up to 1/],
    ['a content promotion without a redemption_url', () => withChange((f) => delete f.promotions[1].prizes[0].redemption_url), /promotions\.1\.prizes\.0\.redemption_url: a content promotion unlocks its content/],
    ['an instant win with a code pool', () => withChange((f) => (f.promotion.code_pool = { prefix: 'AMX' })), /promotion\.code_pool: only a code_unlock promotion has a code pool/],
  ])('refuses %s with one line naming the file', (_name, text, message) => {
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(FixtureError);
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(/^\[emulator\] invalid fixture fixtures\/broken\.json: /);
    expect(() => parseFixture(text(), 'fixtures/broken.json')).toThrow(message);
  });
});
