/**
 * The field tables of docs/wire.md, written from the wire's schema so the documentation cannot
 * drift from the code (scripts/wireDoc.ts writes them; a test compares).
 *
 *   const md = makeWireDocTables();   // '<!-- wire fields: begin -->\n### event: move\n| field | … '
 */
import { WIRE_CARRIERS } from './document.js';
import { WIRE_SCHEMAS, type WireName } from './schema.js';

export const WIRE_DOC_BEGIN = '<!-- wire fields: begin (written by scripts/wireDoc.ts) -->';
export const WIRE_DOC_END = '<!-- wire fields: end -->';

interface Json {
  readonly type?: string;
  readonly const?: unknown;
  readonly anyOf?: readonly Json[];
  readonly items?: Json;
  readonly properties?: Readonly<Record<string, Json>>;
  readonly required?: readonly string[];
  readonly patternProperties?: Readonly<Record<string, Json>>;
  readonly description?: string;
}

const plain = (schema: unknown): Json => JSON.parse(JSON.stringify(schema)) as Json;

/** A type in a few words: `"move"`, `integer`, `"white" or "black" or null`, `array of string`. */
const typeText = (s: Json): string => {
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.anyOf) return s.anyOf.map(typeText).join(' or ');
  if (s.type === 'array') return `array of ${s.items ? typeText(s.items) : 'any'}`;
  if (s.type === 'object') return s.properties ? 'object (below)' : 'object';
  return s.type ?? 'any';
};

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The rows of an object's fields, nested objects as `parent.child`. */
const rows = (s: Json, prefix = ''): string[] => {
  const required = new Set(s.required ?? []);
  const out: string[] = [];
  for (const [key, field] of Object.entries(s.properties ?? {})) {
    const name = `${prefix}${key}`;
    const optional = required.has(key) ? '' : ' (optional)';
    out.push(`| \`${name}\` | ${cell(typeText(field))}${optional} | ${cell(field.description ?? '')} |`);
    const inner =
      field.anyOf?.find(m => m.type === 'object' && m.properties) ?? (field.properties ? field : undefined);
    if (inner) out.push(...rows(inner, `${name}.`));
    const items = field.items?.type === 'object' && field.items.properties ? field.items : undefined;
    if (items) out.push(...rows(items, `${name}[].`));
  }
  return out;
};

const table = (s: Json): string[] => ['| field | type | description |', '|---|---|---|', ...rows(s)];

/** The generated section of docs/wire.md, markers included. */
export const makeWireDocTables = (): string => {
  const out: string[] = [WIRE_DOC_BEGIN, ''];
  for (const name of Object.keys(WIRE_SCHEMAS) as WireName[]) {
    const s = plain(WIRE_SCHEMAS[name]);
    out.push(`### ${name}`, '', `${s.description ?? ''} Carried on: ${WIRE_CARRIERS[name]}.`, '');
    if (s.anyOf) {
      for (const member of s.anyOf) {
        const type = member.properties?.type?.const;
        out.push(`#### ${name}: ${String(type)}`, '', member.description ?? '', '', ...table(member), '');
      }
    } else if (s.type === 'array' && s.items) out.push('An array of:', '', ...table(s.items), '');
    else out.push(...table(s), '');
  }
  out.push(WIRE_DOC_END);
  return out.join('\n');
};
