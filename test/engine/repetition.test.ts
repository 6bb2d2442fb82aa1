import { Chess, type Position, parseUci } from 'chessops';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { type KeyRules, type PositionKey, makePositionKey } from '../../src/engine/positionKey.js';
import {
  type FivefoldMode,
  RepetitionTable,
  firstFivefold,
  firstThreefold,
  fivefold,
  occurrencePlies,
  occurrencesByKey,
  threefoldAboutToAppear,
  threefoldHasAppeared,
} from '../../src/engine/repetition.js';

/** Positions of a game (ply 0 = start) played from SAN moves. */
const replay = (sans: string, fen?: string): Position[] => {
  const pos = fen ? Chess.fromSetup(parseFen(fen).unwrap()).unwrap() : Chess.default();
  const positions = [pos.clone()];
  for (const san of sans.split(/\s+/).filter(s => s.length > 0)) {
    const move = parseSan(pos, san);
    if (!move) throw new Error(`bad move ${san} in ${makeFen(pos.toSetup())}`);
    pos.play(move);
    positions.push(pos.clone());
  }
  return positions;
};
const keysOf = (positions: Position[], rules?: KeyRules): PositionKey[] =>
  positions.map(p => makePositionKey(p, rules));
const keysFor = (sans: string, fen?: string): PositionKey[] => keysOf(replay(sans, fen));

/** Reference §13.9: the knight shuffle K, 4 plies back to the initial position. */
const K = 'Nf3 Nf6 Ng1 Ng8';
/** Reference S83: an 8-ply detour that also returns to the initial position, but only at its end. */
const DETOUR = 'Nc3 Nc6 Nb5 Nb4 Nc3 Nc6 Nb1 Nb8';

