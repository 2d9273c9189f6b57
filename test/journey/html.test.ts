import { describe, expect, it } from 'vitest';
import { html, safeLink, toString } from '../../emulator/pages/html.js';
import { deviceType } from '../../emulator/use-cases/journey/device.js';

describe('page markup', () => {
  it('escapes every interpolated value, nested markup excepted', () => {
    const name = '<img src=x onerror="alert(1)">&\'';
    expect(toString(html`<p title="${name}">${name}${html`<b>ok</b>`}${[name, null, false]}</p>`)).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;<b>ok</b>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&amp;&#39;</p>',
    );
  });

  it('links only http(s) URLs; others are shown as text (spec §2.4 safe links)', () => {
    expect(toString(safeLink('https://brand.example/terms', 'Terms'))).toBe('<a href="https://brand.example/terms">Terms</a>');
    expect(toString(safeLink('javascript:alert(1)', 'Terms'))).toBe('<span>Terms (javascript:alert(1))</span>');
    expect(toString(safeLink('not a url', 'Terms'))).toBe('<span>Terms (not a url)</span>');
  });
});

describe('device type from the User-Agent', () => {
  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148', 'mobile'],
    ['Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36', 'mobile'],
    ['Mozilla/5.0 (iPad; CPU OS 17_0 like Mac OS X)', 'tablet'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X710) Chrome/126.0 Safari/537.36', 'tablet'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/126.0', 'desktop'],
    [undefined, 'desktop'],
  ])('%s is %s', (agent, expected) => {
    expect(deviceType(agent)).toBe(expected);
  });
});
