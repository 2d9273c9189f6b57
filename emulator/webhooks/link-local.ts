/**
 * Webhooks never go where cloud metadata services answer: link-local addresses (169.254.0.0/16,
 * fe80::/10, and 169.254.0.0/16 carried inside an IPv6 address; 169.254.169.254 on most clouds)
 * and the few metadata addresses outside them (`METADATA_ADDRESSES`), unless the emulator was
 * started with `--allow-link-local-webhooks`: a webhook URL must not turn the emulator into a way
 * to read them. Checked on the URL when an endpoint is added, and on the addresses its name
 * resolves to before each delivery. ipaddr.js names the ranges; this module only knows where each
 * range keeps the IPv4 address it carries.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const ALLOW_FLAG = '--allow-link-local-webhooks';

/** Where RFC 6052 puts the IPv4 address after a prefix of each length: byte 8 (bits 64-71) is always skipped. */
const RFC6052_LAYOUTS: Record<number, number[]> = { 48: [6, 7, 9, 10], 56: [7, 9, 10, 11], 64: [9, 10, 11, 12], 96: [12, 13, 14, 15] };
const LAST_FOUR = RFC6052_LAYOUTS[96];

/**
 * Cloud metadata and platform services outside the link-local ranges: Alibaba Cloud's
 * 100.100.100.200, Oracle Cloud Classic's 192.0.0.192, Azure's WireServer 168.63.129.16, and AWS's
 * IPv6 instance metadata fd00:ec2::254. Compared in ipaddr.js's normalised form.
 */
const METADATA_ADDRESSES = new Set(['100.100.100.200', '192.0.0.192', '168.63.129.16', 'fd00:ec2::254'].map((text) => ipaddr.parse(text).toNormalizedString()));

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

const metadataIPv4 = (address: ipaddr.IPv4) => address.range() === 'linkLocal' || METADATA_ADDRESSES.has(address.toNormalizedString());

/** Whether a metadata service may answer at this address, also one an IPv6 address carries. */
function isLinkLocal(text: string): boolean {
  if (isIP(text) === 0) return false;
  const address = ipaddr.parse(text);
  if (address.kind() === 'ipv4') return metadataIPv4(address as ipaddr.IPv4);
  const ipv6 = address as ipaddr.IPv6;
  return ipv6.range() === 'linkLocal' || METADATA_ADDRESSES.has(ipv6.toNormalizedString()) || carriedIPv4(ipv6).some(metadataIPv4);
}

/** The host of a URL as an address (IPv6 without its brackets), when it is one. */
function addressOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why an endpoint URL is refused, if it names a link-local address. */
export function linkLocalProblem(url: string): string | undefined {
  return isLinkLocal(addressOf(new URL(url))) ? `is an address where cloud metadata services answer (link-local 169.254.0.0/16 and fe80::/10, also inside an IPv6 address, or a cloud's own such as 100.100.100.200 and fd00:ec2::254); start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}

/** Why a delivery to this URL is refused, if its host resolves to a link-local address; resolving errors are left to the delivery itself. */
export async function resolvedLinkLocalProblem(url: URL): Promise<string | undefined> {
  const host = addressOf(url);
  if (isIP(host) !== 0) return linkLocalProblem(url.href);
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  const local = addresses.find((entry) => isLinkLocal(entry.address));
  return local ? `refused: ${host} resolves to ${local.address}, a link-local or cloud metadata address; start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}
