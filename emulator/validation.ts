/**
 * The one way a request's body or query is validated: a zod schema, and on failure an error whose
 * `details` name each field's problems. Missing input reads as `{}`.
 */
import { z } from 'zod';
import { isIdText, isWholeText } from './domain/ids.js';
import { type Details, type HttpError, PlumbingError } from './errors.js';

/**
 * Turns zod issues into the documented `details`: field path → messages. Collected in a Map, as a field
 * may be named `constructor` or `__proto__`; `fromEntries` makes each one an own property.
 */
export function detailsOf(error: z.ZodError): Details {
  const details = new Map<string, string[]>();
  for (const issue of error.issues) {
    const fields = issue.code === 'unrecognized_keys' ? issue.keys.map((key) => [...issue.path, key].join('.')) : [issue.path.join('.') || '(body)'];
    const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
    for (const field of fields) details.set(field, [...(details.get(field) ?? []), message]);
  }
  return Object.fromEntries(details);
}

/** How a refused input is answered. */
export interface ValidationOptions {
  /** The message of the 400 `invalid_request`: what to send instead. */
  hint?: string;
  /** The area's own error instead of 400 `invalid_request` (the reporting API's 422). */
  error?: (details: Details) => HttpError;
  /** How the issues become details, when an area words them its own way; `false` for a refusal the hint says all of. */
  details?: ((error: z.ZodError) => Details) | false;
}

/** The valid input, or the error its options name. */
export function validate<T>(schema: z.ZodType<T>, input: unknown, options: ValidationOptions = {}): T {
  const parsed = schema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const details = options.details === false ? undefined : (options.details ?? detailsOf)(parsed.error);
  if (options.error) throw options.error(details ?? {});
  throw new PlumbingError('invalid_request', { ...(details ? { details } : {}), ...(options.hint ? { message: options.hint } : {}) });
}

/** An id in a path or query: its digits exactly (domain/ids.ts). */
export const IdText = z.string().refine(isIdText, 'must be a whole number such as 12').transform(Number);

/** A count or cursor in a query, from `min` to `max`: its digits exactly, as an id's (domain/ids.ts). */
export function WholeText(min: number, max: number) {
  return z.string().refine(isWholeText, 'must be a whole number such as 12').transform(Number).pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));
}

/**
 * The one rule for query parameters on the control plane and the console: a route takes the names
 * it lists, each once, and nothing else. A misspelt `?promo=`, `?Promotion=` or `?promotion[]=`
 * would otherwise be ignored, and the call would act on, or answer for, the default promotion.
 */
export function queryRule<Name extends string>(takes: readonly Name[]): (query: unknown) => Partial<Record<Name, string>> {
  // Made on the route's first call, not at start (the control plane lists some twenty routes), and
  // read without zod's compiled fast path, whose compiling costs more than a query's few names save.
  let schema: z.ZodType | undefined;
  const taken = takes.length === 0 ? 'this call takes no query parameter' : `this call takes only ${takes.map((name) => `?${name}=`).join(', ')}`;
  return (query) => {
    schema ??= z.strictObject(Object.fromEntries(takes.map((name) => [name, z.string({ error: 'must be given once' }).optional()])));
    const parsed = schema.safeParse(query ?? {}, { jitless: true });
    if (parsed.success) return parsed.data as Partial<Record<Name, string>>;
    // At most five names of at most 40 characters each: the query is the caller's text.
    const details = Object.fromEntries(Object.entries(detailsOf(parsed.error)).slice(0, 5).map(([name, problems]) => [name.slice(0, 40), problems]));
    const isTaken = (name: string) => (takes as readonly string[]).includes(name);
    const unknown = Object.keys(details).filter((name) => !isTaken(name)).map((name) => JSON.stringify(name));
    const repeated = Object.keys(details).filter(isTaken).map((name) => JSON.stringify(name));
    const message = [
      ...(unknown.length ? [`Unknown query parameter ${unknown.join(', ')}: ${taken}.`] : []),
      ...(repeated.length ? [`Give ${repeated.join(', ')} once.`] : []),
    ].join(' ');
    throw new PlumbingError('invalid_request', { message, details });
  };
}
