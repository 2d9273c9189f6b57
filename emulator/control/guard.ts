/**
 * Who may use the control plane and the brand's console: loopback callers, or callers
 * presenting the control token. State-changing calls must be JSON, which a web page on another
 * origin cannot send without a CORS preflight that the emulator never answers: so a page open in
 * the developer's browser cannot reset the emulator or approve an integration. A page whose own
 * host name was rebound to 127.0.0.1 (DNS rebinding) is same-origin with the emulator and calls
 * from loopback, but its requests carry its own name in `Host`: loopback callers must also name
 * the emulator by a loopback name. A reverse proxy on the same machine (nginx's `proxy_pass`, a
 * tunnel) also calls from loopback, and may rewrite `Host`: a request that shows it was forwarded
 * (forwarded.ts) comes from elsewhere, so it needs the control token. A proxy that shows nothing
 * cannot be told from a local caller: an emulator told it is reachable from elsewhere
 * (`Config.exposure`) trusts the token alone.
 */
import type { Request, RequestHandler } from 'express';
import type { Config } from '../context.js';
import { safeEqual } from '../domain/secrets.js';
import { bearerOf } from '../http.js';
import { ControlError } from './errors.js';
import { forwardingSign } from './forwarded.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** `Host` values a loopback caller may send; a request without `Host` (not a browser) passes. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

type GuardConfig = Pick<Config, 'controlToken' | 'exposure'>;

function loopbackCaller(req: Request): boolean {
  const host = req.get('host');
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && (host === undefined || LOOPBACK_HOST.test(host)) && forwardingSign(req) === undefined;
}

export function trustedCaller(req: Request, { controlToken, exposure }: GuardConfig): boolean {
  if (!exposure && loopbackCaller(req)) return true;
  const presented = bearerOf(req.get('authorization'));
  return Boolean(controlToken && presented && safeEqual(presented, controlToken));
}

/** Why the caller was refused, in the words of what to do. */
function refusal(req: Request, { exposure }: GuardConfig, area: string): string {
  if (exposure) {
    return `The ${area} asks every caller for the control token (Authorization: Bearer <token>), on loopback too, because the emulator is reachable from elsewhere (${exposure}) and a proxy there cannot be told from a caller on this machine. The emulator's CLI sends it; pass it to the harness as --control-token or HARNESS_CONTROL_TOKEN.`;
  }
  const sign = forwardingSign(req);
  const forwarded = sign ? `; a request forwarded by a proxy (it carries ${sign}) comes from elsewhere and needs the control token` : '';
  return `The ${area} answers loopback callers only, at 127.0.0.1, localhost or [::1]${forwarded}; start with --control-token to allow others.`;
}

export function controlGuard(config: GuardConfig, area = 'control plane'): RequestHandler {
  return (req, _res, next) => {
    if (!trustedCaller(req, config)) return next(new ControlError('forbidden', { message: refusal(req, config, area) }));
    if (!SAFE_METHODS.has(req.method) && !req.is('application/json')) {
      return next(new ControlError('unsupported_media_type', { message: `Calls that change the ${area} must carry Content-Type: application/json.` }));
    }
    next();
  };
}
