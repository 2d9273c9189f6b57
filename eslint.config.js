// The lint the CI runs: a small, strict set of rules that the typecheck does not cover.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import tseslint from 'typescript-eslint';
import { layersRule } from './eslint/layers.js';
import { existing } from './eslint/named-files.js';
import { BACKGROUND_USE_CASES, REQUEST_PATH_FILES, synchronousRequestPath } from './eslint/synchronous.js';
import { MIGRATION_FILES, tableWritersRule } from './eslint/table-writers.js';
import { timerWritesRule } from './eslint/timer-writes.js';

const announceOnly = {
  selector: "CallExpression[callee.property.name='emit'][callee.object.property.name='events']",
  message: 'Emit domain events with announce() from emulator/events.ts: it waits for the commit (decisions/013).',
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'docs/**', 'fixtures/agency-spa/public/**'] },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: dirname(fileURLToPath(import.meta.url)) },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
      // `typeof import('…')` in a type position loads nothing at run time, so it stays allowed.
      '@typescript-eslint/consistent-type-imports': ['error', { disallowTypeAnnotations: false }],
    },
  },
  {
    // Domain events tell of committed data: emulator code emits through `announce` (decisions/013).
    files: ['emulator/**/*.ts'],
    ignores: existing(['emulator/events.ts']),
    rules: { 'no-restricted-syntax': ['error', announceOnly] },
  },
  {
    files: REQUEST_PATH_FILES,
    ignores: BACKGROUND_USE_CASES,
    rules: { 'no-restricted-syntax': [...synchronousRequestPath, announceOnly] },
  },
  {
    // Layers point down only, and the harness reads the emulator only through its wire contract.
    files: ['emulator/**/*.ts', 'harness/**/*.ts'],
    plugins: { local: { rules: { layers: layersRule } } },
    rules: { 'local/layers': 'error' },
  },
  {
    // Each table has one writing module (eslint/table-writers.js); the migrations reshape them all.
    files: ['emulator/**/*.ts'],
    ignores: MIGRATION_FILES,
    plugins: { tables: { rules: { 'one-writer': tableWritersRule } } },
    rules: { 'tables/one-writer': 'error' },
  },
  {
    // A write from a timer or an I/O callback goes through ownTransaction (decisions/013). Not in:
    // the CLI's commands, run in a process of their own on a connection with no shared transaction;
    // server.ts, whose callbacks open the world before the first request and close it after the last.
    files: ['emulator/**/*.ts'],
    ignores: existing(['emulator/cli/commands.ts', 'emulator/server.ts']),
    plugins: { timers: { rules: { 'own-transaction': timerWritesRule } } },
    rules: { 'timers/own-transaction': 'error' },
  },
);
