// The layers of the emulator, top to bottom: a module imports from its own layer or a lower one,
// never a higher one, so a walk from a route down to the store never climbs back up. The harness
// reads the emulator only through its wire contract. Checked by `npm run lint` and test/layers.test.ts.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { existing } from './named-files.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Paths from the package root; a folder ends with a slash. The first match counts. */
export const LAYERS = [
  ['emulator/cli.ts', 'emulator/cli/'],
  ['emulator/server.ts'],
  ['emulator/app.ts'],
  // The wire contract imports nothing, so every layer may import it.
  ['emulator/wire-contract.ts', 'BOTTOM'],
  ['emulator/control/'],
  ['emulator/openapi/'],
  ['emulator/console/', 'emulator/webhooks/'],
  ['emulator/journey/', 'emulator/reporting/'],
  ['emulator/experience/'],
  ['emulator/use-cases/', 'emulator/endpoints.ts'],
  ['emulator/context.ts', 'emulator/events.ts', 'emulator/pages/', 'emulator/request-log.ts'],
  ['emulator/store/', 'emulator/logger.ts'],
  // The request path's fast path (decisions/013): the store builds on it (the connection's state, the
  // cache, the turn's transaction); it knows nothing of the store, so the arrow goes one way.
  ['emulator/fast-path/'],
  ['emulator/domain/', 'emulator/http.ts', 'emulator/validation.ts', 'emulator/api-docs.ts'],
  ['emulator/json-keys.ts'],
  ['emulator/clock.ts', 'emulator/fixture.ts', 'emulator/errors.ts', 'emulator/sea.ts', 'emulator/cli-error.ts'],
];
existing(LAYERS.flat().filter((entry) => entry !== 'BOTTOM'));

/** What the harness may import of the emulator. */
export const [HARNESS_READS] = existing(['emulator/wire-contract.ts']);

/** The layer of a path from the root: 0 is the top; the contract is below every other; undefined outside emulator/. */
export function layerOf(path) {
  if (path === HARNESS_READS) return LAYERS.length;
  const index = LAYERS.findIndex((layer) => layer.some((entry) => (entry.endsWith('/') ? path.startsWith(entry) : path === entry)));
  return index === -1 ? undefined : index;
}

function target(filename, source) {
  if (!source.startsWith('.')) return undefined;
  return relative(ROOT, resolve(dirname(filename), source)).replace(/\.js$/, '.ts');
}

function describe(path) {
  const layer = layerOf(path);
  return layer === LAYERS.length ? path : `${path} (layer ${LAYERS[layer].filter((entry) => entry !== 'BOTTOM').join(', ')})`;
}

export const layersRule = {
  meta: { type: 'problem', schema: [], messages: { climbs: '{{from}} imports {{to}}, a layer above it: layers point down only (eslint/layers.js).', harness: 'The harness reads the emulator only through emulator/wire-contract.ts; {{to}} is not it.', unknown: '{{to}} is in no layer of eslint/layers.js: add it there.' } },
  create(context) {
    const from = relative(ROOT, context.filename);
    const inHarness = from.startsWith('harness/');
    const fromLayer = layerOf(from);
    if (!inHarness && fromLayer === undefined) return {};
    const check = (node, source) => {
      if (typeof source !== 'string') return;
      const to = target(context.filename, source);
      if (to === undefined || !to.startsWith('emulator/')) return;
      if (inHarness) {
        if (to !== HARNESS_READS) context.report({ node, messageId: 'harness', data: { to } });
        return;
      }
      const toLayer = layerOf(to);
      if (toLayer === undefined) return context.report({ node, messageId: 'unknown', data: { to } });
      if (toLayer < fromLayer) context.report({ node, messageId: 'climbs', data: { from: describe(from), to: describe(to) } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};
