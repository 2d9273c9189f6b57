/**
 * Who may use the control plane and the brand's console: loopback callers, or callers
 * presenting the control token. State-changing calls must be JSON, which a web page on another
 * origin cannot send without a CORS preflight that the emulator never answers: so a page open in
 * the developer's browser cannot reset the emulator or approve an integration. A page whose own
 * host name was rebound to 127.0.0.1 (DNS rebinding) is same-origin with the emulator and calls
 * from loopback, but its requests carry its own name in `Host`: loopback callers must also name
 * the emulator by a loopback name. A reverse proxy on the same machine (nginx's `proxy_pass`, a
 * tunnel) also calls from loopback, and may rewrite `Host`: a request that says it was forwarded
 * (`Forwarded`, `X-Forwarded-For`, `X-Real-IP`) comes from elsewhere, so it needs the control token.
 */
import type { Request, RequestHandler } from 'express';
import { safeEqual } from '../domain/secrets.js';
import { bearerOf } from '../http.js';
import { ControlError } from './errors.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
/** `Host` values a loopback caller may send; a request without `Host` (not a browser) passes. */
const LOOPBACK_HOST = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d{1,5})?$/i;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

function loopbackCaller(req: Request): boolean {
  const host = req.get('host');
  return LOOPBACK.has(req.socket.remoteAddress ?? '') && (host === undefined || LOOPBACK_HOST.test(host)) && FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
}

export function trustedCaller(req: Request, controlToken: string | undefined): boolean {
  if (loopbackCaller(req)) return true;
  const presented = bearerOf(req.get('authorization'));
  return Boolean(controlToken && presented && safeEqual(presented, controlToken));
}

export function controlGuard(controlToken: string | undefined, area = 'control plane'): RequestHandler {
  return (req, _res, next) => {
    if (!trustedCaller(req, controlToken)) {
      const forwarded = FORWARDING_HEADERS.find((name) => req.headers[name] !== undefined);
      const caller = forwarded ? `; a request forwarded by a proxy (it carries ${forwarded}) comes from elsewhere and needs the control token` : '';
      return next(new ControlError('forbidden', { message: `The ${area} answers loopback callers only, at 127.0.0.1, localhost or [::1]${caller}; start with --control-token to allow others.` }));
    }
    if (!SAFE_METHODS.has(req.method) && !req.is('application/json')) {
      return next(new ControlError('unsupported_media_type', { message: `Calls that change the ${area} must carry Content-Type: application/json.` }));
    }
    next();
  };
}
