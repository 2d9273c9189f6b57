/**
 * The brand's console as a JSON control API under `/_emulator/console`, for the CLI and tools.
 * Mutations require `Content-Type: application/json`, which another website cannot send
 * without a CORS preflight that this API never answers.
 */
import { Router, json, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { ApiError } from '../experience/errors.js';
import { detailsOf } from '../experience/schemas.js';
import { listInteractions } from '../store/interactions.js';
import { type KeyChange, approve, checklist, createKey, keys, logRows, overview, revokeKey, rotateKey, setCallbacks, setRouting } from './lifecycle.js';

const KeyBody = z.strictObject({ environment: z.enum(['sandbox', 'production']) });
const CallbackBody = z.strictObject({ production: z.string().max(4096), preview: z.string().max(4096).optional() });
const LogQuery = z.strictObject({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(200).default(50) });
const KeyId = z.coerce.number().int().positive();

export function consoleApiRouter(ctx: Context): Router {
  const router = Router();
  router.use(json({ limit: '100kb' }));
  router.post(/.*/, requireJson);

  router.get('/', (_req, res) => res.json(overview(ctx)));
  router.get('/keys', (_req, res) => res.json({ data: keys(ctx) }));
  router.get('/checklist', (_req, res) => res.json(checklist(ctx)));

  router.post('/keys', (req, res) => {
    const { environment } = parse(KeyBody, req.body);
    res.status(201).json(createKey(ctx, environment));
  });

  router.post('/keys/:id/rotate', (req, res) => send(res, 201, rotateKey(ctx, keyId(req.params.id))));
  router.post('/keys/:id/revoke', (req, res) => send(res, 200, revokeKey(ctx, keyId(req.params.id))));

  router.post('/callbacks', (req, res) => {
    const change = setCallbacks(ctx, parse(CallbackBody, req.body));
    if (!change.ok) throw new ApiError('invalid_request', { message: `Refused: ${listed(change.problems)}.`, details: change.problems });
    const { ok: _ok, ...body } = change;
    res.json(body);
  });

  router.post('/approve', (_req, res) => {
    const approval = approve(ctx);
    if (!approval.ok) {
      return res.status(409).json({ error: 'approval_refused', message: `Not approved yet. Missing: ${listed(approval.missing)}.`, details: approval.missing });
    }
    res.json({ approved_at: approval.approved_at });
  });

  router.post('/pause', (_req, res) => res.json({ routing: setRouting(ctx, true) }));
  router.post('/resume', (_req, res) => res.json({ routing: setRouting(ctx, false) }));

  /** The interaction log with each key shown masked, for the dashboard's live view. */
  router.get('/log', (req, res) => {
    const { after, limit } = parse(LogQuery, req.query);
    res.json({ data: logRows(ctx, listInteractions(ctx.db, { afterId: after, limit })) });
  });

  return router;
}

const requireJson: RequestHandler = (req, _res, next) => {
  next((req.get('content-type') ?? '').startsWith('application/json') ? undefined : new ApiError('unsupported_media_type', { message: 'Send console changes with Content-Type: application/json.' }));
};

/** Details as one line, so a client that shows only the message still says everything. */
function listed(details: Record<string, string[]>): string {
  return Object.entries(details).map(([name, reasons]) => `${name.replace('_', ' ')} ${reasons.join(', ')}`).join('; ');
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input ?? {});
  if (!parsed.success) throw new ApiError('invalid_request', { details: detailsOf(parsed.error) });
  return parsed.data;
}

function keyId(text: string | undefined): number {
  return parse(KeyId, text);
}

function send<T>(res: Response, status: number, change: KeyChange<T>): void {
  if (change.ok) {
    res.status(status).json(change.value);
    return;
  }
  if (change.problem === 'unknown_key') throw new ApiError('not_found', { message: 'This promotion has no agency key with that id. List them with `emulator keys list`.' });
  throw new ApiError('key_revoked', { status: 409, message: 'That key is revoked and cannot be rotated; create a new key instead.' });
}
