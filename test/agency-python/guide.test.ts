/**
 * docs/agency-guide.md against the code, so that the page cannot drift: every call, body, field,
 * error, header and parameter it names is one the emulator reads or sends (its route table, its zod
 * schemas, its errors) or the harness judges, and it names every one an agency needs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { statusesOf } from '../../emulator/errors.js';
import { ApiError, EXPERIENCE_ERRORS } from '../../emulator/experience/errors.js';
import { CampaignReadSchema, CampaignSchema, EligibilitySchema, EntrySchema, SessionCreatedSchema, SessionReadSchema } from '../../emulator/experience/responses.js';
import { ConsentSchema, EntryBody, ProductionSessionBody, SandboxSessionBody } from '../../emulator/experience/schemas.js';
import { TermsSchema } from '../../emulator/fixture.js';
import { EXPERIENCE_API } from '../../emulator/openapi/experience.js';
import { SANDBOX_SCENARIOS } from '../../emulator/use-cases/sandbox.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const GUIDE = readFileSync(join(ROOT, 'docs/agency-guide.md'), 'utf8');
/** What a reader reads as text: no comments, no fenced blocks. */
const PROSE = GUIDE.replace(/<!--[\s\S]*?-->/g, '').replace(/^```[\s\S]*?^```/gm, '');
const SPANS = [...new Set([...PROSE.matchAll(/`([^`]+)`/g)].map((match) => match[1]!))];

/** The code an agency talks to and is judged by: the emulator, the harness, the reference agency, the scenarios. */
const SOURCES = execFileSync('git', ['ls-files', 'emulator', 'harness', 'fixtures/agency-reference', 'scenarios'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((file) => /\.(ts|json)$/.test(file) && !file.endsWith('.test.ts'))
  .map((file) => readFileSync(join(ROOT, file), 'utf8'))
  .join('\n');

function inSources(name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  // Header names are matched without case, as HTTP reads them; every other name exactly.
  return new RegExp(`(?<![\\w-])${escaped}(?![\\w-])`, /^[A-Z][\w]*-[A-Z]/.test(name) ? 'i' : '').test(SOURCES);
}

const CALL = /^(GET|POST) (\/[\w/]*)$/;
const NAME = /^[A-Za-z_][\w-]*$/;
const HEADER = /^([A-Za-z-]+): (\S+)/;
const ASSIGNED = /^([\w-]+)=(\w+)$/;
const FILE = /^[\w-]+\/([\w.-]+\/?)*$/;
const FRAGMENT = /^"\w+": /;
/** Spans that are prose, not a name: the verifier's alphabet, a padding character, commands and markup to avoid. */
const PROSE_SPANS = new Set(['A-Z a-z 0-9 - . _ ~', '=', 'eval "$(npx emulator env)"', 'npx harness verify --callback URL --preview URL', '<meta http-equiv="refresh">', 'http://127.0.0.1:4010']);

const shapeKeys = (schema: { shape: object }) => Object.keys(schema.shape);
const shapeOf = (schema: z.ZodType): Record<string, z.ZodType> | undefined => {
  const inner = schema instanceof z.ZodNullable || schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : undefined;
};

describe('docs/agency-guide.md', () => {
  test('every server call it names is a route of the experience API, and it names them all', () => {
    const named = SPANS.map((span) => CALL.exec(span)).filter((match) => match !== null).map(([, method, path]) => `${method} ${path}`);
    const routes = Object.entries(EXPERIENCE_API.routes).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(new Set(named)).toEqual(new Set(routes));
    expect(SPANS).toContain(EXPERIENCE_API.root);
    expect(SPANS).toContain(EXPERIENCE_API.securitySchemes!.serviceSession!.name);
  });

  test('every body it shows is one the API accepts (request schemas are strict), or its error body', () => {
    const bodies = SPANS.filter((span) => span.startsWith('{')).map((span) => JSON.parse(span) as unknown);
    const errorBody = Object.keys(new ApiError('invalid_session').toJSON());
    const requests = [SandboxSessionBody, ProductionSessionBody, EntryBody];
    const refused = bodies.filter((body) => !requests.some((schema) => schema.safeParse(body).success) && !(Object.keys(body as object).every((key) => errorBody.includes(key))));
    expect(refused).toEqual([]);
    // The production entry's consent, with every field the API reads.
    expect(bodies).toContainEqual({ consent: Object.fromEntries(shapeKeys(ConsentSchema).map((key) => [key, expect.anything()])) });
    expect(bodies).toContainEqual(Object.fromEntries(shapeKeys(ProductionSessionBody).map((key) => [key, expect.any(String)])));
    // A field quoted alone, such as `"accepted": false`, is one of those bodies' fields, with a value of its type.
    const fields = SPANS.filter((span) => FRAGMENT.test(span)).map((span) => JSON.parse(`{${span}}`) as Record<string, unknown>);
    expect(fields.length).toBeGreaterThan(0);
    for (const field of fields) expect(ConsentSchema.partial().strict().safeParse(field).success, JSON.stringify(field)).toBe(true);
  });

  test('every field path it names is a field of the session or campaign read', () => {
    const roots: Record<string, z.ZodType> = { ...(SessionCreatedSchema.shape as Record<string, z.ZodType>), ...(CampaignReadSchema.shape as Record<string, z.ZodType>) };
    const unknown = SPANS.filter((span) => /^[a-z_]+(\.[a-z_]+)+$/.test(span)).filter((path) => {
      let fields: Record<string, z.ZodType> | undefined = roots;
      for (const part of path.split('.')) {
        const field: z.ZodType | undefined = fields?.[part];
        if (!field) return true;
        fields = shapeOf(field);
      }
      return false;
    });
    expect(unknown).toEqual([]);
  });

  test('it names every field, scenario, state and parameter an agency reads or sends', () => {
    const needed = [
      ...shapeKeys(SessionCreatedSchema), ...shapeKeys(SessionReadSchema), ...shapeKeys(CampaignReadSchema), ...shapeKeys(CampaignSchema).filter((key) => key !== 'id'),
      ...shapeKeys(TermsSchema), ...shapeKeys(EligibilitySchema), ...shapeKeys(EntrySchema).filter((key) => !['id', 'created_at'].includes(key)),
      ...SessionReadSchema.shape.delivery.shape.state.options, ...EntrySchema.shape.state.options, ...SANDBOX_SCENARIOS,
      ...shapeKeys(ConsentSchema), ...shapeKeys(ProductionSessionBody), ...shapeKeys(SandboxSessionBody),
      // The callback's parameters and the authorize URL's (emulator/use-cases/journey/scan.ts and emulator/use-cases/journey/authorize.ts).
      'service_request', 'service_code', 'state', 'request_token', 'code_challenge', 'code_challenge_method', 'S256', 'code_verifier',
      'Cache-Control: no-store', 'Referrer-Policy: same-origin', 'Retry-After', 'HttpOnly', 'SameSite=Lax', 'Secure', 'agency_log',
    ];
    expect(needed.filter((name) => !SPANS.includes(name))).toEqual([]);
  });

  test('each error it gives is one the API answers, with that status', () => {
    const rows = [...PROSE.matchAll(/^\| (\d{3})(?: or (\d{3}))? `(\w+)` \|/gm)].map(([, status, other, code]) => ({ code: code!, statuses: [status, other].filter(Boolean).map(Number) }));
    const table = ['ineligible', 'already_entered', 'consent_required', 'invalid_session', 'unavailable', 'rate_limited'];
    expect(rows.map((row) => row.code)).toEqual(table);
    for (const row of rows) expect(statusesOf(EXPERIENCE_ERRORS[row.code as keyof typeof EXPERIENCE_ERRORS])).toEqual(row.statuses);
    const others = [...PROSE.matchAll(/(\d{3}) `(\w+)`/g)].filter(([, , code]) => !table.includes(code!));
    for (const [, status, code] of others) expect(statusesOf(EXPERIENCE_ERRORS[code as keyof typeof EXPERIENCE_ERRORS]), code).toContain(Number(status));
  });

  test('it links the two agencies that follow it, the Python one as the starting point', () => {
    expect(PROSE).toContain('[`fixtures/agency-python/`](../fixtures/agency-python/)');
    expect(PROSE).toContain('[`fixtures/agency-reference/`](../fixtures/agency-reference/)');
  });

  test('it says in one sentence that each value has two names on its way, as the emulator names them', () => {
    expect(PROSE.replace(/\s+/g, ' ')).toContain(
      'the `service_request` that arrives at your callback is what you send as `request_token` on the authorize URL, and the `service_code` that arrives is what you send as `authorization_code`.',
    );
    // Where the emulator sends and reads them: the scan's redirect, the authorize page's parameters and its redirect, the exchange's body.
    expect(readFileSync(join(ROOT, 'emulator/use-cases/journey/scan.ts'), 'utf8')).toContain('?service_request=');
    const authorize = readFileSync(join(ROOT, 'emulator/use-cases/journey/authorize.ts'), 'utf8');
    for (const name of ['request_token:', 'code_challenge:', 'code_challenge_method:', 'service_code: code, state:']) expect(authorize).toContain(name);
    expect(shapeKeys(ProductionSessionBody)).toContain('authorization_code');
  });

  test('every other name, header, parameter, path and file it gives is in the code or the repository', () => {
    const missing = SPANS.filter((span) => !span.startsWith('{') && !FRAGMENT.test(span) && !CALL.test(span) && !PROSE_SPANS.has(span)).flatMap((span): string[] => {
      const header = HEADER.exec(span);
      if (header) return [header[1]!, header[2]!].filter((part) => !inSources(part));
      const assigned = ASSIGNED.exec(span);
      if (assigned) return [assigned[1]!, assigned[2]!].filter((part) => !inSources(part));
      if (FILE.test(span)) return existsSync(join(ROOT, span)) ? [] : [span];
      if (span.startsWith('/')) {
        const [path, query] = span.split('?');
        const names = query ? [...new URLSearchParams(query).keys()] : [];
        return [path!, ...names].filter((part) => !inSources(part));
      }
      if (/^[a-z_]+(\.[a-z_]+)+$/.test(span)) return []; // field paths: checked against the schemas above
      if (/^\d+(\.\d+){3}$/.test(span)) return SOURCES.includes(`'${span}'`) ? [] : [span];
      return NAME.test(span) && inSources(span) ? [] : [span];
    });
    expect(missing).toEqual([]);
  });
});
