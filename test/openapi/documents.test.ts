import { describe, expect, it } from 'vitest';
import { experienceRouter } from '../../emulator/experience/routes.js';
import { type ApiDoc, openApiPath } from '../../emulator/openapi/document.js';
import { EXPERIENCE_API, experienceOpenApi } from '../../emulator/openapi/experience.js';
import { REPORTING_API, reportingOpenApi } from '../../emulator/openapi/reporting.js';
import { reportingRouter } from '../../emulator/reporting/routes.js';
import { type TestWorld, testWorld } from '../world.js';
import { type OpenApiDoc, routerRoutes, tableRoutes } from './support.js';

const APIS: Array<[string, ApiDoc, (t: TestWorld) => Parameters<typeof routerRoutes>[0]]> = [
  ['experience', EXPERIENCE_API, (t) => experienceRouter(t.world, experienceOpenApi).router],
  ['reporting', REPORTING_API, (t) => reportingRouter(t.world, reportingOpenApi)],
];

async function served(t: TestWorld, api: ApiDoc): Promise<OpenApiDoc> {
  const res = await t.api.get(`${api.root}/openapi.json`).expect(200).expect('Content-Type', /^application\/json/);
  return res.body as OpenApiDoc;
}

/** Every `$ref` in the document, with where it is. */
function refsOf(value: unknown, at = '#'): Array<{ ref: string; at: string }> {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [{ ref: inner, at }] : refsOf(inner, `${at}/${key}`),
  );
}

function resolvePointer(doc: unknown, ref: string): unknown {
  return ref
    .slice(2)
    .split('/')
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, segment) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined), doc);
}

describe.each(APIS)('the %s API OpenAPI document', (_name, api, routerOf) => {
  it('is served without credentials at <root>/openapi.json as OpenAPI 3.1 with the API root as its server', async () => {
    const doc = await served(testWorld(), api);
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: api.root }]);
  });

  it('documents exactly the routes the express router answers', () => {
    expect(tableRoutes(api).sort()).toEqual(routerRoutes(routerOf(testWorld())).sort());
  });

  it('has a path entry for every route of the table, and no other', async () => {
    const doc = await served(testWorld(), api);
    expect(Object.keys(doc.paths).sort()).toEqual(Object.keys(api.routes).map(openApiPath).sort());
  });

  it('resolves every $ref, and every component is used', async () => {
    const doc = await served(testWorld(), api);
    const refs = refsOf(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const { ref, at } of refs) {
      expect(ref, at).toMatch(/^#\//);
      expect(resolvePointer(doc, ref), `${ref} at ${at}`).toBeDefined();
    }
    const used = new Set(refs.map(({ ref }) => ref));
    expect(Object.keys(doc.components.schemas).filter((id) => !used.has(`#/components/schemas/${id}`))).toEqual([]);
  });

  it('declares every path template parameter as a required path parameter, and has unique operation ids', async () => {
    const doc = await served(testWorld(), api);
    const ids = Object.values(doc.paths).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    for (const [path, item] of Object.entries(doc.paths)) {
      const templated = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      for (const op of Object.values(item)) {
        const declared = (op.parameters ?? []).filter((parameter) => parameter.in === 'path');
        expect(declared.map((parameter) => parameter.name), `${op.operationId}`).toEqual(templated);
        expect(declared.every((parameter) => parameter.required)).toBe(true);
      }
    }
  });

  it('names only declared security schemes', async () => {
    const doc = await served(testWorld(), api);
    const schemes = new Set(Object.keys(doc.components.securitySchemes));
    const named = Object.values(api.routes).flatMap((methods) => Object.values(methods).flatMap((op) => op.security));
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((scheme) => !schemes.has(scheme))).toEqual([]);
  });
});

it('the reporting document types limit and offset as integers and since and until as date-times, as the spec §4.4 states them', async () => {
  const doc = await served(testWorld(), REPORTING_API);
  const query = Object.values(doc.paths).flatMap((item) => Object.values(item).flatMap((op) => (op.parameters ?? []).filter((parameter) => parameter.in === 'query')));
  const typeOf = (name: string) => [...new Set(query.filter((parameter) => parameter.name === name).map((parameter) => JSON.stringify({ type: parameter.schema.type, format: parameter.schema.format })))];
  expect(typeOf('limit')).toEqual([JSON.stringify({ type: 'integer' })]);
  expect(typeOf('offset')).toEqual([JSON.stringify({ type: 'integer' })]);
  expect(typeOf('since')).toEqual([JSON.stringify({ type: 'string', format: 'date-time' })]);
  expect(typeOf('until')).toEqual([JSON.stringify({ type: 'string', format: 'date-time' })]);
  const scans = doc.paths['/brands/{slug}/scans']!.get!.parameters!;
  expect(scans.find((parameter) => parameter.name === 'limit')!.schema).toMatchObject({ minimum: 1, maximum: 1000, default: 100 });
  expect(scans.find((parameter) => parameter.name === 'offset')!.schema).toMatchObject({ minimum: 0, default: 0 });
});
