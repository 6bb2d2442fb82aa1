/**
 * Reads the import graph of src/ (every `import … from` and `export … from` of a relative module,
 * type-only ones too: they are arrows of the architecture as much as the others) and checks it:
 * no cycle between files (strongly connected components of more than one file, or a file that
 * imports itself) and no import up a layer. The layers, lowest first (docs/architecture.md):
 * `engine` and `drivers` (neither imports the other), `emulators` (above the drivers), then
 * `bridge`. Inside `bridge`, `wire` (the public contract) imports only the engine and itself, and
 * the folders have ranks, lowest first: wire; the infrastructure (config, journal, mqtt, http,
 * feed, web, pairings, i18n, security, livechess and the files directly in src/bridge/); game; stages; daemon; simulate;
 * cli. A file imports only from its own rank or below, and only simulate and cli import the
 * emulators.
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

/** The ranks inside src/bridge, lowest first; a file imports only from its own rank or below. */
const BRIDGE_RANKS = ['wire', 'infrastructure', 'game', 'stages', 'daemon', 'simulate', 'cli'] as const;
type BridgeRank = (typeof BRIDGE_RANKS)[number];

/** The folders of src/bridge that make up its infrastructure (with the files directly in it). */
const INFRASTRUCTURE = new Set([
  'config',
  'journal',
  'mqtt',
  'http',
  'feed',
  'web',
  'pairings',
  'i18n',
  'security',
  'livechess',
]);

/** The rank of a file of src/bridge, or undefined for a folder no rank names. */
const bridgeRank = (file: string): BridgeRank | undefined => {
  const parts = file.slice('src/bridge/'.length).split('/');
  const dir = parts[0] ?? '';
  if (parts.length === 1 || INFRASTRUCTURE.has(dir)) return 'infrastructure';
  return BRIDGE_RANKS.find(rank => rank === dir);
};

/** Why `from` may not import `to`, or undefined when it may. */
const layerProblem = (from: string, to: string): string | undefined => {
  const under = (f: string, dir: string): boolean => f.startsWith(`src/${dir}/`);
  if (under(from, 'engine') && (under(to, 'bridge') || under(to, 'drivers') || under(to, 'emulators')))
    return 'the engine imports nothing of the drivers, the emulators or the bridge';
  if (under(from, 'drivers') && (under(to, 'bridge') || under(to, 'engine') || under(to, 'emulators')))
    return 'the drivers import nothing of the engine, the emulators or the bridge';
  if (under(from, 'emulators') && under(to, 'bridge')) return 'the emulators import nothing of the bridge';
  const vendor = (f: string): string | undefined =>
    /^src\/drivers\/(dgt|millennium|certabo|chessnut)\//.exec(f)?.[1];
  if (vendor(from) !== undefined && vendor(to) !== undefined && vendor(from) !== vendor(to))
    return 'one board family imports nothing of another (what they share is in src/drivers/)';
  if (under(from, 'bridge/wire') && !under(to, 'bridge/wire') && !under(to, 'engine'))
    return 'the wire (the public contract) imports only the engine and itself';
  if (!under(from, 'bridge')) return undefined;
  const rank = bridgeRank(from);
  if (rank === undefined)
    return `${dirname(from)}/ has no rank in the bridge (test/architecture/importGraph.ts)`;
  const at = BRIDGE_RANKS.indexOf(rank);
  if (under(to, 'emulators') && at < BRIDGE_RANKS.indexOf('simulate'))
    return `only simulate and cli import the emulators, not ${rank} (the daemon reads real boards)`;
  if (!under(to, 'bridge')) return undefined;
  const toRank = bridgeRank(to);
  if (toRank === undefined)
    return `${dirname(to)}/ has no rank in the bridge (test/architecture/importGraph.ts)`;
  if (BRIDGE_RANKS.indexOf(toRank) > at)
    return `${rank} imports nothing of ${toRank} (the bridge's ranks, lowest first: ${BRIDGE_RANKS.join(', ')})`;
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
