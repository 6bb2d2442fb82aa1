import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_DIR } from '../../../src/bridge/web/paths.js';
import type { TSchema } from '@sinclair/typebox';
import {
  LANGUAGES,
  alertText,
  catalog,
  claimText,
  detailText,
  endText,
  localSan,
  offerText,
  slotsOf,
  t,
} from '../../../src/bridge/i18n/messages.js';
import { AlertEvent, ClaimEvent, EndEvent, OfferEvent } from '../../../src/bridge/wire/schema.js';
import { Sentence } from '../../../src/bridge/wire/textSchema.js';
import { WIRE_ALERT_CODES, WIRE_END_REASONS } from '../../../src/bridge/wire/words.js';
import { TextParamsSchema } from '../../../src/bridge/wire/textSchema.js';
import { TEXT_PARAMS } from '../../../src/engine/texts.js';
import { REFUSAL_PARAMS, REFUSAL_PROBLEMS } from '../../../src/bridge/wire/refusals.js';

/** The literal values of a `oneOf` field of a schema. */
const valuesOf = (schema: TSchema, field: string): string[] =>
  (
    (schema as unknown as { properties: Record<string, { anyOf: { const: string }[] }> }).properties[field]
      ?.anyOf ?? []
  ).map(s => s.const);
const fieldsOf = (schema: TSchema): string[] =>
  Object.keys((schema as unknown as { properties: Record<string, TSchema> }).properties);
const evidenceFields = (): string[] => {
  const ev = (AlertEvent as unknown as { properties: { evidence: { anyOf: TSchema[] } } }).properties
    .evidence;
  return ev.anyOf.flatMap(s => ('properties' in s ? fieldsOf(s) : []));
};

/** Every text of the contract a person reads, with the fields of the event it may name. */
const contract = (): { key: string; fields: string[] }[] => [
  ...WIRE_ALERT_CODES.map(code => ({ key: `alert.${code}`, fields: fieldsOf(AlertEvent) })),
  ...['alert.by', 'alert.squares', 'alert.move'].map(key => ({
    key,
    fields: [...fieldsOf(AlertEvent), ...evidenceFields()],
  })),
  ...valuesOf(ClaimEvent, 'claim').map(c => ({ key: `claim.${c}`, fields: fieldsOf(ClaimEvent) })),
  ...valuesOf(ClaimEvent, 'status').map(s => ({ key: `claim.status.${s}`, fields: fieldsOf(ClaimEvent) })),
  ...valuesOf(OfferEvent, 'status').map(s => ({ key: `offer.status.${s}`, fields: fieldsOf(OfferEvent) })),
  ...WIRE_END_REASONS.map(r => ({ key: `end.${r}`, fields: fieldsOf(EndEvent) })),
  { key: 'end.line', fields: fieldsOf(EndEvent) },
  // Every sentence of a detail (`text`), with the parameters it carries.
  ...Object.entries(TEXT_PARAMS).map(([key, params]) => ({ key: `detail.${key}`, fields: [...params] })),
  // Every refusal of a request, with the parameters it carries (wire/refusals.ts).
  ...Object.entries(REFUSAL_PARAMS).map(([code, params]) => ({
    key: `refusal.${code}`,
    fields: [...params],
  })),
  // What a refusal's `problem` names (a pairings line's fault, a pairing that does not fit).
  ...REFUSAL_PROBLEMS.map(problem => ({ key: `refusal.problem.${problem}`, fields: ['value'] })),
];

