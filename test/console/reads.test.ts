/**
 * The console's rows read the store through their use cases only (use-cases/console/): a module of
 * emulator/console/ may name a stored type, never call into the store, so no serializer or caller
 * reads what its row's `run` did not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';
import { ROOT, sourceFiles } from '../support/source-files.js';

/** The store modules a source imports a value from (a type-only import, or `type` on every name, imports none). */
function storeValueImports(code: string): string[] {
  const source = ts.createSourceFile('module.ts', code, ts.ScriptTarget.Latest);
  return source.statements.filter(ts.isImportDeclaration).flatMap((statement) => {
    const from = (statement.moduleSpecifier as ts.StringLiteral).text;
    const clause = statement.importClause;
    if (!/(^|\/)store\//.test(from) || !clause || clause.isTypeOnly) return [];
    const named = clause.namedBindings;
    const values = clause.name !== undefined || (named !== undefined && (ts.isNamespaceImport(named) || named.elements.some((element) => !element.isTypeOnly)));
    return values ? [from] : [];
  });
}

it('finds a value imported from the store, and lets a type through', () => {
  expect(storeValueImports("import { getPromotion } from '../store/promotions.js';")).toEqual(['../store/promotions.js']);
  expect(storeValueImports("import { type Promotion, loadCampaign } from '../../store/promotions.js';")).toEqual(['../../store/promotions.js']);
  expect(storeValueImports("import type { Promotion } from '../store/promotions.js';")).toEqual([]);
  expect(storeValueImports("import { type KnownPack } from '../../store/known-packs.js';")).toEqual([]);
});

it('no module of emulator/console/ calls into the store', () => {
  const reading = sourceFiles(join(ROOT, 'emulator/console')).map((file) => `emulator/console/${file}`)
    .filter((path) => storeValueImports(readFileSync(join(ROOT, path), 'utf8')).length > 0);
  expect(reading).toEqual([]);
});
