/**
 * Names and descriptions of the zod schemas, for the OpenAPI documents (openapi/). It sits below
 * the APIs so that their schemas register here as they are defined, and openapi/ reads them. A schema registered with an
 * `id` becomes a named component; a `description` or `examples` is copied into its JSON Schema. `wire` replaces
 * the JSON Schema zod derives, for text that stands for another type: a query parameter parsed
 * from a string into a whole number or a time is documented as one (with its default and
 * examples, which zod drops from the input side of a transform).
 *
 * Our own registry rather than zod's global one (`.meta()`): ids there are process-wide and throw
 * when a second copy of a module registers them again (a test runner re-evaluating modules, or
 * source and built code in one process).
 */
import { z } from 'zod';

export interface ApiDocMeta {
  id?: string;
  description?: string;
  examples?: unknown[];
  wire?: Record<string, unknown>;
}

export const apiDocs = z.registry<ApiDocMeta>();

/** Where each API serves its OpenAPI document, relative to the API's root. */
export const OPENAPI_PATH = '/openapi.json';
