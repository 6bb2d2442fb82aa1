/**
 * Plies inferred from a snapshot after a gap, then contradicted by the board: the record stays
 * the arbiter's to check, and nothing the board does afterwards is judged as an illegal move.
 *
 * Found by the supervision corpus with a 5 s downtime and no board log (engine-threefold-
 * repetition.pgn, game 6, seed 1): the cut came while a rook rested on c6 on its way to c3; the
 * catch-up built on that reading (…Rc6, a5, …Rc3) and left White to move where Black was. Black's
 * next press was a board mismatch, but White's move after it was taken as the "next move seen
 * made", the inference was dropped, and two later presses were counted as illegal moves: the
 * game was ended by 7.5.5, which a downtime must never do.
 *
 * A ply read while its piece rested on the way, when the link went down, is no ply of the record
 * once the board comes back without it (lichess-2013-01-sample.pgn, game 6, seed 1): the bishop
 * was resting on b5 on its way from c6 to a4 when the input was cut, and …Bb5 was published. The
 * board came back with …Ba4, Rd2 and …Rb8 made. The catch-up preferred the published tip and
 * offered the arbiter "Rd2 Ba4 Rd1 Rb8 Rd2" (a rook back and forth) after …Bb5; with a longer gap
 * (nothing within reach) …Bb5 stayed in the record. Nobody pressed for it: it is withdrawn.
 *
 * A ply seen made before the gap, read away by the catch-up (twic0920.pgn, game 11, seed 1, 15 s,
 * a game without a clock): 32. Rc1 was seen made 3.5 s before the cut, not yet final. Seven plies
 * later (…Bxa4 Bxa4 Rxa4 Rff1 Kd7 Ra1 Rxa1) the board came back. The search from Rc1 ran out of
 * nodes before it found them; the one from before Rc1 found another seven (Ra1 Bxa4 Bxa4 Rxa1
 * Bd7 Kxd7 Rf1), published as a correction, and nobody was asked to check it: the arbiter's
 * finding was raised for plies published as moves only. Now a search from the tip cut short with
 * nothing found does not let an earlier root read the seen ply away (the board is the arbiter's),
 * and plies read off a re-read board as a correction are inferred like those published as moves
 * (test/engine/supervisor/downtimeUnproven.test.ts).
 *
 * A game that ended while nobody watched with a king on a centre square
 * (fide-womens-world-rapid-2024.pgn, game 6, seed 1, 60 s): the board came back at the final
 * position, White's king on e4, 31 plies past the record. Read as the first half of a result
 * gesture, it waited for the other king for ever: the record stopped at ply 64 and the arbiter was
 * never told. A re-read board that has stood beyond reach is the arbiter's, king on e4 or not. The
 * same board with time passing every second after it came back (ticks, clock readings) was still
 * lost: looked at before it had stood, it was taken as a move in progress and not looked at again.
 * It now waits as unsettled until it has stood.
 *
 * A board changing when the link went (twic1256.pgn, game 16, seed 1, 15 s): 16. Rxd1 was being
 * made, the rook set down on d1 and the queen it took put down on d2 for a moment, when the input
 * was cut. When the board came back, that board, left 49 ms after its last change, was judged as
 * if it had stood: a board mismatch (unreachable, a black queen on d2) dated before the gap, then
 * the re-read board's own mismatch with its three orders. Two mismatches open, the first for
 * nothing. The quiet spell of a board nobody saw stand starts when it is seen again.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { SupervisorInput } from '../../../src/engine/events.js';
import { withDowntime } from '../../../src/engine/handling/downtime.js';
import { generateForGame } from '../../../src/engine/handling/generator.js';
import { deriveSeed, makeRng } from '../../../src/engine/handling/prng.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';
import { sharedPath } from '../../support/shared.js';

const SEED = 1;

/**
 * The text up to the start of game `n + 1` (each game opening with its Event tag), so that only the
 * games before it are parsed; the whole text when there are not that many.
 */
