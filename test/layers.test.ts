/**
 * Layers point down only (eslint/layers.js): the rule finds no climb in the tree, and it does find
 * one where a module imports a higher layer, or where the harness imports anything of the emulator
 * but its wire contract.
 */
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';
import { layersRule } from '../eslint/layers.js';

const eslint = new ESLint({
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { local: { rules: { layers: layersRule } } },
    rules: { 'local/layers': 'error' },
  }],
});

async function problems(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => message.message);
}

describe('layers', () => {
  it('no module of emulator/ or harness/ imports a higher layer, and the harness reads only the contract', async () => {
    const results = await eslint.lintFiles(['emulator/**/*.ts', 'harness/**/*.ts']);
    const found = results.filter((result) => !result.filePath.endsWith('.test.ts')).flatMap((result) => result.messages.map((message) => `${result.filePath}: ${message.message}`));
    expect(results.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  }, 120_000);

  it.each([
    ['the experience API importing the OpenAPI documents', 'emulator/experience/routes.ts', "import { experienceOpenApi } from '../openapi/experience.js';"],
    ['the console importing the control plane', 'emulator/console/dashboard-routes.ts', "import { trustedCaller } from '../control/guard.js';"],
    ['the store importing a use case', 'emulator/store/entries.ts', "import { enterPack } from '../use-cases/entry.js';"],
    ['the fast path importing the store', 'emulator/fast-path/cache.ts', "import { getMeta } from '../store/db.js';"],
    ['the fast path importing a type of the store', 'emulator/fast-path/turn-transaction.ts', "import type { Db } from '../store/connection.js';"],
    ['a root module importing the CLI', 'emulator/sea.ts', "import { CliError } from './cli/program.js';"],
    ['the wire contract importing anything of the emulator', 'emulator/wire-contract.ts', "import type { Clock } from './clock.js';"],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await problems(code, filePath)).toEqual([expect.stringMatching(/a layer above it/)]);
  });

  it.each([
    ['emulator/cli/paths.ts', "import { packageRoot } from '../emulator/cli/paths.js';"],
    ['emulator/console/callback-url.ts', "import { checkCallbackUrl } from '../emulator/console/callback-url.js';"],
  ])('refuses the harness importing %s', async (_name, code) => {
    expect(await problems(code, 'harness/verify.ts')).toEqual([expect.stringMatching(/only through emulator\/wire-contract\.ts/)]);
  });

  it('lets a module import its own layer or a lower one, and the harness the contract', async () => {
    expect(await problems("import { admit } from '../domain/admission.js';\nimport { enterPack } from '../use-cases/entry.js';", 'emulator/experience/entry.ts')).toEqual([]);
    expect(await problems("import { cached } from '../fast-path/cache.js';", 'emulator/store/keys.ts')).toEqual([]);
    expect(await problems("import { checkCallbackUrl } from '../emulator/wire-contract.js';", 'harness/verify.ts')).toEqual([]);
  });
});
