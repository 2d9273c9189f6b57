import { describe, expect, it } from 'vitest';
import { consentProblem } from '../../emulator/domain/consent.js';

const terms = { required: true, minimum_age: 18, version: 'de-2026-03' };
const consent = { accepted: true, age_confirmed: true, terms_version: 'de-2026-03' };

describe('consent', () => {
  it('accepts accepted terms, confirmed age and the exact version', () => {
    expect(consentProblem(terms, consent)).toBeUndefined();
  });

  it.each([
    ['missing consent', undefined, /no consent/],
    ['terms not accepted', { ...consent, accepted: false }, /not accepted/],
    ['stale terms version', { ...consent, terms_version: 'de-2026-02' }, /terms_version/],
    ['the terms version in another case', { ...consent, terms_version: 'DE-2026-03' }, /terms_version/],
    ['age not confirmed', { ...consent, age_confirmed: false }, /minimum age of 18/],
    ['age confirmation absent', { accepted: true, terms_version: 'de-2026-03' }, /minimum age/],
  ])('refuses %s', (_name, input, reason) => {
    expect(consentProblem(terms, input)).toMatch(reason);
  });

  it('needs no age confirmation where no minimum age is set', () => {
    expect(consentProblem({ required: true, version: 'v1' }, { accepted: true, terms_version: 'v1' })).toBeUndefined();
  });
});
