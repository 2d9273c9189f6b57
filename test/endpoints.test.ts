/**
 * Every HTTP area registers its routes as rows of its table (emulator/endpoints.ts, decisions/019):
 * no module of emulator/ calls `router.get(`, `router.post(` and the like itself.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourceFiles } from './support/source-files.js';

/** A route registered on a router or an app by method: `router.get(`, `app.post(`, `router.route(`, `router['get'](`. */
const DIRECT = /\b(?:router|app|group)\s*(?:\.\s*(?:get|post|put|delete|patch|all|route)|\[\s*'(?:get|post|put|delete|patch|all)'\s*\])\s*\(/;

function registersDirectly(code: string): boolean {
  return DIRECT.test(code);
}

/** The emulator's modules, as paths from the package root. */
function modules(folder: string): string[] {
  return sourceFiles(join(ROOT, folder)).filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts')).map((path) => `${folder}/${path}`);
}

describe('every area registers its routes through endpoints.ts', () => {
  it('finds a route registered directly, whatever its method', () => {
    expect(registersDirectly("router.get('/brands', (_req, res) => res.json([]));")).toBe(true);
    expect(registersDirectly("  app.post('/x', handler)")).toBe(true);
    expect(registersDirectly("router['delete']('/x', handler)")).toBe(true);
    expect(registersDirectly("const token = req.get('authorization');")).toBe(false);
    expect(registersDirectly('router.use(jsonBody);')).toBe(false);
  });

  it('no module of emulator/ but endpoints.ts registers a route itself', () => {
    const direct = modules('emulator').filter((path) => path !== 'emulator/endpoints.ts' && registersDirectly(readFileSync(join(ROOT, path), 'utf8')));
    expect(direct).toEqual([]);
  });

  it('a refusal is the one Refused type: no module of emulator/ makes an `{ ok: false }` shape', () => {
    const shaped = modules('emulator').filter((path) => /\{\s*ok:\s*false\b/.test(readFileSync(join(ROOT, path), 'utf8')));
    expect(shaped).toEqual([]);
  });

  it('the helper itself is where the rows are registered', () => {
    expect(readFileSync(join(ROOT, 'emulator/endpoints.ts'), 'utf8')).toMatch(/router\[row\.method\]\(row\.path,/);
  });
});
