/** A JSON body travels as UTF-8 (RFC 8259 §8.1): both APIs refuse any other charset alike, 415, whatever the bytes. */
import { expect, it } from 'vitest';
import { storedRows } from './support/stored.js';
import { testWorld } from './world.js';

it('refuses every charset but UTF-8 the same way, 415, whatever the bytes (RFC 8259 §8.1: JSON travels as UTF-8)', async () => {
  const t = testWorld();
  const text = JSON.stringify({ scenario: 'won' });
  const bodies: Array<[string, Buffer]> = [
    ['utf-16', Buffer.from(text, 'utf16le')], ['utf-16', Buffer.from(text)], ['UTF-16LE', Buffer.from(text, 'utf16le')],
    ['latin1', Buffer.from(text, 'latin1')], ['iso-8859-1', Buffer.from(text)], ['us-ascii', Buffer.from(text)], ['utf-32', Buffer.from(text)], ['utf8', Buffer.from(text)], ['"klingon"', Buffer.from(text)],
  ];
  for (const [charset, bytes] of bodies) {
    for (const path of ['/api/experience/v1/sessions', '/api/v1/brands/alpenmilch/skus']) {
      const key = path.startsWith('/api/v1') ? t.env.reporting_token : t.env.sandbox_key!;
      const res = await t.api.post(path).set('Authorization', `Bearer ${key}`).set('Content-Type', `application/json; charset=${charset}`).send(bytes.toString('latin1'));
      expect(res.status, `${charset} on ${path}`).toBe(415);
      expect(res.body.error, `${charset} on ${path}`).toBe('unsupported_media_type');
    }
  }
  for (const charset of ['utf-8', 'UTF-8', '"utf-8"']) {
    const res = await t.experience('post', '/sessions').set('Content-Type', `application/json; charset=${charset}`).send(text);
    expect(res.status, charset).toBe(201);
  }
  expect(storedRows<{ sandbox: number }>(t.world.db, 'sessions').filter((session) => session.sandbox === 1)).toHaveLength(3);
});
