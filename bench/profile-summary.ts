/**
 * Where a CPU profile's time goes: `node dist/bench/profile-summary.js FILE.cpuprofile [N]`.
 * Prints self time by area (emulator file, package, node internals, native) and the N functions
 * with the most self time and, for functions of the emulator, the most inclusive time; each as a
 * share of the whole profile and of its busy time (neither idle nor `(program)`), since the bench's
 * profiles also span the baselines' turns, when the emulator sits idle.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from './paths.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, top = '25'] = process.argv.slice(2);
if (!file) {
  console.error('[bench] usage: profile-summary FILE.cpuprofile [N]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const self = new Map<string, number>();
const areas = new Map<string, number>();
const inclusive = new Map<string, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const us = profile.timeDeltas[i] ?? 0;
  total += us;
  const node = byId.get(id)!;
  add(self, label(node), us);
  add(areas, area(node), us);
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)!;
    if (!area(frame).startsWith('emulator/')) continue;
    const name = label(frame);
    if (!seen.has(name)) add(inclusive, name, us);
    seen.add(name);
  }
});

const idle = (areas.get('(idle)') ?? 0) + (areas.get('(program)') ?? 0);
const busy = total - idle;
console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled, ${pct(idle, total)} idle or (program), ${(busy / 1e6).toFixed(2)} s busy`);
console.log('columns: share of the whole profile, share of busy time, milliseconds');
print('self time by area', areas, 15);
print('self time by function', self, Number(top));
print('inclusive time, emulator functions', inclusive, Number(top));

function label(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  return `${functionName || '(anonymous)'} ${where(url)}${url ? `:${lineNumber + 1}` : ''}`;
}

function where(url: string): string {
  if (!url) return '';
  const path = url.startsWith('file://') ? fileURLToPath(url) : url;
  const rel = relative(ROOT, path);
  return rel.startsWith('dist/') ? rel.slice('dist/'.length) : rel;
}

function area(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const path = where(url);
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (pkg) return pkg[1]!;
  if (path.startsWith('node:')) return 'node internals';
  return path;
}

function add(map: Map<string, number>, key: string, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

function pct(us: number, of: number): string {
  return `${((100 * us) / of).toFixed(1)}%`;
}

function print(title: string, map: Map<string, number>, count: number): void {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    const ofBusy = key === '(idle)' || key === '(program)' ? '' : pct(us, busy);
    console.log(`  ${pct(us, total).padStart(6)} ${ofBusy.padStart(6)} ${`${(us / 1000).toFixed(0)} ms`.padStart(9)}  ${key}`);
  }
}
