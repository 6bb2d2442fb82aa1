/**
 * The human-handling generator: reproducible from its seed, shaped like a sensor stream, and
 * reproducing the frequencies measured on real serial captures (reference dgt-protocol.md §5.5:
 * 25/35 direct replacements, 7/35 captured piece first, 3/35 lift-remove-place, 5/35 ghosts,
 * 8/157 quiet moves with intermediate stops, castling mostly king first).
 */
import { readFileSync } from 'node:fs';
import { Chess, parseSquare } from 'chessops';
import { parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import type { Game } from '../../../src/engine/game.js';
import {
  type HandlingStats,
  addStats,
  deriveSeed,
  emptyStats,
  factsOf,
  generateForGame,
  makeRng,
} from '../../../src/engine/handling/index.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { sharedPath } from '../../support/shared.js';
import { gameOf } from '../recognition/support.js';

const sq = (name: string): number => parseSquare(name) ?? -1;

const SAMPLE: readonly Game[] = readPgn(decodePgnBytes(readFileSync(sharedPath('data/pgn/twic0920.pgn'))))
  .slice(0, 240)
  .flatMap(r => (r.isOk ? [r.value.game] : []));

describe('seeded generator', () => {
  const game = gameOf(undefined, 'e4 e5 Nf3 Nc6 Bb5 a6 Bxc6 dxc6 O-O f6 d4 exd4 Nxd4 c5');

  it('the same seed gives the same stream; another seed another one', () => {
    const a = generateForGame(game, { seed: 11 });
    const b = generateForGame(game, { seed: 11 });
    const c = generateForGame(game, { seed: 12 });
    expect(b.events).toEqual(a.events);
    expect(c.events).not.toEqual(a.events);
  });

  it('events are in time order and end with a tick after the last move', () => {
    const { events } = generateForGame(game, { seed: 3 });
    for (let i = 1; i < events.length; i++) expect(events[i]!.at).toBeGreaterThanOrEqual(events[i - 1]!.at);
    expect(events[events.length - 1]?.kind).toBe('tick');
  });

  it('with a clock, every move is followed by its mover pressing; without, no press at all', () => {
    const pressed = generateForGame(game, { seed: 5, clock: 'press' });
    const sides = pressed.events.flatMap(e => (e.kind === 'press' ? [e.side] : []));
    expect(sides).toEqual(game.moves.map((_, i) => (i % 2 === 0 ? 'white' : 'black')));
    const none = generateForGame(game, { seed: 5, clock: 'none' });
    expect(none.events.some(e => e.kind === 'press')).toBe(false);
  });

  it('occupancy-only boards report no identities', () => {
    const { events } = generateForGame(game, { seed: 9, occupancy: true });
    const contents = events.flatMap(e => (e.kind === 'square' ? [e.piece] : []));
    expect(contents.every(c => c === 'empty' || c === 'occupied')).toBe(true);
  });

  it('the PRNG covers its range and is reproducible', () => {
    const a = makeRng(42);
    const b = makeRng(42);
    const rolls = Array.from({ length: 600 }, () => a.int(1, 6));
    expect(Array.from({ length: 600 }, () => b.int(1, 6))).toEqual(rolls);
    for (let face = 1; face <= 6; face++) expect(rolls.filter(r => r === face).length).toBeGreaterThan(70);
    expect(deriveSeed(1, 1)).not.toBe(deriveSeed(1, 2));
  });
});

describe('frequencies of §5.5 over a sample of real games', () => {
  const stats: HandlingStats = SAMPLE.reduce(
    (acc, g, i) => addStats(acc, generateForGame(g, { seed: deriveSeed(7, i) }).stats),
    emptyStats(),
  );
  const share = (n: number, d: number): number => n / d;

  it.each([
    // [what, measured, target (§5.5), tolerance]
    ['direct replacement of captures', share(stats.captureDirect, stats.captures), 25 / 35, 0.03],
    ['captured piece removed first', share(stats.captureVictimFirst, stats.captures), 7 / 35, 0.03],
    [
      'capturer lifted, captured removed, capturer placed',
      share(stats.captureLiftRemovePlace, stats.captures),
      3 / 35,
      0.02,
    ],
    ['ghosts of carried-away pieces', share(stats.ghosts, stats.captures), 5 / 35, 0.03],
    ['quiet moves with intermediate stops', share(stats.stops + stats.slides, stats.quiet), 8 / 157, 0.02],
    ['stops that are legal moves', share(stats.legalStops, stats.stops + stats.captureStops), 9 / 11, 0.1],
    [
      'castling rook first (not seen in §5.5: "sometimes")',
      share(stats.castlingRookFirst, stats.castlings),
      0.15,
      0.05,
    ],
    ['sensor updates per ply (2.28 observed)', share(stats.sensorEvents, stats.plies), 2.28, 0.25],
  ] as const)('%s', (_what, measured, target, tolerance) => {
    expect(Math.abs(measured - target)).toBeLessThanOrEqual(tolerance);
  });

  it('every pattern occurs', () => {
    const seen: (keyof HandlingStats)[] = [
      'placeBeforeLift',
      'slides',
      'captureStops',
      'promotionPawnFirst',
      'enPassantVictimFirst',
      'enPassantLiftRemovePlace',
      'adjustments',
      'announcedAdjustments',
      'knockOvers',
      'flickers',
      'repliesInWindow',
    ];
    for (const key of seen) expect(stats[key], key).toBeGreaterThan(0);
    expect(stats.promotions - stats.promotionPawnFirst).toBeGreaterThan(0);
    expect(stats.enPassant - stats.enPassantVictimFirst - stats.enPassantLiftRemovePlace).toBeGreaterThan(0);
  });
});

describe('move facts', () => {
  const pos = (fen?: string): Chess =>
    fen ? Chess.fromSetup(parseFen(fen).unwrap()).unwrap() : Chess.default();
  const facts = (san: string, fen?: string) => {
    const p = pos(fen);
    const move = parseSan(p, san);
    if (!move || !('from' in move)) throw new Error(`bad move ${san}`);
    return factsOf(p, move);
  };

  it('a double step passes d3, a legal stop (§5.5 d2–d3–d4)', () => {
    const f = facts('d4');
    expect([f.kind, f.passing, f.legalStops]).toEqual(['quiet', [sq('d3')], [sq('d3')]]);
  });

  it('castling names the king square and the rook move', () => {
    const f = facts('O-O-O', 'r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1');
    expect([f.kind, f.to, f.rook]).toEqual(['castling', sq('c1'), { from: sq('a1'), to: sq('d1') }]);
  });

  it('en passant captures beside the destination', () => {
    const f = facts('exd6', 'rnbqkbnr/1pp1pppp/p7/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3');
    expect([f.kind, f.captured?.square]).toEqual(['enPassant', sq('d5')]);
  });

  it('a promotion with capture keeps its role and victim', () => {
    const f = facts('axb8=N', '1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1');
    expect([f.kind, f.promotion, f.captured?.piece.role]).toEqual(['capture', 'knight', 'rook']);
  });
});
