/**
 * The query parameters each route under `/_emulator` takes (the console API's included), checked
 * before any route runs by the one rule (validation.ts, `queryRule`). A route not listed takes
 * none: a new route refuses every query parameter until it is listed here.
 */
import type { RequestHandler } from 'express';
import { queryRule } from '../validation.js';

/** `METHOD /path` as mounted under `/_emulator`; `:name` is one path segment. */
const TAKES: Record<string, readonly string[]> = {
  'GET /env': ['promotion'],
  'GET /promotions': ['callback'],
  'GET /interactions': ['after', 'limit'],
  'GET /observed': ['after', 'pack', 'limit'],
  'GET /terms': ['promotion'],
  'POST /terms': ['promotion'],
  'GET /packs': ['promotion', 'per_outcome'],
  'GET /secrets': ['after_session'],
  'GET /deliveries': ['endpoint_id', 'limit'],
  'GET /sink/:name': ['limit', 'before'],
  'GET /sink/:name/deliveries': ['after', 'limit'],
  'GET /console': ['promotion'],
  'GET /console/keys': ['promotion'],
  'GET /console/checklist': ['promotion'],
  'GET /console/log': ['after', 'limit'],
  'POST /console/keys': ['promotion'],
  'POST /console/keys/:id/rotate': ['promotion'],
  'POST /console/keys/:id/revoke': ['promotion'],
  'POST /console/callbacks': ['promotion'],
  'POST /console/approve': ['promotion'],
  'POST /console/pause': ['promotion'],
  'POST /console/resume': ['promotion'],
  'POST /console/harness-runs': ['promotion'],
};

const ROUTES = Object.entries(TAKES).map(([route, takes]) => {
  const [method, path] = route.split(' ') as [string, string];
  return { method, path: new RegExp(`^${path.replace(/:\w+/g, '[^/]+')}/?$`, 'i'), check: queryRule(takes) };
});
const TAKES_NONE = queryRule([]);

export const queryParams: RequestHandler = (req, _res, next) => {
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const route = ROUTES.find((entry) => entry.method === method && entry.path.test(req.path));
  (route?.check ?? TAKES_NONE)(req.query);
  next();
};
