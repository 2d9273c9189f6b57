/**
 * A call that changes state takes no query parameter but `promotion`, given once: a misspelt one
 * (`?promo=`, `?Promotion=`, `?promotion[]=`) would otherwise be ignored, and the change would act
 * on the default promotion.
 */
import type { RequestHandler } from 'express';
import { ControlError } from './errors.js';

const ACCEPTED = new Set(['promotion']);

export const changeQuery: RequestHandler = (req, _res, next) => {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  const query = req.query as Record<string, unknown>;
  const unknown = Object.keys(query).filter((name) => !ACCEPTED.has(name));
  if (unknown.length > 0) {
    const named = unknown.slice(0, 5).map((name) => JSON.stringify(name.slice(0, 40)));
    return next(new ControlError('invalid_request', {
      message: `Unknown query parameter ${named.join(', ')}: a change takes only ?promotion=<id or slug>.`,
      details: Object.fromEntries(unknown.slice(0, 5).map((name) => [name.slice(0, 40), ['is not a parameter of this call; the only one is promotion']])),
    }));
  }
  if (query.promotion !== undefined && typeof query.promotion !== 'string') {
    return next(new ControlError('invalid_request', { message: 'Name one promotion, once: ?promotion=<id or slug>.', details: { promotion: ['must be given once, as an id or a slug'] } }));
  }
  next();
};
