/**
 * What a fault is: the schema `POST /_emulator/faults` validates its `next` with, and a fault as
 * armed (numbered, counting its hits). Armed, listed and cleared by faults.ts; applied to the
 * experience calls by control/faults.ts.
 */
import { z } from 'zod';
import { SANDBOX_SCENARIOS } from '../sandbox.js';

export const FaultSpec = z
  .strictObject({
    /** The endpoint, with or without the /api/experience/v1 prefix, e.g. "/session/entry". */
    path: z.string().min(1).max(200),
    method: z.enum(['GET', 'POST']).optional(),
    status: z.number().int().min(400).max(599).optional(),
    error: z.string().regex(/^[a-z_]{1,40}$/).optional(),
    message: z.string().max(500).optional(),
    retry_after: z.number().int().min(0).max(86_400).optional(),
    /** Destroy the connection instead of answering: a network interruption. */
    drop: z.literal(true).optional(),
    times: z.number().int().min(1).max(10_000).default(1),
    /** Only calls of this pack (production) or sandbox scenario, or of this key's environment. */
    match: z
      .strictObject({ pack: z.string().min(1).max(64).optional(), scenario: z.enum(SANDBOX_SCENARIOS).optional(), environment: z.enum(['sandbox', 'production']).optional() })
      .optional(),
  })
  .refine((spec) => spec.drop || spec.status !== undefined || spec.error !== undefined, 'give a status, an error code or "drop": true');

export type Fault = z.infer<typeof FaultSpec> & { id: number; hits: number };
