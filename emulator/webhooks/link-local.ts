/**
 * Webhooks never go to link-local addresses (169.254.0.0/16, fe80::/10, and 169.254.0.0/16 in
 * IPv6's forms: IPv4-mapped, IPv4-compatible, NAT64, 6to4), where cloud metadata
 * services answer (169.254.169.254), unless the emulator was started with
 * `--allow-link-local-webhooks`: a webhook URL must not turn the emulator into a way to read them.
 * Checked on the URL when an endpoint is added, and on the addresses its name resolves to before
 * each delivery.
 */
import dns from 'node:dns';
import { BlockList, isIP } from 'node:net';

const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet('169.254.0.0', 16, 'ipv4');
LINK_LOCAL.addSubnet('fe80::', 10, 'ipv6');
// 169.254.0.0/16 written as IPv6, as the URL parser normalizes it: IPv4-mapped (::ffff:a9fe:a9fe,
// which the IPv4 rule covers), IPv4-compatible ([::169.254.169.254] is ::a9fe:a9fe), NAT64's
// well-known prefix 64:ff9b::/96 (RFC 6052) and 6to4's 2002::/16 (RFC 3056), which reach it too.
LINK_LOCAL.addSubnet('::169.254.0.0', 112, 'ipv6');
LINK_LOCAL.addSubnet('64:ff9b::169.254.0.0', 112, 'ipv6');
LINK_LOCAL.addSubnet('2002:a9fe::', 32, 'ipv6');

export const ALLOW_FLAG = '--allow-link-local-webhooks';

const isLinkLocal = (address: string) => {
  const family = isIP(address);
  return family !== 0 && LINK_LOCAL.check(address, family === 4 ? 'ipv4' : 'ipv6');
};

/** The host of a URL as an address (IPv6 without its brackets), when it is one. */
function addressOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** Why an endpoint URL is refused, if it names a link-local address. */
export function linkLocalProblem(url: string): string | undefined {
  return isLinkLocal(addressOf(new URL(url))) ? `is a link-local address (169.254.0.0/16, fe80::/10); start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}

/** Why a delivery to this URL is refused, if its host resolves to a link-local address; resolving errors are left to the delivery itself. */
export async function resolvedLinkLocalProblem(url: URL): Promise<string | undefined> {
  const host = addressOf(url);
  if (isIP(host) !== 0) return linkLocalProblem(url.href);
  const addresses = await dns.promises.lookup(host, { all: true }).catch(() => []);
  const local = addresses.find((entry) => isLinkLocal(entry.address));
  return local ? `refused: ${host} resolves to the link-local address ${local.address}; start the emulator with ${ALLOW_FLAG} to allow it` : undefined;
}
