/**
 * Names and descriptions of the zod schemas, for the OpenAPI documents. A schema registered with an
 * `id` becomes a named component; a `description` alone is copied into its JSON Schema.
 *
 * Our own registry rather than zod's global one (`.meta()`): ids there are process-wide and throw
 * when a second copy of a module registers them again (a test runner re-evaluating modules, or
 * source and built code in one process).
 */
import { z } from 'zod';

export const apiDocs = z.registry<{ id?: string; description?: string }>();
