/**
 * Builders for the game lane's tests (and the daemon's): journal records of a board (square
 * observations, clock readings whose lever goes over at each press) from the handling generator's
 * board events, so a real game played with human handling can be fed to the game reducer as the
 * journal would hold it.
 *
 *   const records = recordsOfGame(['e4', 'e5', 'Nf3'], { seed: 3, t0: 1_000_000 });
 */
import { Chess } from 'chessops';
import { parseSan } from 'chessops/san';
import type { ClockFace, Observation, SquareContent } from '../../../src/drivers/observation.js';
import { generateHandling } from '../../../src/engine/handling/index.js';
import type { BoardEvent } from '../../../src/engine/recognition/boardEvent.js';
import type { JournalRecord } from '../../../src/bridge/journal/index.js';

export const face = (ms: number): ClockFace => ({
  ms,
  flagFallen: false,
  flagShown: false,
  timePerMove: false,
});

const contentOf = (p: BoardEvent & { kind: 'square' }): SquareContent =>
  p.piece === 'empty'
    ? { kind: 'empty' }
    : p.piece === 'occupied'
      ? { kind: 'occupied' }
      : { kind: 'piece', ...p.piece };

export const movesOf = (sans: readonly string[]) => {
  const pos = Chess.default();
  return sans.map(san => {
    const m = parseSan(pos, san);
    if (m === undefined) throw new Error(`illegal ${san}`);
    pos.play(m);
    return m;
  });
};

/** Observations of a game played with a clock: White sits left; each press flips the lever. */
export const observationsOfGame = (
  sans: readonly string[],
  options: { seed: number; t0: number; clockMs?: number },
): Observation[] => {
  const run = generateHandling(Chess.default(), movesOf(sans), {
    seed: options.seed,
    clock: 'press',
    tempo: 'blitz',
  });
  const clockMs = options.clockMs ?? 300_000;
  const out: Observation[] = [];
  const reading = (at: number, running: 'left' | 'right'): Observation => ({
    type: 'clock',
    at,
    connected: true,
    left: face(clockMs),
    right: face(clockMs),
    running,
    lever: running,
    batteryLow: false,
    status: 0,
  });
  out.push(reading(options.t0, 'left'));
  for (const e of run.events) {
    const at = options.t0 + 10 + e.at;
    if (e.kind === 'square') out.push({ type: 'square', at, square: e.square, content: contentOf(e) });
    else if (e.kind === 'press') out.push(reading(at, e.side === 'white' ? 'right' : 'left'));
  }
  return out;
};

/** The same as journal records (seq from 1, after a board_setup command). */
export const recordsOf = (observations: readonly Observation[], board = 'b1'): JournalRecord[] => [
  {
    seq: 1,
    wall: 0,
    type: 'command',
    at: observations[0]?.at ?? 0,
    action: 'board_setup',
    params: { board, clock: true, driver: 'dgt' },
    source: 'daemon',
  },
  ...observations.map((observation, i): JournalRecord => ({
    seq: i + 2,
    wall: 0,
    type: 'observation',
    board,
    observation,
  })),
];
