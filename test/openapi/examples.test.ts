import { beforeAll, describe, expect, it } from 'vitest';
import type { ApiDoc } from '../../emulator/openapi/document.js';
import { EXPERIENCE_API } from '../../emulator/openapi/experience.js';
import { REPORTING_API } from '../../emulator/openapi/reporting.js';
import { testWorld } from '../world.js';
import { type MediaTypeObject, type OpenApiDoc, validatorOf } from './support.js';

interface Found {
  at: string;
  content: MediaTypeObject;
  /** Whether this body must show an example: every request body, success response and event. */
  required: boolean;
}

/** Every body of the document (request bodies, responses, webhook events), with where it is. */
function bodiesOf(doc: OpenApiDoc): Found[] {
  const operations = [
    ...Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => [`${method.toUpperCase()} ${path}`, op] as const)),
    ...Object.entries(doc.webhooks ?? {}).map(([event, item]) => [`webhook ${event}`, item.post] as const),
  ];
  return operations.flatMap(([at, op]) => [
    ...Object.entries(op.requestBody?.content ?? {}).map(([type, content]) => ({ at: `${at} request ${type}`, content, required: true })),
    ...Object.entries(op.responses).flatMap(([status, response]) =>
      Object.entries((response as { content?: Record<string, MediaTypeObject> }).content ?? {}).map(([type, content]) => ({ at: `${at} ${status} ${type}`, content, required: status.startsWith('2') })),
    ),
  ]);
}

describe.each([['experience', EXPERIENCE_API], ['reporting', REPORTING_API]] as Array<[string, ApiDoc]>)('the examples of the %s API document', (_name, api) => {
  let doc: OpenApiDoc;
  beforeAll(async () => {
    doc = (await testWorld().api.get(`${api.root}/openapi.json`).expect(200)).body as OpenApiDoc;
  });

  it('show every request body, success response and event', () => {
    const missing = bodiesOf(doc).filter((body) => body.required && Object.keys(body.content.examples ?? {}).length === 0);
    expect(missing.map((body) => body.at)).toEqual([]);
  });

  it('are each valid by the schema the served document states', () => {
    const examples = bodiesOf(doc).flatMap((body) => Object.entries(body.content.examples ?? {}).map(([name, example]) => ({ ...body, name, value: example.value })));
    expect(examples.length).toBeGreaterThan(10);
    for (const example of examples) {
      const parsed = validatorOf(doc, example.content.schema).safeParse(example.value);
      expect(parsed.error, `${example.at}, example ${example.name}`).toBeUndefined();
    }
  });

  it('show each error code an operation answers with, under its status', () => {
    const errors = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).flatMap(([method, op]) => Object.entries(op.responses).filter(([status]) => Number(status) >= 400).map(([status, response]) => ({ at: `${method.toUpperCase()} ${path} ${status}`, response }))),
    );
    expect(errors.length).toBeGreaterThan(10);
    for (const { at, response } of errors) {
      const { schema, examples } = response.content['application/json']!;
      const codes = (schema as { properties: { error: { enum: string[] } } }).properties.error.enum;
      expect(Object.values(examples ?? {}).map((example) => (example.value as { error: string }).error), at).toEqual(codes);
    }
  });

  it('give each parameter example in the type the parameter states', () => {
    const parameters = [...Object.values(doc.paths).flatMap((item) => Object.values(item)), ...Object.values(doc.webhooks ?? {}).map((item) => item.post)].flatMap((op) => op.parameters ?? []);
    for (const parameter of parameters.filter((candidate) => candidate.example !== undefined)) {
      expect(validatorOf(doc, parameter.schema).safeParse(parameter.example).error, parameter.name).toBeUndefined();
    }
  });
});
