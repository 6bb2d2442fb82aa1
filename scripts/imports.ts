/**
 * The import graph of src/: every import cycle between files, and every import that runs up a
 * layer (docs/architecture.md). Prints what it finds; exit code 1 when anything is found.
 * test/architecture/imports.test.ts runs the same check in `npm test`.
 *
 *   npx tsx scripts/imports.ts
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkImports, readImportGraph } from '../test/architecture/importGraph.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const graph = readImportGraph(root);
const { cycles, upward } = checkImports(graph);
console.log(`${graph.size} files in src/, ${[...graph.values()].reduce((n, s) => n + s.size, 0)} imports`);
for (const c of cycles) console.log(`cycle: ${c.join(' -> ')}`);
for (const u of upward) console.log(`upward: ${u}`);
if (cycles.length === 0 && upward.length === 0) console.log('no import cycle, no upward import');
process.exitCode = cycles.length + upward.length > 0 ? 1 : 0;
