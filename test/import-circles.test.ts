/**
 * No import circle: no file reaches itself through its imports (type imports and `export … from`
 * included), anywhere in the repository; and no folder of a program reaches itself through its
 * files' imports, where a program's folders are emulator/* and harness/* (each subfolder, and each
 * file at their top), fixtures, playwright and bench. Tests are files like any other, but no
 * program's folder: a test beside its code may import what it likes. The graph is read from the
 * sources as TypeScript reads their imports (ts.preProcessFile); a failure names each circle.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, posix } from 'node:path';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';
import { ROOT, sourceFiles } from './support/source-files.js';

type Graph = Map<string, Set<string>>;

/** Every source file under `root` (paths from it, with `/`), each with the files of the tree it imports. */
function importGraph(root: string): Graph {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph: Graph = new Map();
  for (const file of files) {
    const imported = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true).importedFiles.map((reference) => reference.fileName);
    const targets = imported.filter((name) => name.startsWith('.')).flatMap((name) => {
      const base = posix.normalize(posix.join(posix.dirname(file), name));
      // An ESM import names the emitted .js of a .ts source.
      const found = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base.replace(/\.cjs$/, '.cts'), `${base}.ts`, `${base}/index.ts`].find((candidate) => known.has(candidate));
      return found ? [found] : [];
    });
    graph.set(file, new Set(targets));
  }
  return graph;
}

/** The circles of a graph, each named by one way round it, `a -> b -> a`, and the other nodes of its knot. */
function circles(graph: Graph): string[][] {
  // Tarjan's strongly connected components: a component of more than one node holds a circle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component = stack.splice(stack.indexOf(node));
    if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.map((component) => {
    const way = wayRound(graph, component);
    const others = component.filter((node) => !way.includes(node));
    return others.length ? [...way, `(and through ${others.join(', ')})`] : way;
  });
}

/** A shortest way from the component's first node back to it, through the component only. */
function wayRound(graph: Graph, component: string[]): string[] {
  const start = component[0]!;
  const inside = new Set(component);
  const came = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const node = queue.shift()!;
    for (const to of [...(graph.get(node) ?? [])].sort()) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(came.get(path[0]!)!);
        return [...path, start];
      }
      if (!came.has(to)) {
        came.set(to, node);
        queue.push(to);
      }
    }
  }
  return [...component, start];
}

/** The program folder a file belongs to, or undefined for a test and what is no program's. */
function folderOf(file: string): string | undefined {
  if (file.startsWith('test/') || /\.test\.[cm]?[jt]s$/.test(file)) return undefined;
  const parts = file.split('/');
  if (parts[0] === 'emulator' || parts[0] === 'harness') return parts.slice(0, 2).join('/');
  return ['fixtures', 'playwright', 'bench'].includes(parts[0]!) ? parts[0] : undefined;
}

/** The graph of program folders: an arrow where a file of one imports a file of another. */
function folderGraph(graph: Graph): Graph {
  const folders: Graph = new Map();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = folderOf(target);
      if (!to || to === from) continue;
      folders.set(from, (folders.get(from) ?? new Set()).add(to));
    }
  }
  return folders;
}

const named = (circle: string[]) => circle.join(' -> ');

describe('import circles', () => {
  const graph = importGraph(ROOT);

  test('no file of the repository reaches itself through its imports', () => {
    expect(graph.size).toBeGreaterThan(400);
    expect(circles(graph).map(named)).toEqual([]);
  });

  test('no folder of a program reaches itself through its files', () => {
    expect(circles(folderGraph(graph)).map(named)).toEqual([]);
  });

  test('the lint sees a circle, and names it: between files (type imports and re-exports included), and between folders', () => {
    const root = mkdtempSync(join(tmpdir(), 'import-circles-'));
    const write = (file: string, text: string) => {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), text);
    };
    try {
      write('harness/run/a.ts', "import type { B } from './b.js';\nexport type A = B;\n");
      write('harness/run/b.ts', "export { c } from '../pages/c.js';\nexport type B = string;\n");
      write('harness/pages/c.ts', "import type { A } from '../run/a.js';\nexport const c = (a: A) => a;\n");
      write('harness/pages/d.ts', "import { e } from '../browser/e.js';\nexport const d = e;\n");
      write('harness/browser/e.ts', "export const e = 1;\nexport async function f() { return import('../pages/c.js'); }\n");
      const made = importGraph(root);
      expect(circles(made).map(named)).toEqual(['harness/pages/c.ts -> harness/run/a.ts -> harness/run/b.ts -> harness/pages/c.ts']);
      expect(circles(folderGraph(made)).map(named)).toEqual(['harness/browser -> harness/pages -> harness/browser -> (and through harness/run)']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
