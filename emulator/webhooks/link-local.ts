/**
 * Webhooks never go to link-local addresses (169.254.0.0/16, fe80::/10, and 169.254.0.0/16 carried
 * inside an IPv6 address), where cloud metadata services answer (169.254.169.254), unless the
 * emulator was started with `--allow-link-local-webhooks`: a webhook URL must not turn the emulator
 * into a way to read them. Checked on the URL when an endpoint is added, and on the addresses its
 * name resolves to before each delivery. ipaddr.js names the ranges; this module only knows where
 * each range keeps the IPv4 address it carries.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const ALLOW_FLAG = '--allow-link-local-webhooks';

/** Where RFC 6052 puts the IPv4 address after a prefix of each length: byte 8 (bits 64-71) is always skipped. */
const RFC6052_LAYOUTS: Record<number, number[]> = { 48: [6, 7, 9, 10], 56: [7, 9, 10, 11], 64: [9, 10, 11, 12], 96: [12, 13, 14, 15] };
const LAST_FOUR = RFC6052_LAYOUTS[96];

/** The IPv4 addresses an IPv6 address carries, read where its range keeps them. */
function carriedIPv4(address: ipaddr.IPv6): ipaddr.IPv4[] {
  const bytes = address.toByteArray();
  const at = (indexes: number[]) => new ipaddr.IPv4(indexes.map((index) => bytes[index]));
  switch (address.range()) {
    case 'ipv4Mapped': // ::ffff:0:0/96
    case 'rfc6145': // IPv4-translated, ::ffff:0:0:0/96
      return [at(LAST_FOUR)];
    case 'rfc6052':
      // 64:ff9b::/96 keeps it last; the local-use 64:ff9b:1::/48 may be split at any length from 48 on.
      return address.parts[2] === 0 ? [at(LAST_FOUR)] : Object.values(RFC6052_LAYOUTS).map(at);
    case '6to4': // 2002:V4ADDR::/48
      return [at([2, 3, 4, 5])];
    case 'teredo': // 2001:0:SERVER:flags:port:CLIENT, the client's address with every bit flipped
      return [at([4, 5, 6, 7]), new ipaddr.IPv4(bytes.slice(12).map((byte) => byte ^ 0xff))];
    default: // IPv4-compatible, ::V4ADDR (deprecated, still parsed)
      return bytes.slice(0, 12).every((byte) => byte === 0) ? [at(LAST_FOUR)] : [];
  }
}

function isLinkLocal(text: string): boolean {
  if (isIP(text) === 0) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return address.range() === 'linkLocal';
  const ipv6 = address as ipaddr.IPv6;
  return ipv6.range() === 'linkLocal' || carriedIPv4(ipv6).some((ipv4) => ipv4.range() === 'linkLocal');
}

/** The host of a URL as an address (IPv6 without its brackets), when it is one. */
function addressOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why an endpoint URL is refused, if it names a link-local address. */
export function linkLocalProblem(url: string): string | undefined {
  return isLinkLocal(addressOf(new URL(url))) ? `is a link-local address (169.254.0.0/16, fe80::/10, or 169.254.0.0/16 inside an IPv6 address); start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}

/** Why a delivery to this URL is refused, if its host resolves to a link-local address; resolving errors are left to the delivery itself. */
export async function resolvedLinkLocalProblem(url: URL): Promise<string | undefined> {
  const host = addressOf(url);
  if (isIP(host) !== 0) return linkLocalProblem(url.href);
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  const local = addresses.find((entry) => isLinkLocal(entry.address));
  return local ? `refused: ${host} resolves to the link-local address ${local.address}; start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}
