/**
 * Words from the config are literal words (issue 42, item 2): a pattern that would backtrack
 * catastrophically as a regular expression is matched as the characters it is, in linear time.
 */
import { expect, test } from 'vitest';
import { patternOf, vocabularyOf } from '../../harness/vocabulary.js';

test("the config's vocabulary words match literally, at the start of a word, whatever regular-expression syntax they hold", () => {
  const terms = patternOf(vocabularyOf({ terms: ['(a+)+$', 'säännö', 'x.y'] }).terms);
  expect(terms.test(`${'a'.repeat(40)}!`)).toBe(false);
  expect(terms.test('see (a+)+$ here')).toBe(true);
  expect(terms.test('Hyväksyn säännöt')).toBe(true);
  expect(terms.test('xzy')).toBe(false);
  expect(terms.test('the x.y rules')).toBe(true);
});