const throughGame = (text: string, n: number): string => {
  let at = 0;
  for (let k = 0; k < n; k++) {
    at = text.indexOf('\n[Event ', at + 1);
    if (at < 0) return text;
  }
  return text.slice(0, at + 1);
};

/** Game `INDEX` of `FILE` (numbered as the reader numbers the whole file). */
const gameOf = (FILE: string, INDEX: number) => {
  const text = decodePgnBytes(readFileSync(sharedPath(FILE)));
  // The prefix first (a large file is read in seconds); the whole file if the game is not in it.
  for (const source of [throughGame(text, INDEX), text])
    for (const r of readPgn(source)) if (r.isOk && r.value.index === INDEX) return r.value.game;
  return undefined;
};

/** Game `INDEX` of `FILE` cut for `downMs` from a ply in its middle third, as the corpus script cuts it. */
/** `ticks`: time also passes every second after the gap, as the daemon's ticks and clock readings pass it. */
const runWithDowntime = (FILE: string, INDEX: number, downMs: number, ticks = false) => {
  const game = gameOf(FILE, INDEX);
  if (game === undefined) throw new Error(`${FILE} has no game ${INDEX}`);
  const run = generateForGame(game, { seed: deriveSeed(SEED, INDEX), rates: { castlingRookFirst: 0 } });
  const rng = makeRng(deriveSeed(SEED, INDEX ^ 0x5eed));
  const ats = run.events.flatMap(e => (e.kind === 'press' || e.kind === 'square' ? [e.at] : []));
  const from = ats[Math.floor(ats.length / 3) + rng.int(0, Math.floor(ats.length / 3))] ?? 0;
  const cut = withDowntime(run.events, game.positionAt(0).board, { from, ms: downMs, log: false });
  const { state } = startSupervision(
    { game: 'g', edition: 'E23', gameType: 'standard', supervision: 'full', startFen: game.start.fen },
    { game: game.truncate(0).unwrap() },
  );
  const until = from + downMs;
  const extra: SupervisorInput[] = ticks
    ? Array.from({ length: 10 }, (_, k) => ({ kind: 'tick', at: until + 1000 * (k + 1) }))
    : [];
  // Stable: an input at the same time as a tick comes first.
  const inputs = [...cut.inputs, ...extra].sort((a, b) => a.at - b.at);
  return { events: runSupervision(state, inputs).events, sans: game.moves.map(m => m.san) };
};

