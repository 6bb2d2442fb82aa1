import { describe, expect, it } from 'vitest';
import {
  bodyOf,
  isGameId,
  makeHeaderLine,
  makeRecordLine,
  makeWalLine,
  parseHeader,
  parseRecord,
  parseWalLine,
  type JournalEntry,
  type JournalHeader,
} from '../../../src/bridge/journal/format.js';

const header: JournalHeader = {
  type: 'header',
  format: 2,
  seq: 0,
  game: 'open-r1-b3',
  board: 'b3',
  createdAt: '2025-03-01T10:00:00.000Z',
  settings: {
    edition: 'E23',
    gameType: 'rapid',
    supervision: 'reduced',
    timeControl: '15+10',
    startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    pairing: { round: 1, board: 3, white: { name: 'A', fideId: 1 }, black: { name: 'B' } },
  },
};

describe('lines', () => {
  it('puts the stamp first and keeps every field of the entry', () => {
    const entry: JournalEntry = {
      type: 'command',
      at: 12,
      action: 'restore',
      params: { ply: 4 },
      source: 'cli',
    };
    const line = makeRecordLine(7, 1000, bodyOf(entry));
    expect(line).toBe(
      '{"seq":7,"wall":1000,"type":"command","at":12,"action":"restore","params":{"ply":4},"source":"cli"}\n',
    );
    expect(parseRecord(JSON.parse(line)).unwrap()).toEqual({ ...entry, seq: 7, wall: 1000 });
  });

  it('wraps a record with its game in the write-ahead log', () => {
    const line = makeRecordLine(1, 5, bodyOf({ type: 'finish', at: 9, result: '1-0', reason: 'checkmate' }));
    const wal = makeWalLine('g-1', line);
    expect(wal.endsWith('}\n')).toBe(true);
    expect(wal.split('\n')).toHaveLength(2);
    expect(parseWalLine(JSON.parse(wal)).unwrap()).toEqual({
      game: 'g-1',
      record: { seq: 1, wall: 5, type: 'finish', at: 9, result: '1-0', reason: 'checkmate' },
    });
  });

  it('round-trips the header', () => {
    expect(parseHeader(JSON.parse(makeHeaderLine(header))).unwrap()).toEqual(header);
  });

  it('refuses values JSON cannot hold, at append time', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => bodyOf({ type: 'command', at: 1, action: 'x', params: cyclic as never })).toThrow(TypeError);
    expect(() => bodyOf({ type: 'command', at: 1, action: 'x', params: { n: 1n } as never })).toThrow(
      TypeError,
    );
  });
});

describe('validation of what is read', () => {
  const line = JSON.parse(makeHeaderLine(header)) as Record<string, unknown> & { settings: object };
  it.each([
    [{ ...line, format: 3 }, /format 3: this chessbridge reads formats 1 and 2/],
    [{ ...line, format: '2' }, /\/format/],
    [{ ...line, game: '../x' }, /\/game/],
    [{ ...line, settings: { ...line.settings, edition: 'E22' } }, /\/settings\/edition/],
    [{ ...line, settings: { ...line.settings, game_type: undefined } }, /\/settings\/game_type/],
    [{ ...line, type: 'record' }, /\/type/],
    [{ ...header, format: 1, game: '../x' }, /\/game/],
  ])('refuses a bad header (%#)', (value, message) => {
    const r = parseHeader(value);
    expect(r.isErr).toBe(true);
    if (r.isErr) expect(r.error.message).toMatch(message);
  });

  it.each([
    { seq: 0, wall: 1, type: 'finish', at: 1, result: '*', reason: 'x' },
    { seq: 1, wall: 1, type: 'observation', board: 'b', observation: { at: 1 } },
    { seq: 1, wall: 1, type: 'teleport' },
    { seq: 1.5, wall: 1, type: 'finish', at: 1, result: '*', reason: 'x' },
    { wall: 1, type: 'command', at: 1, action: 'a', params: null },
  ])('refuses a bad record (%#)', value => {
    expect(parseRecord(value).isErr).toBe(true);
  });

  it('refuses a write-ahead line without its game', () => {
    expect(parseWalLine({ record: {} }).isErr).toBe(true);
    expect(parseWalLine({ game: 3, record: {} }).isErr).toBe(true);
  });
});

describe('game ids', () => {
  it.each(['g1', 'city-open_r1-b12', 'A'.repeat(128)])('accepts %s', id => expect(isGameId(id)).toBe(true));
  it.each(['', '-x', '../etc', 'a/b', 'a.b', 'a b', 'A'.repeat(129), 'ü'])('refuses %j', id =>
    expect(isGameId(id)).toBe(false),
  );
});
