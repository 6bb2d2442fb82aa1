/**
 * The building blocks of the wire's schemas (schema.ts, httpSchema.ts): closed objects, string
 * unions, nullable values, and the values every document shares (a side, a ply, a time, a result).
 *
 *   const Side = nullable(Color);   // "white", "black" or null
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { WIRE_ALERT_CODES } from './words.js';

export const closed = { additionalProperties: false } as const;

export const oneOf = (values: readonly string[], description: string) =>
  Type.Union(
    values.map(v => Type.Literal(v)),
    { description },
  );
export const nullable = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);

export const Color = oneOf(['white', 'black'], 'A side.');
export const Ms = Type.Integer({ description: 'Milliseconds.' });
export const At = Type.Number({
  description: 'When, in milliseconds since the Unix epoch (the daemon clock).',
});
export const Ply = Type.Integer({
  minimum: 0,
  description: '1-based ply: 1 is White’s first move (0: the start).',
});
export const Result = oneOf(['1-0', '0-1', '1/2-1/2', '0-0', '*'], 'The result (0-0: both players lose).');
export const Grade = oneOf(
  ['proven', 'possible'],
  'How sure a finding is: proven (the board shows it) or possible (inferred from timing).',
);
export const AlertCode = oneOf(WIRE_ALERT_CODES, 'What the alert is about (docs/supervisor.md).');
export const PgnTermination = oneOf(
  [
    'abandoned',
    'adjudication',
    'death',
    'emergency',
    'normal',
    'rules infraction',
    'time forfeit',
    'unterminated',
  ],
  'The PGN Termination tag (PGN standard §9.8.1).',
);