describe('plies inferred from a snapshot, contradicted by the next press', () => {
  it('counts no illegal move and ends nothing; the mismatch goes to the arbiter', () => {
    const { events } = runWithDowntime('data/pgn/engine-threefold-repetition.pgn', 6, 5000);
    const codes = events.flatMap(e => (e.type === 'alert' ? [e.code] : []));
    expect(events.some(e => e.type === 'finding' && e.code === 'arbiter-decision-needed')).toBe(true);
    expect(codes).toContain('board-mismatch');
    expect(codes).not.toContain('illegal-move');
    expect(codes).not.toContain('press-without-move');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});

describe('a ply read from a piece resting on its way when the link went down', () => {
  const FILE = 'data/pgn/lichess-2013-01-sample.pgn';

  it('is withdrawn when the board comes back without it; the orders that reach the board start before it', () => {
    const { events, sans } = runWithDowntime(FILE, 6, 5000);
    // Published while the bishop rested on b5, then withdrawn at the catch-up.
    expect(events.some(e => e.type === 'move' && e.ply === 42 && e.san === 'Bb5')).toBe(true);
    expect(events).toContainEqual(expect.objectContaining({ type: 'correction', fromPly: 42, moves: [] }));
    const record = publishedSans(events);
    expect(record).toEqual(sans.slice(0, record.length));
    expect(record.length).toBe(41);
    const mismatch = events.find(
      e => e.type === 'alert' && e.code === 'board-mismatch' && e.evidence?.orders,
    );
    expect(mismatch?.type === 'alert' && mismatch.evidence?.ordersAfterPly).toBe(41);
    expect(mismatch?.type === 'alert' && mismatch.evidence?.orders).toContainEqual(['Ba4', 'Rd2', 'Rb8']);
    const codes = events.flatMap(e => (e.type === 'alert' ? [e.code] : []));
    expect(codes).not.toContain('illegal-move');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });

  it('is withdrawn too when the board is beyond the catch-up: the record keeps only what was pressed for', () => {
    const { events, sans } = runWithDowntime(FILE, 6, 30_000);
    const record = publishedSans(events);
    expect(record).toEqual(sans.slice(0, 41));
    expect(events.flatMap(e => (e.type === 'alert' ? [e.code] : []))).toContain('board-mismatch');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});

describe('a ply seen made before the gap when the search from it runs out of nodes', () => {
  it('is not read away by a path from before it: the board is the arbiter’s, one mismatch', () => {
    const { events, sans } = runWithDowntime('data/pgn/twic0920.pgn', 11, 15_000);
    expect(events.some(e => e.type === 'move' && e.ply === 63 && e.san === sans[62])).toBe(true);
    // No other line in place of Rc1 after the gap (a correction may only withdraw the plies nobody
    // pressed for).
    const lostAt = events.find(e => e.type === 'alert' && e.code === 'board-missing')?.at ?? 0;
    const after = events.filter(e => e.type === 'correction' && e.at >= lostAt);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter(e => e.type === 'correction' && e.moves.length > 0)).toEqual([]);
    const record = publishedSans(events);
    expect(record).toEqual(sans.slice(0, record.length));
    expect(events.filter(e => e.type === 'alert' && e.code === 'board-mismatch')).toHaveLength(1);
    const codes = events.flatMap(e => (e.type === 'alert' ? [e.code] : []));
    expect(codes).not.toContain('illegal-move');
    expect(codes).not.toContain('press-without-move');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});

describe('a game ended meanwhile with a king on a centre square', () => {
  it.each([
    ['nothing else', false],
    ['time passing every second (before, a tick before it had stood left it in progress for ever)', true],
  ])('is one board mismatch for the arbiter once the re-read board has stood, with %s', (_, ticks) => {
    const { events, sans } = runWithDowntime('data/pgn/fide-womens-world-rapid-2024.pgn', 6, 60_000, ticks);
    const record = publishedSans(events);
    expect(record).toEqual(sans.slice(0, record.length));
    expect(record.length).toBeLessThan(sans.length);
    const mismatches = events.filter(e => e.type === 'alert' && e.code === 'board-mismatch');
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toMatchObject({ text: [{ key: 'board.differs_unreachable' }] });
    const codes = events.flatMap(e => (e.type === 'alert' ? [e.code] : []));
    expect(codes).not.toContain('illegal-move');
    expect(events.filter(e => e.type === 'end')).toEqual([]);
  });
});

describe('a board changing when the link went', () => {
  it('is not judged as it was left: one board mismatch, with the orders, once the board is seen again', () => {
    const { events, sans } = runWithDowntime('data/pgn/twic1256.pgn', 16, 15_000);
    const lost = events.find(e => e.type === 'alert' && e.code === 'board-missing');
    const mismatches = events.filter(e => e.type === 'alert' && e.code === 'board-mismatch');
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]!.at).toBeGreaterThan(lost?.at ?? Infinity);
    expect(mismatches[0]?.type === 'alert' && mismatches[0].evidence?.orders).toContainEqual(
      sans.slice(30, 34),
    );
    const record = publishedSans(events);
    expect(record).toEqual(sans.slice(0, 30));
    expect(events.flatMap(e => (e.type === 'alert' ? [e.code] : []))).not.toContain('illegal-move');
  });
});
