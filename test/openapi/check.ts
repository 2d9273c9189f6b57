/** The tests every API shares: each documented response is recorded, and each recording is documented and matches. */
import { expect, it } from 'vitest';
import type { ApiDoc } from '../../emulator/openapi/document.js';
import { type OpenApiDoc, type Recording, documentedResponses, documentedValidator } from './support.js';

export function checkAgainstDocument(api: ApiDoc, recorded: () => { recordings: Recording[]; doc: OpenApiDoc }) {
  const responses = documentedResponses(api);
  const answersTo = (recordings: Recording[], { route, method, status }: (typeof responses)[number]) =>
    recordings.filter((r) => r.route === route && r.method === method && r.status === status);

  it.each(responses.map((response) => [`${response.method.toUpperCase()} ${response.route} ${response.status}`, response] as const))(
    '%s was recorded, and every recording matches the zod schema and the served document',
    (_name, response) => {
      const { recordings, doc } = recorded();
      const answers = answersTo(recordings, response);
      expect(answers.length, 'no recorded response').toBeGreaterThan(0);
      const documented = response.op.responses[response.status]!;
      const served = documentedValidator(doc, response.route, response.method, response.status);
      for (const answer of answers) {
        const shown = JSON.stringify(answer.body).slice(0, 300);
        expect(answer.mediaType).toBe(documented.mediaType ?? 'application/json');
        expect(served.mediaType).toBe(answer.mediaType);
        expect(documented.body.safeParse(answer.body).error, `zod schema, ${shown}`).toBeUndefined();
        expect(served.validator.safeParse(answer.body).error, `served document, ${shown}`).toBeUndefined();
        for (const [name, header] of Object.entries(served.headers ?? {})) {
          const value = answer.headers[name.toLowerCase()];
          if (header.required) expect(value, `header ${name}`).toBeDefined();
          if (value !== undefined) expect(documented.headers![name]!.schema.safeParse(value).error, `header ${name}: ${value}`).toBeUndefined();
        }
      }
    },
  );

  it('answers only statuses its document lists for the operation', () => {
    const { recordings } = recorded();
    const undocumented = recordings.filter((r) => !api.routes[r.route]?.[r.method]?.responses[r.status]);
    expect(undocumented.map((r) => `${r.method.toUpperCase()} ${r.route} ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`)).toEqual([]);
  });

  it("the served document's schemas reject an answer with an undocumented field, or without a required one", () => {
    const { recordings, doc } = recorded();
    for (const response of responses.filter((r) => r.status < 300 && !r.op.responses[r.status]!.mediaType)) {
      const body = answersTo(recordings, response)[0]!.body as Record<string, unknown>;
      const { validator } = documentedValidator(doc, response.route, response.method, response.status);
      const [field] = Object.keys(body);
      const { [field!]: _dropped, ...without } = body;
      expect(validator.safeParse(body).success).toBe(true);
      expect(validator.safeParse({ ...body, undocumented: true }).success).toBe(false);
      expect(validator.safeParse(without).success).toBe(false);
    }
  });
}
