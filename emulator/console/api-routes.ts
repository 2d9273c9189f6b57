/**
 * The brand's console as a JSON control API under `/_emulator/console`, for the CLI and tools.
 * Every call acts on the default promotion, or on the one `?promotion=ID|slug` names, and its
 * answer says which (`promotion`). Mutations require `Content-Type: application/json`, which
 * another website cannot send without a CORS preflight that this API never answers.
 */
import { Router } from 'express';
import { z } from 'zod';
import type { Context } from '../context.js';
import { type RowRequest, anyone, endpointTable, noInput } from '../endpoints.js';
import type { Details } from '../errors.js';
import { ConsoleError, fieldWords } from './errors.js';
import { IdText, validate } from '../validation.js';
import { type PromotionRef, checklist, keys, logAfter, overview, promotionRef } from '../use-cases/console/reads.js';
import { approve } from '../use-cases/console/approval.js';
import { setCallbacks } from '../use-cases/console/callbacks.js';
import { type KeyRefusal, createKey, revokeKey, rotateKey } from '../use-cases/console/keys.js';
import { setRouting } from '../use-cases/console/routing.js';
import { promotionIn } from './promotion-param.js';
import { endRun, openRun, renewRun } from '../use-cases/console/harness-runs.js';

const KeyBody = z.strictObject({ environment: z.enum(['sandbox', 'production']) });
const CallbackBody = z.strictObject({ production: z.string().max(4096), preview: z.string().max(4096).optional() });
const RunBody = z.strictObject({ pid: z.number().int().min(0), host: z.string().max(255), replaces: z.string().max(64).optional() });
const LogQuery = z.strictObject({ after: z.coerce.number().int().min(0).default(0), limit: z.coerce.number().int().min(1).max(200).default(50) });

/** The promotion a call names (404 for an unknown one), and how answers name it. */
interface Named {
  id: number;
  promotion: PromotionRef;
}

export function consoleApiRouter(ctx: Context): Router {
  const router = Router();
  const endpoint = endpointTable(router, { ctx });
  /** Each call's caller is the promotion it acts on. */
  const promotionOf = (req: RowRequest): Named => {
    const promotion = promotionIn(ctx, req.query);
    return { id: promotion.id, promotion: promotionRef(ctx, promotion) };
  };
  /** What the rows that change the key a path names share: they differ in the change and its answer. */
  const keyChange = {
    method: 'post', caller: promotionOf,
    input: (req: RowRequest) => validate(IdText, req.params.id),
    refusal: (reason: KeyRefusal, { promotion }: Named) => (reason === 'unknown_key'
      ? new ConsoleError('not_found', { message: `Promotion ${promotion.slug} has no agency key with that id. List them with \`emulator keys list --promotion ${promotion.slug}\`.` })
      : new ConsoleError('key_revoked')),
  } as const;
  /** What the rows that renew and end the run a path names share: they differ in the use case. */
  const runChange = {
    method: 'post', caller: anyone,
    input: (req: RowRequest) => req.params.id!,
    refusal: () => new ConsoleError('not_found', { message: 'No harness run under way has that id.' }),
    answer: <T extends object>(body: T) => ({ status: 200, body }),
  } as const;
  const ok = (status: number) => <T extends object>(result: T, { promotion }: Named) => ({ status, body: { ...result, promotion } });

  endpoint({
    method: 'get', path: '/', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => overview(on, id),
    answer: (data) => ({ status: 200, body: data }),
  });
  endpoint({
    method: 'get', path: '/keys', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => keys(on, id),
    answer: (data, { promotion }) => ({ status: 200, body: { data, promotion } }),
  });
  endpoint({
    method: 'get', path: '/checklist', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => checklist(on, id),
    answer: ok(200),
  });
  endpoint({
    method: 'post', path: '/keys', caller: promotionOf,
    input: (req) => validate(KeyBody, req.body).environment,
    run: (on, { id }, environment) => createKey(on, environment, id),
    answer: ok(201),
  });
  endpoint({ ...keyChange, path: '/keys/:id/rotate', run: (on, { id }, key) => rotateKey(on, key, id), answer: ok(201) });
  endpoint({ ...keyChange, path: '/keys/:id/revoke', run: (on, { id }, key) => revokeKey(on, key, id), answer: ok(200) });
  endpoint({
    method: 'post', path: '/callbacks', caller: promotionOf,
    input: (req) => validate(CallbackBody, req.body),
    run: (on, { id }, body) => setCallbacks(on, body, id),
    refusal: (problems) => new ConsoleError('invalid_request', { message: `Refused: ${listed(problems)}.`, details: problems }),
    answer: ok(200),
  });
  endpoint({
    method: 'post', path: '/approve', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => approve(on, id),
    refusal: (missing) => new ConsoleError('approval_refused', { message: `Not approved yet. Missing: ${listed(missing)}.`, details: missing }),
    answer: ok(200),
  });
  endpoint({
    method: 'post', path: '/pause', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => ({ routing: setRouting(on, true, id) }),
    answer: ok(200),
  });
  endpoint({
    method: 'post', path: '/resume', caller: promotionOf,
    input: noInput,
    run: (on, { id }) => ({ routing: setRouting(on, false, id) }),
    answer: ok(200),
  });
  /** A harness run's snapshot of the promotion, put back at its end (use-cases/console/harness-runs.ts). */
  endpoint({
    method: 'post', path: '/harness-runs', caller: promotionOf,
    input: (req) => validate(RunBody, req.body),
    run: (on, { id }, request) => openRun(on, request, id),
    refusal: ({ id: run, pid, host, started_at, lease_left_ms }, { promotion }) => {
      const message = `Another harness run (pid ${pid} on ${host}, started ${started_at}) is under way on promotion ${promotion.slug}; its lease ends in ${Math.ceil(lease_left_ms / 1000)} s unless it renews it.`;
      return new ConsoleError('harness_run_active', { message, details: { id: [run], pid: [String(pid)], host: [host], started_at: [started_at] } });
    },
    answer: (start) => ({ status: 201, body: start }),
  });
  endpoint({ ...runChange, path: '/harness-runs/:id/renew', run: (on, _caller, id) => renewRun(on, id) });
  endpoint({ ...runChange, path: '/harness-runs/:id/end', run: (on, _caller, id) => endRun(on, id) });
  /** The interaction log with each key shown masked, for the dashboard's live view. */
  endpoint({
    method: 'get', path: '/log', caller: anyone,
    input: (req) => validate(LogQuery, req.query),
    run: (on, _caller, query) => logAfter(on, query),
    answer: (data) => ({ status: 200, body: { data } }),
  });

  return router;
}

/** Details as one line, so a client that shows only the message still says everything. */
function listed(details: Details): string {
  return Object.entries(details).map(([name, reasons]) => `${fieldWords(name)} ${reasons.join(', ')}`).join('; ');
}
