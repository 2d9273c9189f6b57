/**
 * What tells a request from a proxy, tunnel or CDN apart from one made on this machine: a header
 * one of them adds, or HTTP/1.0 (what nginx's `proxy_pass` speaks unless told otherwise). Header
 * names are matched as servers read them: case aside, and `_` for `-` (`X_Forwarded_For`).
 * A proxy that adds none and speaks HTTP/1.1 (a plain TCP forward) cannot be told apart: that is
 * why an emulator told it is reachable from elsewhere asks every caller for the token (guard.ts).
 */
import type { IncomingMessage } from 'node:http';

/** Headers that proxies, load balancers, tunnels and CDNs add to say where a request came from or went through. */
const FORWARDING_HEADERS = new Set([
  'forwarded', 'via', 'x-real-ip', 'x-client-ip', 'client-ip', 'true-client-ip', 'x-cluster-client-ip', 'x-original-url',
  'x-original-uri', 'x-original-host', 'x-rewrite-url', 'x-host', 'x-remote-ip', 'x-remote-addr', 'x-originating-ip', 'x-proxyuser-ip',
  'cdn-loop', 'cf-connecting-ip', 'cf-connecting-ipv6', 'cf-ray', 'cf-visitor', 'cf-ipcountry', 'cf-warp-tag-id', 'fastly-client-ip',
  'fastly-ff', 'akamai-origin-hop', 'x-akamai-edgescape', 'x-azure-clientip', 'x-azure-socketip', 'x-azure-fdid', 'x-arr-log-id',
  'x-envoy-external-address', 'x-amzn-trace-id', 'cloudfront-viewer-address', 'x-appengine-user-ip', 'x-cloud-trace-context',
  'x-vercel-forwarded-for', 'x-vercel-id', 'x-nf-client-connection-ip', 'fly-client-ip', 'x-forwarded-by', 'ngrok-agent-ips',
]);
/** Whole families: `X-Forwarded-For`, `-Host`, `-Proto`, `-Port`, `-Server`, `-Prefix`, ...; `X-Original-*`. */
const FORWARDING_PREFIXES = ['x-forwarded-', 'x-original-'];

/** The name of the first proxy header the request carries, or `HTTP/1.0`; undefined when none. */
export function forwardingSign(req: IncomingMessage): string | undefined {
  for (const raw of Object.keys(req.headers)) {
    const name = raw.toLowerCase().replaceAll('_', '-');
    if (FORWARDING_HEADERS.has(name) || FORWARDING_PREFIXES.some((prefix) => name.startsWith(prefix))) return raw;
  }
  return req.httpVersion === '1.0' ? 'HTTP/1.0' : undefined;
}
