/**
 * Builds an OpenAPI 3.1 document from an API's route table. The table names the very zod schemas
 * the routes validate requests with and the responses are typed with, so there is one source of
 * truth; OpenAPI 3.1 schemas are JSON Schema 2020-12, which zod emits itself. test/openapi checks
 * the table against the express routers and every documented response against a recorded one.
 */
import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { apiDocs } from '../api-docs.js';

export type Method = 'get' | 'post';
type JsonSchema = Record<string, unknown>;

export interface HeaderDoc {
  description: string;
  schema: z.ZodType;
  /** Sent with every response of that status; the default. */
  required?: boolean;
}

/** A named example of a body; test/openapi proves each against its schema. */
export interface Example {
  summary: string;
  value: unknown;
}

export interface ResponseDoc {
  description: string;
  /** The JSON body, or the text of `mediaType` when it is not JSON. */
  body: z.ZodType;
  mediaType?: string;
  headers?: Record<string, HeaderDoc>;
  examples?: Record<string, Example>;
}

export interface OperationDoc {
  operationId: string;
  summary: string;
  description?: string;
  /** Security schemes that must all be satisfied; none for a public operation. */
  security: string[];
  /** A schema for each `:name` of the route's express path. */
  path?: Record<string, z.ZodType>;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyExamples?: Record<string, Example>;
  responses: Record<number, ResponseDoc>;
}

/** An event the API sends to its subscribers: a POST with these headers and this JSON body. */
export interface WebhookDoc {
  operationId: string;
  summary: string;
  description: string;
  headers: Record<string, HeaderDoc>;
  body: z.ZodType;
  examples: Record<string, Example>;
  /** What the receiver's answers mean, by status or range (`2XX`, `default`). */
  answers: Record<string, string>;
}

export interface ApiDoc {
  title: string;
  description: string;
  /** The API's root, which the paths are relative to. */
  root: string;
  securitySchemes: Record<string, JsonSchema>;
  /** Keyed by express path (`/brands/:slug`), as in the router. */
  routes: Record<string, Partial<Record<Method, OperationDoc>>>;
  /** Keyed by event name. */
  webhooks?: Record<string, WebhookDoc>;
}

/** `/brands/:slug/scans/:id` → `/brands/{slug}/scans/{id}` */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

/** An error code an operation answers with, at one status. */
export interface ErrorCase {
  code: string;
  status: number;
  description: string;
  headers?: Record<string, HeaderDoc>;
}

/**
 * One response per status: the codes that answer with it, their headers (required when every code
 * sends it) and an example body of each code.
 */
export function errorResponses(cases: ErrorCase[], body: (codes: [string, ...string[]]) => z.ZodType, example: (error: ErrorCase) => unknown): Record<number, ResponseDoc> {
  const byStatus = new Map<number, ErrorCase[]>();
  for (const error of cases) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  return Object.fromEntries(
    [...byStatus].map(([status, group]) => {
      const codes = group.map((error) => error.code) as [string, ...string[]];
      const headers: Record<string, HeaderDoc> = {};
      for (const [name, header] of group.flatMap((error) => Object.entries(error.headers ?? {}))) {
        headers[name] = { ...header, required: group.every((error) => error.headers?.[name]) };
      }
      return [status, {
        description: group.map((error) => `\`${error.code}\`: ${error.description}`).join('\n\n'),
        body: body(codes),
        ...(Object.keys(headers).length ? { headers } : {}),
        examples: Object.fromEntries(group.map((error) => [error.code, { summary: error.code, value: example(error) }])),
      }];
    }),
  );
}

export const RETRY_AFTER: Record<string, HeaderDoc> = {
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: z.string().regex(/^\d+$/) },
};

/** An `invalid_request`'s `details`: field → messages. */
export const ErrorDetails = z
  .record(z.string(), z.array(z.string()))
  .register(apiDocs, { id: 'ErrorDetails', description: 'Each invalid field (a dotted path, or `(body)`) and what is wrong with it.' });