describe('threefold repetition, has appeared (9.2 b)', () => {
  const cases: {
    source: string;
    sans: string;
    fen?: string;
    ply: number;
    plies: number[];
    holds: boolean;
  }[] = [
    // S75: K twice; the initial position for the 3rd time, White to move.
    { source: 'S75', sans: `${K} ${K}`, ply: 8, plies: [0, 4, 8], holds: true },
    // S78: after K once, only the 2nd occurrence.
    { source: 'S78', sans: K, ply: 4, plies: [0, 4], holds: false },
    // S79: the position after 2...d5 had e.p. (exd6); the same placement later without it is another position.
    {
      source: 'S79 (rejected)',
      sans: 'e4 Nc6 e5 d5 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1 Nc6',
      ply: 12,
      plies: [8, 12],
      holds: false,
    },
    {
      source: 'S79 (correct)',
      sans: 'e4 Nc6 e5 d5 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1 Nc6 Nf3 Nb8 Ng1 Nc6',
      ply: 16,
      plies: [8, 12, 16],
      holds: true,
    },
    // S80: the start position had castling rights; after the kings come back it is another position.
    {
      source: 'S80 (rejected)',
      sans: 'Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8',
      fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
      ply: 8,
      plies: [4, 8],
      holds: false,
    },
    {
      source: 'S80 (correct)',
      sans: 'Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8',
      fen: 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1',
      ply: 12,
      plies: [4, 8, 12],
      holds: true,
    },
    // 9.2: "not necessarily by repetition of moves": ply 8 of S83 is the position after 1.Nc3 Nc6 (ply 2), reached by other moves.
    { source: 'S83 detour, other moves', sans: `${K} ${DETOUR}`, ply: 10, plies: [6, 10], holds: false },
  ];

  it.each(cases)('$source: ply $ply appeared at $plies', ({ sans, fen, ply, plies, holds }) => {
    const keys = keysFor(sans, fen);
    expect(occurrencePlies(keys, ply)).toEqual(plies);
    expect(threefoldHasAppeared(keys, ply)).toBe(holds);
    expect(RepetitionTable.fromKeys(keys).threefoldHasAppeared(ply)).toBe(holds);
  });

  it.each([{ castling: 'permanent' }, { castling: 'temporaryOrPermanent' }] as KeyRules[])(
    'S80 gives the same answers under both castling readings ($castling)',
    rules => {
      const keys = keysOf(
        replay('Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8 Kf1 Kf8 Ke1 Ke8', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1'),
        rules,
      );
      // The position after 1.Kf1 Kf8 (no rights left) comes first: plies 2, 6, 10.
      expect(firstThreefold(keys)).toBe(10);
      expect(occurrencePlies(keys, 10)).toEqual([2, 6, 10]);
      expect(occurrencePlies(keys, 12)).toEqual([4, 8, 12]);
    },
  );

  it('finds the first ply a claim was possible', () => {
    // S75 played on: the first threefold is at ply 8, not before.
    expect(firstThreefold(keysFor(`${K} ${K} ${K}`))).toBe(8);
    expect(firstThreefold(keysFor(K))).toBeUndefined();
  });

  it('lists every position with its plies', () => {
    const byKey = occurrencesByKey(keysFor(`${K} ${K}`));
    expect(byKey.size).toBe(4);
    expect(byKey.get(makePositionKey(Chess.default()))).toEqual([0, 4, 8]);
    expect([...byKey.values()].map(p => p.length)).toEqual([3, 2, 2, 2]);
  });

  it('rejects a ply outside the game', () => {
    const keys = keysFor(K);
    expect(() => threefoldHasAppeared(keys, 5)).toThrow(RangeError);
    expect(() => threefoldHasAppeared(keys, -1)).toThrow(RangeError);
  });
});

describe('threefold repetition, about to appear (9.2 a)', () => {
  it('S76: Black writes Ng8 after 4.Ng1 and claims without playing it', () => {
    const positions = replay(`${K} Nf3 Nf6 Ng1`);
    const keys = keysOf(positions);
    const pos = positions[7]!;
    const r = threefoldAboutToAppear(keys, 7, pos, parseSan(pos, 'Ng8')!).unwrap();
    expect(r).toEqual({ key: keys[0], plies: [0, 4, 8], holds: true });
    expect(threefoldHasAppeared(keys, 7)).toBe(false); // not yet on the board
  });

  it('S78: White writes Nf3 after 2...Ng8 (2nd occurrence only): rejected', () => {
    const positions = replay(K);
    const pos = positions[4]!;
    const r = threefoldAboutToAppear(keysOf(positions), 4, pos, parseSan(pos, 'Nf3')!).unwrap();
    expect(r.holds).toBe(false);
    expect(r.plies).toEqual([1, 5]);
  });

  it('ignores keys after the claimed ply', () => {
    // A record that already runs further (the caller asks about an earlier ply) must not leak the future.
    const positions = replay(`${K} ${K}`);
    const pos = positions[3]!;
    const r = threefoldAboutToAppear(keysOf(positions), 3, pos, parseSan(pos, 'Ng8')!).unwrap();
    expect(r.plies).toEqual([0, 4]);
    expect(r.holds).toBe(false);
  });

  it('an illegal intended move is an error value', () => {
    const positions = replay(`${K} Nf3 Nf6 Ng1`);
    const r = threefoldAboutToAppear(keysOf(positions), 7, positions[7]!, parseUci('g8e7')!);
    expect(r.isErr && r.error.kind).toBe('illegalIntendedMove');
  });

  it('a position that is not the one at that ply is an error value', () => {
    const positions = replay(`${K} Nf3 Nf6 Ng1`);
    const keys = keysOf(positions);
    const r = threefoldAboutToAppear(keys, 7, positions[6]!, parseSan(positions[6]!, 'Ng1')!);
    expect(r.isErr && r.error).toMatchObject({
      kind: 'positionMismatch',
      ply: 7,
      expected: keys[7],
      actual: keys[6],
    });
  });
});

describe('fivefold repetition (9.6)', () => {
  const MODES: FivefoldMode[] = ['anyFive', 'consecutiveAlternate', 'none'];
  const cases: { source: string; sans: string; ply: number; expected: Record<FivefoldMode, boolean> }[] = [
    // S82: K four times: the initial position at plies 0, 4, 8, 12, 16.
    {
      source: 'S82 at 8...Ng8',
      sans: `${K} ${K} ${K} ${K}`,
      ply: 16,
      expected: { anyFive: true, consecutiveAlternate: true, none: false },
    },
    {
      source: 'S82 at 6...Ng8 (4th time)',
      sans: `${K} ${K} ${K} ${K}`,
      ply: 12,
      expected: { anyFive: false, consecutiveAlternate: false, none: false },
    },
    // S83: K, detour, K, K: plies 0, 4, 12, 16, 20: five times, not in one run.
    {
      source: 'S83',
      sans: `${K} ${DETOUR} ${K} ${K}`,
      ply: 20,
      expected: { anyFive: true, consecutiveAlternate: false, none: false },
    },
    // S83 played on (constructed): the run 12, 16, 20, 24 is four long; at 28 it is five.
    {
      source: 'S83 + K',
      sans: `${K} ${DETOUR} ${K} ${K} ${K}`,
      ply: 24,
      expected: { anyFive: true, consecutiveAlternate: false, none: false },
    },
    {
      source: 'S83 + K + K',
      sans: `${K} ${DETOUR} ${K} ${K} ${K} ${K}`,
      ply: 28,
      expected: { anyFive: true, consecutiveAlternate: true, none: false },
    },
  ];

  it.each(cases)('$source', ({ sans, ply, expected }) => {
    const keys = keysFor(sans);
    const table = RepetitionTable.fromKeys(keys);
    for (const mode of MODES) {
      expect(fivefold(keys, ply, mode), mode).toBe(expected[mode]);
      expect(table.fivefold(mode, ply), mode).toBe(expected[mode]);
    }
  });

  it('finds the ply at which the game ended', () => {
    const keys = keysFor(`${K} ${DETOUR} ${K} ${K} ${K} ${K}`);
    expect(firstFivefold(keys, 'anyFive')).toBe(20);
    expect(firstFivefold(keys, 'consecutiveAlternate')).toBe(28);
    expect(firstFivefold(keys, 'none')).toBeUndefined();
  });
});

describe('RepetitionTable', () => {
  const keys = keysFor(`${K} ${DETOUR} ${K} ${K} ${K} ${K}`);

  it('built one ply at a time, answers as the array functions do at every ply', () => {
    let table = RepetitionTable.empty();
    expect(table.lastPly).toBe(-1);
    for (const [ply, key] of keys.entries()) {
      table = table.add(key);
      expect(table.lastPly).toBe(ply);
      expect(table.occurrencesAt().plies).toEqual(occurrencePlies(keys, ply));
      expect(table.threefoldHasAppeared()).toBe(threefoldHasAppeared(keys, ply));
      expect(table.fivefold('anyFive')).toBe(fivefold(keys, ply, 'anyFive'));
      expect(table.fivefold('consecutiveAlternate')).toBe(fivefold(keys, ply, 'consecutiveAlternate'));
    }
    expect(table.keys()).toEqual(keys);
    expect(table.occurrencesByKey()).toEqual(occurrencesByKey(keys));
  });

  it('is immutable: adding to a table leaves it as it was', () => {
    const t4 = RepetitionTable.fromKeys(keys.slice(0, 5));
    const t5 = t4.add(keys[5]!);
    expect(t4.size).toBe(5);
    expect(t5.size).toBe(6);
    expect(t4.occurrencesOf(keys[0]!)).toEqual([0, 4]);
    t5.add(keys[6]!).add(keys[7]!).add(keys[8]!);
    expect(t4.keys()).toEqual(keys.slice(0, 5));
  });

  it('takeback then another move: the old line is untouched, the new one does not see it', () => {
    // S75 to ply 8, take back to ply 4, then 3.Nc3 instead of 3.Nf3.
    const full = RepetitionTable.fromKeys(keysFor(`${K} ${K}`));
    const back = full.truncate(4);
    expect(back.lastPly).toBe(4);
    expect(back.threefoldHasAppeared(4)).toBe(false);
    const other = keysFor(`${K} Nc3`)[5]!;
    const branched = back.add(other);
    expect(branched.keyAt(5)).toBe(other);
    expect(branched.occurrencesOf(keysFor('Nf3')[1]!)).toEqual([1]);
    // The first line still has its plies.
    expect(full.threefoldHasAppeared(8)).toBe(true);
    expect(full.occurrencesAt(8).plies).toEqual([0, 4, 8]);
    // Replaying the same moves after a takeback gives the same table.
    let again = full.truncate(2);
    for (const key of keysFor(`${K} ${K}`).slice(3)) again = again.add(key);
    expect(again.keys()).toEqual(full.keys());
    expect(again.occurrencesAt()).toEqual(full.occurrencesAt());
  });

  it('a table after a takeback does not see later occurrences', () => {
    const full = RepetitionTable.fromKeys(keysFor(`${K} ${K}`));
    expect(full.truncate(5).occurrencesOf(keysFor('')[0]!)).toEqual([0, 4]);
  });

  it('answers an about-to-appear claim from the key of the intended move', () => {
    // S76 again, through the table.
    const table = RepetitionTable.fromKeys(keysFor(`${K} Nf3 Nf6 Ng1`));
    const start = makePositionKey(Chess.default());
    expect(table.occurrencesIfAdded(start)).toEqual([0, 4, 8]);
    expect(table.threefoldAboutToAppear(start)).toBe(true);
    expect(table.truncate(3).threefoldAboutToAppear(start)).toBe(false);
  });

  it('rejects plies outside the table', () => {
    const table = RepetitionTable.fromKeys(keysFor(K));
    expect(() => table.keyAt(5)).toThrow(RangeError);
    expect(() => table.truncate(7)).toThrow(RangeError);
    expect(() => RepetitionTable.empty().occurrencesAt()).toThrow(RangeError);
  });
});
