/**
 * Reads the import graph of src/ (every `import … from` and `export … from` of a relative module,
 * type-only ones too: they are arrows of the architecture as much as the others) and checks it:
 * no cycle between files (strongly connected components of more than one file, or a file that
 * imports itself) and no import up a layer. The layers, lowest first (docs/architecture.md):
 * `engine` and `drivers` (neither imports the other), then `bridge`; inside `bridge`, `wire` (the
 * public contract) imports only the engine and itself.
 *
 *   const { cycles, upward } = checkImports(readImportGraph(root));
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** File (relative to the root, `src/…`) → the files it imports. */
export type ImportGraph = Map<string, Set<string>>;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap(name => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith('.ts') ? [path] : [];
  });

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:[^'"]*?\sfrom\s)?['"](\.{1,2}\/[^'"]+)['"]/g;

export const readImportGraph = (root: string): ImportGraph => {
  const graph: ImportGraph = new Map();
  for (const file of walk(join(root, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const from = relative(root, file);
    const to = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1];
      if (spec === undefined) continue;
      const target = relative(root, resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      to.add(target);
    }
    graph.set(from, to);
  }
  return graph;
};

/** The strongly connected components of more than one file, or of a file importing itself (Tarjan). */
const cyclesOf = (graph: ImportGraph): string[][] => {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, indices.get(w) ?? 0));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.has(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indices.has(v)) visit(v);
  return out;
};

/** Why `from` may not import `to`, or undefined when it may. */
const layerProblem = (from: string, to: string): string | undefined => {
  const under = (f: string, dir: string): boolean => f.startsWith(`src/${dir}/`);
  if (under(from, 'engine') && (under(to, 'bridge') || under(to, 'drivers')))
    return 'the engine imports nothing of the drivers or the bridge';
  if (under(from, 'drivers') && (under(to, 'bridge') || under(to, 'engine')))
    return 'the drivers import nothing of the engine or the bridge';
  if (under(from, 'bridge/wire') && !under(to, 'bridge/wire') && !under(to, 'engine'))
    return 'the wire (the public contract) imports only the engine and itself';
  return undefined;
};

export const checkImports = (graph: ImportGraph): { cycles: string[][]; upward: string[] } => {
  const upward: string[] = [];
  for (const [from, targets] of graph)
    for (const to of targets) {
      const problem = layerProblem(from, to);
      if (problem) upward.push(`${from} imports ${to}: ${problem}`);
    }
  return { cycles: cyclesOf(graph), upward };
};
