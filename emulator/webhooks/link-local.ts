/**
 * Webhooks never go to link-local addresses (169.254.0.0/16, fe80::/10), where cloud metadata
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
