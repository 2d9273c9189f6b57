/**
 * No import circle between the emulator's files, type imports included: a file can be read knowing
 * only what it imports, and the order its modules load in is the order of its imports. Between the
 * emulator's folders the layer lint keeps the arrows one way (eslint/layers.js); inside one folder
 * this test does.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, posix, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Each .ts file of a folder, with the files of that folder it imports (by relative path). */
function importsOf(folder: string): Map<string, string[]> {
  const files = readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter((path) => path.endsWith('.ts')).map((path) => posix.join(folder, path.split(sep).join('/')));
  const known = new Set(files);
  return new Map(files.map((file) => {
    const named = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName);
    return [file, named.filter((name) => name.startsWith('.')).map((name) => posix.join(posix.dirname(file), name.replace(/\.js$/, '.ts'))).filter((target) => known.has(target))];
  }));
}

/** The graph's circles: each set of files that reach one another (Tarjan's components), sorted. */
function circles(graph: Map<string, string[]>): string[][] {
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!order.has(next)) visit(next);
      if (stack.includes(next)) low.set(file, Math.min(low.get(file)!, low.get(next)!));
    }
    if (low.get(file) !== order.get(file)) return;
    const component = stack.splice(stack.indexOf(file));
    if (component.length > 1 || graph.get(file)?.includes(file)) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!order.has(file)) visit(file);
  return found.sort();
}

it('no file of the emulator imports, through any chain, a file that imports it', () => {
  const graph = importsOf('emulator');
  expect(graph.size).toBeGreaterThan(150);
  expect([...graph.values()].flat().length).toBeGreaterThan(500);
  expect(circles(graph)).toEqual([]);
});

it('finds a circle of two files, of three, and of one importing itself, and none in a chain', () => {
  const graph = new Map(Object.entries({ a: ['b'], b: ['a', 'c'], c: ['d'], d: ['e'], e: ['c'], f: ['f'], g: ['a'] }));
  expect(circles(graph)).toEqual([['a', 'b'], ['c', 'd', 'e'], ['f']]);
  expect(circles(new Map(Object.entries({ a: ['b', 'c'], b: ['c'], c: [] })))).toEqual([]);
});
