/**
 * 169.254.0.0/16, where cloud metadata services answer, in every form an IPv6 address carries an
 * IPv4 one; and the clouds' metadata addresses outside it (Alibaba's, AWS's IPv6 one, ...). Each form is built here from the address's bytes, independently of
 * the emulator's classifier, and sent to a listening emulator as a webhook URL.
 */
import { expect, test } from 'vitest';
import { storedCount } from '../support/stored.js';
import { testWorld } from '../world.js';

type Octets = [number, number, number, number];

const hex = (high: number, low: number) => ((high << 8) | low).toString(16);
/** Sixteen bytes as an IPv6 address in full (the URL parser compresses it). */
const ipv6 = (bytes: number[]) => Array.from({ length: 8 }, (_, index) => hex(bytes[2 * index]!, bytes[2 * index + 1]!)).join(':');
/** RFC 6052: the IPv4 address after a prefix of `length` bits, skipping bits 64-71. */
const rfc6052 = (prefix: number[], length: number, v4: Octets) => {
  const bytes = [...prefix, ...Array(16).fill(0)].slice(0, length / 8);
  for (const octet of v4) {
    if (bytes.length === 8) bytes.push(0);
    bytes.push(octet);
  }
  return ipv6([...bytes, ...Array(16 - bytes.length).fill(0)]);
};
const NAT64 = [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0];
const NAT64_LOCAL = [0x00, 0x64, 0xff, 0x9b, 0x00, 0x01];

/** Every IPv6 form that carries this IPv4 address, by name. */
function embeddings(v4: Octets): Record<string, string> {
  return {
    'IPv4-mapped ::ffff:0:0/96': ipv6([...Array(10).fill(0), 0xff, 0xff, ...v4]),
    'IPv4-compatible ::/96': ipv6([...Array(12).fill(0), ...v4]),
    'IPv4-translated ::ffff:0:0:0/96': ipv6([...Array(8).fill(0), 0xff, 0xff, 0, 0, ...v4]),
    'NAT64 64:ff9b::/96': ipv6([...NAT64, ...v4]),
    ...Object.fromEntries([48, 56, 64, 96].map((length) => [`local NAT64 64:ff9b:1::/48, split at /${length}`, rfc6052(NAT64_LOCAL, length, v4)])),
    '6to4 2002::/16': ipv6([0x20, 0x02, ...v4, ...Array(10).fill(0)]),
    'Teredo 2001::/32, server': ipv6([0x20, 0x01, 0, 0, ...v4, 0, 0, 0, 0, 0, 0, 0, 1]),
    'Teredo 2001::/32, client (bits flipped)': ipv6([0x20, 0x01, 0, 0, 0x41, 0x36, 0xe3, 0x78, 0x80, 0, 0x63, 0xbf, ...v4.map((octet) => octet ^ 0xff)]),
  };
}

const LINK_LOCAL: Octets[] = [[169, 254, 169, 254], [169, 254, 0, 0], [169, 254, 255, 255]];
const ELSEWHERE: Octets[] = [[169, 253, 255, 255], [169, 255, 0, 0], [8, 8, 8, 8]];

test('every IPv6 embedding of 169.254.0.0/16 is refused as a webhook URL, naming the flag', async () => {
  const t = testWorld();
  const before = storedCount(t.world.db, 'webhook_endpoints');
  for (const v4 of LINK_LOCAL) {
    for (const [form, address] of Object.entries(embeddings(v4))) {
      const url = `http://[${address}]/latest/meta-data/`;
      const res = await t.api.post('/_emulator/webhooks').send({ url });
      expect(res.status, `${v4.join('.')} as ${form}: ${url}`).toBe(400);
      expect(res.body, url).toEqual({ error: 'invalid_request', message: expect.any(String), details: { url: [expect.stringContaining('--allow-link-local-webhooks')] } });
    }
  }
  expect(storedCount(t.world.db, 'webhook_endpoints')).toBe(before);
});

test('the same forms carrying an address outside 169.254.0.0/16 are accepted', async () => {
  const t = testWorld();
  for (const v4 of ELSEWHERE) {
    for (const [form, address] of Object.entries(embeddings(v4))) {
      const url = `http://[${address}]/hooks`;
      expect((await t.api.post('/_emulator/webhooks').send({ url })).status, `${v4.join('.')} as ${form}: ${url}`).toBe(201);
    }
  }
});

test('the forms the issue named, as written', async () => {
  const t = testWorld();
  for (const url of ['http://[64:ff9b:1::a9fe:a9fe]/', 'http://[::ffff:0:a9fe:a9fe]/', 'http://[::ffff:0:169.254.169.254]/', 'http://[2001:0:4136:e378:8000:63bf:5601:5601]/']) {
    expect((await t.api.post('/_emulator/webhooks').send({ url })).status, url).toBe(400);
  }
});

test("the clouds' metadata addresses outside link-local are refused, also carried in IPv6; their neighbours are not", async () => {
  const t = testWorld();
  const before = storedCount(t.world.db, 'webhook_endpoints');
  const metadata: Octets[] = [[100, 100, 100, 200], [192, 0, 0, 192], [168, 63, 129, 16]];
  const urls = ['https://[fd00:ec2::254]/latest/meta-data/', 'https://[FD00:EC2:0:0:0:0:0:254]/', 'https://100.100.100.200/latest/meta-data/', 'http://100.100.100.200:80/'];
  for (const v4 of metadata) urls.push(`https://${v4.join('.')}/`, ...Object.values(embeddings(v4)).map((address) => `https://[${address}]/`));
  for (const url of urls) {
    const res = await t.api.post('/_emulator/webhooks').send({ url });
    expect(res.status, url).toBe(400);
    expect(res.body.details.url[0], url).toContain('--allow-link-local-webhooks');
  }
  expect(storedCount(t.world.db, 'webhook_endpoints')).toBe(before);
  for (const url of ['https://100.100.100.201/hooks', 'https://100.64.0.1/hooks', 'https://[fd00:ec2::253]/hooks', 'https://[fd00::254]/hooks']) {
    expect((await t.api.post('/_emulator/webhooks').send({ url })).status, url).toBe(201);
  }
});
