/**
 * Writes the field tables of docs/wire.md from the wire's schema (src/bridge/wire/schema.ts), and
 * docs/schema/wire.schema.json from `chessbridge schema`. A test (test/bridge/wire/docs.test.ts)
 * fails when either is out of date; run this to bring them up to date.
 *
 *   npx tsx scripts/wireDoc.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeWireDocTables, WIRE_DOC_BEGIN, WIRE_DOC_END } from '../src/bridge/wire/docTables.js';
import { makeWireSchemaDocument } from '../src/bridge/wire/document.js';

const root = resolve(fileURLToPath(import.meta.url), '../..');
const docPath = join(root, 'docs/wire.md');
const doc = readFileSync(docPath, 'utf8');
const begin = doc.indexOf(WIRE_DOC_BEGIN);
const end = doc.indexOf(WIRE_DOC_END);
if (begin < 0 || end < begin) throw new Error(`${docPath}: no ${WIRE_DOC_BEGIN} … ${WIRE_DOC_END} section`);
writeFileSync(docPath, doc.slice(0, begin) + makeWireDocTables() + doc.slice(end + WIRE_DOC_END.length));
writeFileSync(
  join(root, 'docs/schema/wire.schema.json'),
  `${JSON.stringify(makeWireSchemaDocument(), null, 2)}\n`,
);
console.log('docs/wire.md and docs/schema/wire.schema.json written');
