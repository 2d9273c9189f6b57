/**
 * The brand's console as a JSON control API under `/_emulator/console`, for the CLI and tools.
 * Every call acts on the default promotion, or on the one `?promotion=ID|slug` names, and its
 * answer says which (`promotion`). Mutations require `Content-Type: application/json`, which
 * another website cannot send without a CORS preflight that this API never answers.
 */
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { ConsoleError } from './errors.js';
import { listInteractions } from '../store/interaction-reads.js';
import { getPromotion } from '../store/promotions.js';
import { IdText, validate } from '../validation.js';
import { type KeyChange, type PromotionRef, approve, checklist, createKey, keys, logRows, overview, promotionRef, revokeKey, rotateKey, setCallbacks, setRouting } from './lifecycle.js';
import { promotionParam } from './promotion-param.js';
import { endRun, renewRun, startRun } from './harness-runs.js';

const KeyBody = z.strictObject({ environment: z.enum(['sandbox', 'production']) });
const CallbackBody = z.strictObject({ production: z.string().max(4096), preview: z.string().max(4096).optional() });
const RunBody = z.strictObject({ pid: z.number().int().min(0), host: z.string().max(255), replaces: z.string().max(64).optional() });
const LogQuery = z.strictObject({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(200).default(50) });

export function consoleApiRouter(ctx: Context): Router {
  const router = Router();
  /** The promotion the call names (404 for an unknown one) and how answers name it. */
  const promotionOf = (req: Request) => {
    const id = promotionParam(ctx, req.query);
    return { id, promotion: promotionRef(ctx, getPromotion(ctx.db, id)) };
  };

  router.get('/', (req, res) => res.json(overview(ctx, promotionOf(req).id)));
  router.get('/keys', (req, res) => {
    const { id, promotion } = promotionOf(req);
    res.json({ data: keys(ctx, id), promotion });
  });
  router.get('/checklist', (req, res) => {
    const { id, promotion } = promotionOf(req);
    res.json({ ...checklist(ctx, id), promotion });
  });

  router.post('/keys', (req, res) => {
    const { id, promotion } = promotionOf(req);
    const { environment } = validate(KeyBody, req.body);
    res.status(201).json({ ...createKey(ctx, environment, id), promotion });
  });

  router.post('/keys/:id/rotate', (req, res) => {
    const { id, promotion } = promotionOf(req);
    send(res, 201, rotateKey(ctx, keyId(req.params.id), id), promotion);
  });
  router.post('/keys/:id/revoke', (req, res) => {
    const { id, promotion } = promotionOf(req);
    send(res, 200, revokeKey(ctx, keyId(req.params.id), id), promotion);
  });

  router.post('/callbacks', (req, res) => {
    const { id, promotion } = promotionOf(req);
    const change = setCallbacks(ctx, validate(CallbackBody, req.body), id);
    if (!change.ok) throw new ConsoleError('invalid_request', { message: `Refused: ${listed(change.problems)}.`, details: change.problems });
    const { ok: _ok, ...body } = change;
    res.json({ ...body, promotion });
  });

  router.post('/approve', (req, res) => {
    const { id, promotion } = promotionOf(req);
    const approval = approve(ctx, id);
    if (!approval.ok) {
      throw new ConsoleError('approval_refused', { message: `Not approved yet. Missing: ${listed(approval.missing)}.`, details: approval.missing });
    }
    res.json({ approved_at: approval.approved_at, promotion });
  });

  router.post('/pause', (req, res) => {
    const { id, promotion } = promotionOf(req);
    res.json({ routing: setRouting(ctx, true, id), promotion });
  });
  router.post('/resume', (req, res) => {
    const { id, promotion } = promotionOf(req);
    res.json({ routing: setRouting(ctx, false, id), promotion });
  });

  /** A harness run's snapshot of the promotion, put back at its end (harness-runs.ts). */
  router.post('/harness-runs', (req, res) => {
    const { id, promotion } = promotionOf(req);
    const { replaces, ...holder } = validate(RunBody, req.body);
    const start = startRun(ctx, holder, id, replaces);
    if (!start.ok) {
      const { id: run, pid, host, started_at, lease_left_ms } = start.active;
      const message = `Another harness run (pid ${pid} on ${host}, started ${started_at}) is under way on promotion ${promotion.slug}; its lease ends in ${Math.ceil(lease_left_ms / 1000)} s unless it renews it.`;
      throw new ConsoleError('harness_run_active', { message, details: { id: [run], pid: [String(pid)], host: [host], started_at: [started_at] } });
    }
    res.status(201).json({ id: start.id, recovered: start.recovered });
  });
  router.post('/harness-runs/:id/renew', (req, res) => {
    if (!renewRun(ctx, req.params.id)) throw new ConsoleError('not_found', { message: 'No harness run under way has that id.' });
    res.json({ renewed: true });
  });
  router.post('/harness-runs/:id/end', (req, res) => {
    if (!endRun(ctx, req.params.id)) throw new ConsoleError('not_found', { message: 'No harness run under way has that id.' });
    res.json({ restored: true });
  });

  /** The interaction log with each key shown masked, for the dashboard's live view. */
  router.get('/log', (req, res) => {
    const { after, limit } = validate(LogQuery, req.query);
    res.json({ data: logRows(ctx, listInteractions(ctx.db, { afterId: after, limit })) });
  });

  return router;
}

/** Details as one line, so a client that shows only the message still says everything. */
function listed(details: Record<string, string[]>): string {
  return Object.entries(details).map(([name, reasons]) => `${name.replace('_', ' ')} ${reasons.join(', ')}`).join('; ');
}


function keyId(text: string | undefined): number {
  return validate(IdText, text);
}

function send<T extends object>(res: Response, status: number, change: KeyChange<T>, promotion: PromotionRef): void {
  if (change.ok) {
    res.status(status).json({ ...change.value, promotion });
    return;
  }
  if (change.problem === 'unknown_key') throw new ConsoleError('not_found', { message: `Promotion ${promotion.slug} has no agency key with that id. List them with \`emulator keys list --promotion ${promotion.slug}\`.` });
  throw new ConsoleError('key_revoked');
}
