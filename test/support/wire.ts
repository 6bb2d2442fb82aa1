/**
 * Messages of the wire for tests, valid by the schema (src/bridge/wire/schema.ts), and a check
 * that names the field when one is not.
 *
 *   publisher.publishEvent(clockEvent('g1', 3));
 *   assertWire('event', JSON.parse(payload), 'chessbridge/games/g1/events');
 */
import { type WireName, checkWire } from '../../src/bridge/wire/schema.js';
import type { EventMessage } from '../../src/bridge/wire/schema.js';

/** A clock reading event: the smallest valid game event, for tests of the transport. */
export const clockEvent = (game: string, seq: number, at = seq): EventMessage => ({
  game,
  seq,
  at,
  type: 'clock',
  clocks: { white_ms: 60_000, black_ms: 60_000, running: null, at },
});

/** Throws an error naming every field of `value` the schema `name` refuses. */
export const assertWire = (name: WireName, value: unknown, where: string): void => {
  const problems = checkWire(name, value);
  if (problems.length > 0)
    throw new Error(
      `${where}: not a valid ${name} message: ${problems.join('; ')} in ${JSON.stringify(value)}`,
    );
};

/**
 * Throws an error naming the line and field of a game file (its text) the journal's schema
 * refuses: line 1 a `journal_header`, every further line a `journal_record`.
 */
export const assertJournalText = (text: string, where: string): void => {
  const lines = text.split('\n').filter(l => l !== '');
  lines.forEach((line, i) =>
    assertWire(i === 0 ? 'journal_header' : 'journal_record', JSON.parse(line), `${where}:${i + 1}`),
  );
};