describe('message catalogs', () => {
  it('lists English and Spanish', () => {
    expect(Object.keys(LANGUAGES)).toEqual(expect.arrayContaining(['en', 'es']));
  });

  it('render every alert code, claim, offer and end reason of the contract in every language, naming only fields the event carries', () => {
    const problems: string[] = [];
    const items = contract();
    expect(items.length).toBeGreaterThan(50);
    for (const lang of Object.keys(LANGUAGES))
      for (const { key, fields } of items) {
        const m = catalog(lang)[key];
        if (m === undefined) problems.push(`${lang}: no ${key}`);
        else
          for (const slot of slotsOf(m))
            if (!fields.includes(slot)) problems.push(`${lang}: ${key} names {${slot}}`);
      }
    expect(problems).toEqual([]);
  });

  it('know every sentence of the contract, and the schema every parameter a sentence carries', () => {
    const keys = valuesOf(Sentence, 'key');
    expect(keys.sort()).toEqual(Object.keys(TEXT_PARAMS).sort());
    const named = fieldsOf(TextParamsSchema);
    expect(
      Object.values(TEXT_PARAMS)
        .flat()
        .filter(p => !named.includes(p)),
    ).toEqual([]);
    // And no key of a catalog's details is one the contract lacks.
    const stray = Object.keys(catalog('en'))
      .filter(k => k.startsWith('detail.') && !k.startsWith('detail.withdrawn.'))
      .filter(k => !(k.slice('detail.'.length) in TEXT_PARAMS));
    expect(stray).toEqual([]);
  });

  it('have every key the pages use (data-i18n attributes, t(…) calls with a literal key)', () => {
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap(d =>
        d.isDirectory() ? files(join(dir, d.name)) : /\.(html|js)$/.test(d.name) ? [join(dir, d.name)] : [],
      );
    const used = new Set<string>();
    for (const file of files(WEB_DIR)) {
      // Comments (the usage examples) are not the page's text.
      const text = readFileSync(file, 'utf8')
        .split('\n')
        .filter(line => !/^\s*(\/\/|\*)/.test(line))
        .join('\n');
      for (const m of text.matchAll(/data-i18n(?:-label|-title|-placeholder)?="([^"]+)"/g)) used.add(m[1]!);
      for (const m of text.matchAll(/\bt\('([\w.]+)'/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(80);
    // Every page is read, the boards page (console/boards.html and boards.js) among them.
    expect([...used].filter(key => key.startsWith('boards.')).length).toBeGreaterThan(50);
    for (const lang of Object.keys(LANGUAGES))
      expect(
        [...used].filter(key => catalog(lang)[key] === undefined),
        lang,
      ).toEqual([]);
  });

  it('have the same keys and the same slots in every language', () => {
    const en = catalog('en');
    for (const lang of Object.keys(LANGUAGES)) {
      const other = catalog(lang);
      expect(Object.keys(other).sort(), lang).toEqual(Object.keys(en).sort());
      for (const [key, m] of Object.entries(en))
        expect(slotsOf(other[key]!).sort(), `${lang} ${key}`).toEqual(slotsOf(m).sort());
    }
  });

  it('gives a Spanish text that differs from the English one for every event text', () => {
    const same = contract()
      .filter(({ key }) => !['alert.by'].includes(key))
      .filter(({ key }) => JSON.stringify(catalog('es')[key]) === JSON.stringify(catalog('en')[key]));
    expect(same).toEqual([]);
  });

  it('renders events from their fields, with plurals and numbers by locale', () => {
    expect(
      alertText('es', { code: 'touch_move', color: 'white', ply: 5, evidence: { squares: ['a2', 'g1'] } }),
    ).toBe('Pieza tocada que no se movió o no se capturó · Blancas · jugada 5 · casillas a2, g1');
    expect(alertText('en', { code: 'board_missing', color: null, ply: null, evidence: null })).toBe(
      'Link to the board lost',
    );
    expect(claimText('es', { by: 'black', claim: 'threefold', status: 'pending' })).toBe(
      'Negras reclaman tablas por triple repetición; decide el árbitro',
    );
    expect(offerText('en', { by: 'white', status: 'made' })).toBe('White offers a draw');
    expect(endText('es', 'flag')).toBe('pérdida por tiempo');
    expect(
      detailText('es', [
        { key: 'touch.own', params: { color: 'white', piece: 'pawn', square: 'a2', from: 'g1' } },
        { key: 'touch.on_request', params: {} },
      ]),
    ).toBe(
      'Blancas tocaron primero el peón de a2, que podía moverse, pero movieron la pieza de g1. El árbitro solo decide si un jugador lo pide.',
    );
    expect(
      detailText('es', [
        {
          key: 'touch.no_legal_move',
          params: {
            touched: [
              { piece: 'rook', square: 'a1' },
              { piece: 'knight', square: 'b1' },
            ],
          },
        },
        { key: 'board.inferred', params: { from_ply: 3, to_ply: 4, moves: ['Nf3', 'Nc6'] } },
      ]),
    ).toMatch(
      /^Lo tocado \(la torre de a1 y el caballo de b1\) no puede.* Las jugadas 3-4 \(Cf3 Cc6\) se dedujeron/,
    );
    expect(detailText('en', [{ key: 'displaced.restore', params: { squares: ['d1', 'e1', 'f1'] } }])).toBe(
      'Pieces displaced on d1, e1, and f1: the player who displaced them restores them on his own time.',
    );
    expect(t('en', 'plies', { plies: 1 })).toBe('1 ply');
    expect(t('es', 'plies', { plies: 1234 })).toBe('1234 jugadas');
    expect(t('en', 'plies', { plies: 1234 })).toBe('1,234 plies');
  });

  it('writes moves with the language’s piece letters, SAN unchanged in English', () => {
    expect(['Nf3', 'Qxd8+', 'e8=Q#', 'O-O', 'Kxe2', 'Bb5'].map(s => localSan('es', s))).toEqual([
      'Cf3',
      'Dxd8+',
      'e8=D#',
      'O-O',
      'Rxe2',
      'Ab5',
    ]);
    expect(localSan('en', 'Nf3')).toBe('Nf3');
  });
});
