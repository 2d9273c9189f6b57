/** Handlers run in one router layer (README.md). */
import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * Runs handlers one after another inside one router layer, handing what they pass on or throw to
 * `onError`. Express gives each handler of `app.use(path, ...handlers)` a layer of its own, whose
 * path matching and URL rewriting cost more than most handlers do. Synchronous handlers only
 * (eslint/synchronous.js).
 */
export function oneLayer(handlers: RequestHandler[], onError: ErrorRequestHandler): RequestHandler {
  return (req, res, done) => {
    let at = 0;
    const next = (error?: unknown): void => {
      if (error) return void onError(error, req, res, done);
      const handler = handlers[at++];
      if (!handler) return done();
      try {
        void handler(req, res, next);
      } catch (thrown) {
        next(thrown ?? new Error('a handler threw nothing'));
      }
    };
    next();
  };
}
