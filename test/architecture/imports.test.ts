/**
 * The architecture's arrows (docs/architecture.md): no import cycle between the files of src/,
 * no import up a layer. `npx tsx scripts/imports.ts` prints the same check.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkImports, readImportGraph, type ImportGraph } from './importGraph.js';

const ROOT = join(import.meta.dirname, '../..');

describe('the import graph of src/', () => {
  it('has no cycle and no import up a layer', () => {
    const graph = readImportGraph(ROOT);
    expect(graph.size).toBeGreaterThan(200);
    expect(graph.get('src/bridge/wire/events.ts')).toContain('src/bridge/wire/words.ts');
    expect(checkImports(graph)).toEqual({ cycles: [], upward: [] });
  });

  it('finds a cycle and an upward import when there is one', () => {
    const graph: ImportGraph = new Map([
      ['src/bridge/a.ts', new Set(['src/bridge/b.ts'])],
      ['src/bridge/b.ts', new Set(['src/bridge/c.ts'])],
      ['src/bridge/c.ts', new Set(['src/bridge/a.ts'])],
      ['src/engine/x.ts', new Set(['src/bridge/a.ts'])],
      ['src/bridge/wire/w.ts', new Set(['src/bridge/mqtt/topics.ts'])],
    ]);
    const { cycles, upward } = checkImports(graph);
    expect(cycles).toEqual([['src/bridge/a.ts', 'src/bridge/b.ts', 'src/bridge/c.ts']]);
    expect(upward).toEqual([
      'src/engine/x.ts imports src/bridge/a.ts: the engine imports nothing of the drivers or the bridge',
      'src/bridge/wire/w.ts imports src/bridge/mqtt/topics.ts: the wire (the public contract) imports only the engine and itself',
    ]);
  });
});
