/**
 * Every board script under test/scenarios (one per scenario of the reference §13, some with
 * variants) runs under each edition it names and must produce exactly its expected events; each
 * also reads back identically after printing.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScript, printScript, runScript } from '../../src/engine/script/index.js';
import { PROJECT_ROOT } from '../support/shared.js';

const DIR = join(PROJECT_ROOT, 'test', 'scenarios');

const scripts = (dir: string): string[] =>
  readdirSync(dir)
    .sort()
    .flatMap(name => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return scripts(path);
      return name.endsWith('.cbs') ? [path] : [];
    });

const FILES = scripts(DIR);

/** The §13 scenario ids the file names cover ('s41-s42-...' covers two). */
const idsOf = (file: string): number[] => [...file.matchAll(/s(\d{2,3})(?=[-b-z])/g)].map(m => Number(m[1]));

describe('board scripts of the reference §13', () => {
  it('cover every scenario S01-S100', () => {
    const covered = new Set(FILES.flatMap(f => idsOf(f.split('/').pop() ?? '')));
    const missing = Array.from({ length: 100 }, (_, i) => i + 1).filter(id => !covered.has(id));
    expect(missing).toEqual([]);
  });

  it.each(FILES.map(f => [relative(DIR, f), f]))('%s', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    const script = parseScript(text, relative(DIR, file)).unwrap();
    expect(script.expected.length).toBeGreaterThan(0);
    const failures = runScript(script).flatMap(r => r.failures);
    expect(failures).toEqual([]);
    const again = parseScript(printScript(script), script.file).unwrap();
    expect(again.inputs.map(i => i.input)).toEqual(script.inputs.map(i => i.input));
    expect(again.expected.map(e => [e.editions, e.tokens, e.detail])).toEqual(
      script.expected.map(e => [e.editions, e.tokens, e.detail]),
    );
    expect(again.header).toEqual(script.header);
  });
});
