/** A row's page or redirect carries the cookies it sets or clears as data; the helper writes each with its attributes (emulator/endpoints.ts). */
import express from 'express';
import request from 'supertest';
import { expect, it } from 'vitest';
import { endpointTable, noInput } from '../emulator/endpoints.js';
import { html } from '../emulator/pages/html.js';
import type { Cookie } from '../emulator/pages/http.js';

const SET: Cookie = { name: 'taste', value: 'sweet & sour', options: { httpOnly: true, sameSite: 'lax', path: '/', secure: true, maxAge: 60_000 } };
const CLEARED: Cookie = { name: 'crumb', value: null, options: { path: '/' } };

function app() {
  const router = express.Router();
  const endpoint = endpointTable(router, { ctx: undefined });
  endpoint({ method: 'get', path: '/page', caller: () => undefined, input: noInput, run: () => ({}), answer: () => ({ status: 201, page: html`<p>set</p>`, cookies: [SET, CLEARED] }) });
  endpoint({
    method: 'get', path: '/away', caller: () => undefined, input: noInput, run: () => ({}),
    answer: () => ({ status: 303, location: '/page', headers: { 'Cache-Control': 'no-store' }, cookies: [CLEARED] }),
  });
  return express().use(router);
}

it('writes the cookies a page answer sets and clears, with their attributes, beside the page', async () => {
  const res = await request(app()).get('/page');
  expect(res.status).toBe(201);
  expect(res.text).toBe('<p>set</p>');
  expect(res.headers['set-cookie']).toEqual([
    expect.stringMatching(/^taste=sweet%20%26%20sour; Max-Age=60; Path=\/; Expires=\w{3}, \d\d \w{3} \d{4} [\d:]{8} GMT; HttpOnly; Secure; SameSite=Lax$/),
    'crumb=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
  ]);
});

it('writes the cookies a redirect clears, beside its own headers', async () => {
  const res = await request(app()).get('/away');
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe('/page');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['set-cookie']).toEqual(['crumb=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT']);
});
