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
import type { GameEvent } from '../../src/engine/events.js';
import { TEXT_PARAMS } from '../../src/engine/texts.js';
import { detailText } from '../../src/bridge/i18n/messages.js';
import { makeEventMessage } from '../../src/bridge/wire/events.js';
import { checkWire } from '../../src/bridge/wire/schema.js';

/**
 * Every detail also given as data: the event on the wire (its `text` included) is valid, and its
 * sentences in the English catalog say what the English `detail` says (docs/i18n.md).
 */
const detailProblems = (events: readonly GameEvent[]): string[] =>
  events.flatMap(e => {
    if (e.type !== 'alert' && e.type !== 'finding' && e.type !== 'claim') return [];
    if (e.detail === undefined) return [];
    if (e.text === undefined) return [`${e.type} ${e.seq}: no text for "${e.detail}"`];
    const wire = checkWire('event', makeEventMessage(e)).map(p => `${e.type} ${e.seq}: ${p}`);
    const params = e.text
      .filter(x => Object.keys(x.params).sort().join() !== [...TEXT_PARAMS[x.key]].sort().join())
      .map(x => `${e.type} ${e.seq}: ${x.key} carries ${Object.keys(x.params).join(', ')}`);
    const en = detailText('en', e.text);
    return en === e.detail
      ? [...wire, ...params]
      : [...wire, ...params, `${e.type} ${e.seq}: "${en}" is not "${e.detail}"`];
  });

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
    const runs = runScript(script);
    expect(runs.flatMap(r => r.failures)).toEqual([]);
    expect(runs.flatMap(r => detailProblems(r.events))).toEqual([]);
    const again = parseScript(printScript(script), script.file).unwrap();
    expect(again.inputs.map(i => i.input)).toEqual(script.inputs.map(i => i.input));
    expect(again.expected.map(e => [e.editions, e.tokens, e.detail])).toEqual(
      script.expected.map(e => [e.editions, e.tokens, e.detail]),
    );
    expect(again.header).toEqual(script.header);
  });
});
