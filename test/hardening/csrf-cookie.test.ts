/**
 * The form id's cookie leaves with the answer whose forms need it (pages/csrf.ts `FormId`, carried
 * by a page answer's `cookies`): no module of emulator/ writes a cookie on the response itself but
 * the two writers of answers, the table helper's and the page areas' refusal writer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-files.js';

const WRITERS = ['emulator/endpoints.ts', 'emulator/pages/http.ts'];
/** A cookie written on a response: express's `res.cookie(`/`clearCookie(`, or the pages' `setCookies(`. */
const WRITES_COOKIE = /\.(?:cookie|clearCookie)\s*\(|\bsetCookies\s*\(/;

it('finds a cookie written on a response', () => {
  expect(WRITES_COOKIE.test('setCookies(res, form.cookies());')).toBe(true);
  expect(WRITES_COOKIE.test("res.cookie('promo_csrf', id, options)")).toBe(true);
  expect(WRITES_COOKIE.test('answer.clearCookie(name)')).toBe(true);
  expect(WRITES_COOKIE.test('return { status, page, cookies: form.cookies() };')).toBe(false);
});

it('no module of emulator/ but the answers\' writers writes a cookie on a response', () => {
  const writing = sourceFiles(join(ROOT, 'emulator')).map((file) => `emulator/${file}`)
    .filter((path) => !WRITERS.includes(path) && WRITES_COOKIE.test(readFileSync(join(ROOT, path), 'utf8')));
  expect(writing).toEqual([]);
});
