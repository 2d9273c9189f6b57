// Each table of the emulator's database has one module that writes it: a change to how a table is
// written (a column, a rule, a cache that must hear of it) is made in one place, and the seed goes
// through the same functions as the requests. The rule finds SQL writes (INSERT, REPLACE, UPDATE,
// DELETE) in the strings and templates of a module and reports one to a table that module does not
// own. Not held to it: the migrations (their modules create and reshape every table) and the tests.
// A reset empties every table by names it reads from the schema, which no string spells.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existing } from './named-files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each table, and the one module (from the package root) that writes it. */
export const WRITERS = {
  agency_keys: 'emulator/store/keys.ts',
  approval_history: 'emulator/store/approvals.ts',
  audience_members: 'emulator/store/audience.ts',
  audience_packs: 'emulator/store/audience.ts',
  auth_codes: 'emulator/store/codes.ts',
  batches: 'emulator/store/batches.ts',
  brands: 'emulator/store/companies.ts',
  browser_sessions: 'emulator/store/browser-sessions.ts',
  collectors: 'emulator/store/collectors.ts',
  companies: 'emulator/store/companies.ts',
  counters: 'emulator/store/db.ts',
  entries: 'emulator/store/entries.ts',
  interactions: 'emulator/store/interactions.ts',
  meta: 'emulator/store/db.ts',
  pool_codes: 'emulator/store/code-pool.ts',
  prizes: 'emulator/store/promotions.ts',
  promotions: 'emulator/store/promotions.ts',
  redemptions: 'emulator/store/redemptions.ts',
  request_tokens: 'emulator/store/request-tokens.ts',
  sandbox_coverage: 'emulator/store/coverage.ts',
  scans: 'emulator/store/scans.ts',
  service_keys: 'emulator/store/keys.ts',
  sessions: 'emulator/store/sessions.ts',
  sink_events: 'emulator/store/sinks.ts',
  sinks: 'emulator/store/sinks.ts',
  skus: 'emulator/store/skus.ts',
  units: 'emulator/store/batches.ts',
  webhook_attempts: 'emulator/store/webhooks.ts',
  webhook_deliveries: 'emulator/store/webhooks.ts',
  webhook_endpoints: 'emulator/store/webhooks.ts',
  webhook_events: 'emulator/store/webhooks.ts',
};
existing([...new Set(Object.values(WRITERS))]);

/** The migrations, which the rule leaves out. */
export const MIGRATION_FILES = existing(['emulator/store/schema.ts', 'emulator/store/schema-audience.ts', 'emulator/store/schema-core.ts', 'emulator/store/schema-journey.ts', 'emulator/store/schema-reporting.ts', 'emulator/store/schema-world.ts']);

const WRITE = /\b(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+["`]?(\w+)/gi;

export const tableWritersRule = {
  meta: { type: 'problem', schema: [], messages: { second: '{{table}} is written by {{owner}} only (eslint/table-writers.js): call a function of that module instead of writing it from {{from}}.' } },
  create(context) {
    const from = relative(ROOT, context.filename);
    const check = (node, text) => {
      for (const [, name] of text.matchAll(WRITE)) {
        const table = name.toLowerCase();
        const owner = Object.hasOwn(WRITERS, table) ? WRITERS[table] : undefined;
        if (owner !== undefined && owner !== from) context.report({ node, messageId: 'second', data: { table, owner, from } });
      }
    };
    return {
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      // An interpolation stands for no name: `DELETE FROM "${name}"` names no table.
      TemplateLiteral: (node) => check(node, node.quasis.map((quasi) => quasi.value.cooked ?? quasi.value.raw).join('\u0000')),
    };
  },
};
