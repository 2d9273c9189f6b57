/**
 * Reading the OpenAPI documents and recording real responses to check against them. A response is
 * checked twice: with the zod schema of the route table (the one the document was generated from)
 * and with the schema the served document states, read back into a validator by zod's JSON
 * Schema reader, so the JSON a client downloads is what is proven, not only its source.
 */
import type { Router } from 'express';
import type { Response } from 'supertest';
import { z } from 'zod';
import { OPENAPI_PATH } from '../../emulator/api-docs.js';
import { type ApiDoc, type Method, type OperationDoc, openApiPath } from '../../emulator/openapi/document.js';
import type { TestWorld } from '../world.js';

type JsonSchema = Record<string, unknown>;
export interface MediaTypeObject {
  schema: JsonSchema;
  examples?: Record<string, { summary: string; value: unknown }>;
}
interface ResponseObject {
  headers?: Record<string, { required: boolean; schema: JsonSchema }>;
  content: Record<string, MediaTypeObject>;
}
export interface ParameterObject {
  name: string;
  in: string;
  required: boolean;
  schema: JsonSchema;
  example?: unknown;
}
export interface OperationObject {
  operationId: string;
  parameters?: ParameterObject[];
  requestBody?: { required: boolean; content: Record<string, MediaTypeObject> };
  responses: Record<string, ResponseObject>;
}
export interface OpenApiDoc {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, OperationObject>>;
  webhooks?: Record<string, { post: Omit<OperationObject, 'responses'> & { responses: Record<string, { description: string }> } }>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface Recording {
  route: string;
  method: Method;
  status: number;
  mediaType: string;
  headers: Record<string, string>;
  body: unknown;
}

/** The documented responses of a route table, one per operation and status. */
export function documentedResponses(api: ApiDoc): Array<{ route: string; method: Method; status: number; op: OperationDoc }> {
  return Object.entries(api.routes).flatMap(([route, methods]) =>
    Object.entries(methods).flatMap(([method, op]) => Object.keys(op.responses).map((status) => ({ route, method: method as Method, status: Number(status), op }))),
  );
}

/** The routes an express router answers, as `METHOD /path`, without the document's own. */
export function routerRoutes(router: Router): string[] {
  const stack = (router as unknown as { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> }).stack;
  return stack
    .flatMap((layer) => (layer.route ? Object.keys(layer.route.methods).map((method) => `${method.toUpperCase()} ${layer.route!.path}`) : []))
    .filter((route) => !route.endsWith(` ${OPENAPI_PATH}`));
}

export function tableRoutes(api: ApiDoc): string[] {
  return Object.entries(api.routes).flatMap(([route, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`));
}

/** A validator for what the served document says a response is: its schema with the document's components as `$defs`. */
export function documentedValidator(doc: OpenApiDoc, route: string, method: Method, status: number): { mediaType: string; validator: z.ZodType; headers: ResponseObject['headers'] } {
  const response = doc.paths[openApiPath(route)]?.[method]?.responses[String(status)];
  if (!response) throw new Error(`the document has no ${method.toUpperCase()} ${route} ${status}`);
  const [[mediaType, { schema }]] = Object.entries(response.content) as [[string, { schema: JsonSchema }]];
  return { mediaType, validator: validatorOf(doc, schema), headers: response.headers };
}

/** A validator for a schema of the served document, its `$ref`s resolved against the document's components. */
export function validatorOf(doc: OpenApiDoc, schema: JsonSchema): z.ZodType {
  return z.fromJSONSchema(toDefs({ ...schema, $defs: doc.components.schemas }) as JsonSchema);
}

function toDefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toDefs);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, key === '$ref' && typeof inner === 'string' ? inner.replace('#/components/schemas/', '#/$defs/') : toDefs(inner)]),
  );
}

export interface CallOptions {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  headers?: Record<string, string>;
  body?: unknown;
  /** A body sent as is, with its own content type. */
  raw?: { type: string; text: string };
}

/** Calls a route of an API of `t` by its express path, and records the answer. */
export function recorder(t: TestWorld, root: string, recordings: Recording[]) {
  return async (method: Method, route: string, options: CallOptions = {}): Promise<Response> => {
    const url = route.replace(/:(\w+)/g, (_, name: string) => {
      const value = options.params?.[name];
      if (value === undefined) throw new Error(`no value for :${name} of ${route}`);
      return encodeURIComponent(String(value));
    });
    let call = t.api[method](`${root}${url}`).set(options.headers ?? {});
    if (options.query) call = call.query(options.query);
    if (options.raw) call = call.set('Content-Type', options.raw.type).send(options.raw.text);
    else if (options.body !== undefined) call = call.send(options.body as object);
    const res = await call;
    const mediaType = String(res.headers['content-type'] ?? '').split(';')[0]!;
    recordings.push({ route, method, status: res.status, mediaType, headers: res.headers as Record<string, string>, body: mediaType === 'application/json' ? res.body : res.text });
    return res;
  };
}

/** A JSON body over the 100 KB limit. */
export const OVERSIZED = { padding: 'x'.repeat(101 * 1024) };