export function openApiDocument(api: ApiDoc): object {
  const components: Record<string, JsonSchema> = {};
  const schemaOf = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema => {
    const { $schema: _dialect, $defs, ...root } = z.toJSONSchema(schema, { target: 'draft-2020-12', io, metadata: apiDocs }) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    for (const [id, def] of Object.entries($defs ?? {})) {
      const named = toComponentRefs(def);
      if (components[id] && !isDeepStrictEqual(components[id], named)) throw new Error(`[emulator] two different schemas are named ${id} in ${api.title}`);
      components[id] = named;
    }
    return toComponentRefs(root);
  };
  const headersOf = (headers: Record<string, HeaderDoc>) =>
    Object.fromEntries(Object.entries(headers).map(([name, header]) => [name, { description: header.description, required: header.required ?? true, schema: schemaOf(header.schema, 'output') }]));
  const contentOf = (mediaType: string, schema: JsonSchema, examples: Record<string, Example> | undefined) => ({
    [mediaType]: { schema, ...(examples ? { examples } : {}) },
  });

  const operation = (expressPath: string, op: OperationDoc) => {
    const pathNames = [...expressPath.matchAll(/:(\w+)/g)].map((match) => match[1]!);
    const parameters = [
      ...pathNames.map((name) => {
        const schema = op.path?.[name];
        if (!schema) throw new Error(`[emulator] ${api.title}: no schema for path parameter :${name} of ${expressPath}`);
        return parameter(name, 'path', true, schemaOf(schema, 'input'));
      }),
      ...(op.query ? queryParameters(schemaOf(op.query, 'input')) : []),
    ];
    return {
      operationId: op.operationId,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: op.security.length ? [Object.fromEntries(op.security.map((scheme) => [scheme, []]))] : [],
      ...(parameters.length ? { parameters } : {}),
      ...(op.body ? { requestBody: { required: true, content: contentOf('application/json', schemaOf(op.body, 'input'), op.bodyExamples) } } : {}),
      responses: Object.fromEntries(
        Object.entries(op.responses).map(([status, response]) => [status, {
          description: response.description,
          ...(response.headers ? { headers: headersOf(response.headers) } : {}),
          content: contentOf(response.mediaType ?? 'application/json', schemaOf(response.body, 'output'), response.examples),
        }]),
      ),
    };
  };
  const webhook = (hook: WebhookDoc) => ({
    post: {
      operationId: hook.operationId,
      summary: hook.summary,
      description: hook.description,
      parameters: Object.entries(hook.headers).map(([name, header]) => ({ ...parameter(name, 'header', header.required ?? true, schemaOf(header.schema, 'output')), description: header.description })),
      requestBody: { required: true, content: contentOf('application/json', schemaOf(hook.body, 'output'), hook.examples) },
      responses: Object.fromEntries(Object.entries(hook.answers).map(([status, description]) => [status, { description }])),
    },
  });

  const paths = Object.fromEntries(
    Object.entries(api.routes).map(([expressPath, methods]) => [
      openApiPath(expressPath),
      Object.fromEntries(Object.entries(methods).map(([method, op]) => [method, operation(expressPath, op)])),
    ]),
  );
  return {
    openapi: '3.1.0',
    info: { title: api.title, version: '1', description: api.description },
    servers: [{ url: api.root }],
    paths,
    ...(api.webhooks ? { webhooks: Object.fromEntries(Object.entries(api.webhooks).map(([event, hook]) => [event, webhook(hook)])) } : {}),
    components: { schemas: sortedByKey(components), securitySchemes: api.securitySchemes },
  };
}

/** The document, built on its first request: generating it takes tens of milliseconds that startup need not pay. */
export function servedDocument(api: ApiDoc): () => object {
  let built: object | undefined;
  return () => (built ??= openApiDocument(api));
}

function parameter(name: string, where: 'path' | 'query' | 'header', required: boolean, schema: JsonSchema) {
  const { description, ...rest } = schema;
  const examples = rest.examples as unknown[] | undefined;
  return { name, in: where, required, ...(description ? { description } : {}), schema: rest, ...(examples?.length ? { example: examples[0] } : {}) };
}



function queryParameters(object: JsonSchema) {
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, schema]) => parameter(name, 'query', required.has(name), schema));
}

/**
 * zod names shared schemas `#/$defs/<id>`; in the document they live in `components.schemas`. A
 * schema registered with a `wire` type (api-docs.ts) becomes that type, keeping its description.
 */
function toComponentRefs(schema: JsonSchema): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (!value || typeof value !== 'object') return value;
    const { wire, description } = value as JsonSchema;
    if (wire) return { ...(wire as JsonSchema), ...(description === undefined ? {} : { description }) };
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === '$ref' && typeof inner === 'string' ? inner.replace(/^#\/\$defs\//, '#/components/schemas/') : walk(inner),
      ]),
    );
  };
  return walk(schema) as JsonSchema;
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
