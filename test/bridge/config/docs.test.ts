/**
 * docs/config.md against the schema: the field table between the markers is exactly what
 * `makeFieldTable` generates, so every field, default, variable and description is documented.
 * Regenerate after a schema change: UPDATE_DOCS=1 npx vitest run test/bridge/config/docs.test.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configFields, makeFieldTable } from '../../../src/bridge/config/fields.js';

const DOC = new URL('../../../docs/config.md', import.meta.url);
const START = '<!-- fields:start (generated from the schema; do not edit by hand) -->';
const END = '<!-- fields:end -->';

const section = (text: string): string => {
  const from = text.indexOf(START);
  const to = text.indexOf(END);
  if (from < 0 || to < from) throw new Error('docs/config.md lacks the field table markers');
  return text.slice(from + START.length, to).trim();
};

describe('docs/config.md', () => {
  const table = makeFieldTable(configFields());

  if (process.env.UPDATE_DOCS === '1') {
    const text = readFileSync(DOC, 'utf8');
    const from = text.indexOf(START) + START.length;
    writeFileSync(DOC, `${text.slice(0, from)}\n${table}\n${text.slice(text.indexOf(END))}`);
  }

  it('holds the field table generated from the schema', () => {
    expect(section(readFileSync(DOC, 'utf8'))).toBe(table);
  });

  it('names every schema field, with a description', () => {
    const text = readFileSync(DOC, 'utf8');
    const fields = configFields();
    expect(fields.length).toBeGreaterThan(40);
    for (const f of fields) {
      expect(f.description, f.path).not.toBe('');
      expect(text, f.path).toContain(`\`${f.path}\``);
      if (f.env !== undefined) expect(text, f.path).toContain(f.env);
    }
  });
});
