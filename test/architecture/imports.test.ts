/**
 * The architecture's arrows (docs/architecture.md): no import cycle between the files of src/,
 * no import up a layer (engine, drivers, emulators, bridge; the ranks inside the bridge).
 * `npx tsx scripts/imports.ts` prints the same check.
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
    expect(graph.get('src/emulators/serialBoardHost.ts')).toContain('src/emulators/boardEmulatorHost.ts');
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
      'src/engine/x.ts imports src/bridge/a.ts: the engine imports nothing of the drivers, the emulators or the bridge',
      'src/bridge/wire/w.ts imports src/bridge/mqtt/topics.ts: the wire (the public contract) imports only the engine and itself',
    ]);
  });

  it('finds one board family importing another, and lets each import what the drivers share', () => {
    const graph: ImportGraph = new Map([
      ['src/drivers/certabo/session.ts', new Set(['src/drivers/dgt/session.ts', 'src/drivers/link.ts'])],
      ['src/drivers/dgt/session.ts', new Set(['src/drivers/dgt/codec.ts', 'src/drivers/backoff.ts'])],
    ]);
    expect(checkImports(graph).upward).toEqual([
      'src/drivers/certabo/session.ts imports src/drivers/dgt/session.ts: one board family imports nothing of another (what they share is in src/drivers/)',
    ]);
  });

  it('finds an import up the emulators and the ranks of the bridge, one for each rule', () => {
    const ranks =
      "(the bridge's ranks, lowest first: wire, infrastructure, game, stages, daemon, simulate, cli)";
    const graph: ImportGraph = new Map([
      // Upward, one import for each rule.
      ['src/drivers/a.ts', new Set(['src/emulators/a.ts'])],
      ['src/engine/b.ts', new Set(['src/emulators/b.ts'])],
      ['src/emulators/c.ts', new Set(['src/bridge/simulate/c.ts'])],
      ['src/bridge/daemon/d.ts', new Set(['src/emulators/d.ts'])],
      ['src/bridge/config/e.ts', new Set(['src/bridge/game/e.ts'])],
      ['src/bridge/f.ts', new Set(['src/bridge/daemon/f.ts'])],
      ['src/bridge/game/g.ts', new Set(['src/bridge/stages/g.ts'])],
      ['src/bridge/stages/h.ts', new Set(['src/bridge/daemon/h.ts'])],
      ['src/bridge/daemon/i.ts', new Set(['src/bridge/simulate/i.ts'])],
      ['src/bridge/simulate/j.ts', new Set(['src/bridge/cli/j.ts'])],
      ['src/bridge/misc/k.ts', new Set(['src/bridge/logger.ts'])],
      // Allowed: down a rank, within one, the emulators from the top of the bridge.
      [
        'src/bridge/cli/l.ts',
        new Set(['src/bridge/simulate/l.ts', 'src/bridge/cli/m.ts', 'src/emulators/l.ts']),
      ],
      ['src/bridge/simulate/n.ts', new Set(['src/bridge/daemon/n.ts', 'src/emulators/n.ts'])],
      [
        'src/bridge/daemon/o.ts',
        new Set(['src/bridge/stages/o.ts', 'src/bridge/game/o.ts', 'src/drivers/o.ts']),
      ],
      ['src/bridge/stages/p.ts', new Set(['src/bridge/game/p.ts', 'src/bridge/logger.ts'])],
      [
        'src/bridge/game/q.ts',
        new Set(['src/bridge/journal/q.ts', 'src/bridge/wire/q.ts', 'src/engine/q.ts']),
      ],
      [
        'src/bridge/http/r.ts',
        new Set(['src/bridge/feed/r.ts', 'src/bridge/ports.ts', 'src/bridge/wire/r.ts']),
      ],
      ['src/emulators/s.ts', new Set(['src/drivers/s.ts', 'src/emulators/t.ts'])],
    ]);
    const { cycles, upward } = checkImports(graph);
    expect(cycles).toEqual([]);
    expect(upward).toEqual([
      'src/drivers/a.ts imports src/emulators/a.ts: the drivers import nothing of the engine, the emulators or the bridge',
      'src/engine/b.ts imports src/emulators/b.ts: the engine imports nothing of the drivers, the emulators or the bridge',
      'src/emulators/c.ts imports src/bridge/simulate/c.ts: the emulators import nothing of the bridge',
      'src/bridge/daemon/d.ts imports src/emulators/d.ts: only simulate and cli import the emulators, not daemon (the daemon reads real boards)',
      `src/bridge/config/e.ts imports src/bridge/game/e.ts: infrastructure imports nothing of game ${ranks}`,
      `src/bridge/f.ts imports src/bridge/daemon/f.ts: infrastructure imports nothing of daemon ${ranks}`,
      `src/bridge/game/g.ts imports src/bridge/stages/g.ts: game imports nothing of stages ${ranks}`,
      `src/bridge/stages/h.ts imports src/bridge/daemon/h.ts: stages imports nothing of daemon ${ranks}`,
      `src/bridge/daemon/i.ts imports src/bridge/simulate/i.ts: daemon imports nothing of simulate ${ranks}`,
      `src/bridge/simulate/j.ts imports src/bridge/cli/j.ts: simulate imports nothing of cli ${ranks}`,
      'src/bridge/misc/k.ts imports src/bridge/logger.ts: src/bridge/misc/ has no rank in the bridge (test/architecture/importGraph.ts)',
    ]);
  });
});
