/**
 * How a JSON answer goes on the wire (http.ts `directJson`): the bytes and headers Express would
 * send, without its per-answer Content-Type parsing; Express still answers what it treats apart.
 */
import { describe, expect, it } from 'vitest';
import { testWorld } from './world.js';

describe('JSON answers', () => {
  it('carry the UTF-8 JSON type and the byte length of the body, non-ASCII text included', async () => {
    const t = testWorld({ fixture: (fixture) => ({ ...fixture, promotion: { ...fixture.promotion, name: 'Grüße aus Köln €' } }) });
    const answer = await t.experience('get', '/campaign');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer.text).toContain('Grüße aus Köln €');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(JSON.parse(answer.text)).toEqual(answer.body);
  });

  it('HEAD gets the headers of GET and no body', async () => {
    const t = testWorld();
    const get = await t.experience('get', '/campaign');
    const head = await t.api.head('/api/experience/v1/campaign').set('Authorization', `Bearer ${t.env.sandbox_key}`);
    expect(head.status).toBe(200);
    expect(head.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.text ?? '').toBe('');
  });

  it('an error answer is written the same way', async () => {
    const t = testWorld();
    const answer = await t.experience('get', '/campaign', 'pk_sandbox_not-a-real-key-at-all-000000');
    expect(answer.status).toBe(401);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(answer.body.error).toBe('invalid_key');
  });
});
