/**
 * The human-handling generator: turns a game (moves from a position) into the board events a
 * sensor board would report while people play it, seeded so every stream can be reproduced. It
 * follows the frequencies of real play (rates.ts), presses the clock after each move (or not, for
 * games without a clock), lets blitz replies land within one settle window, and jitters every gap.
 *
 *   const { events, stats } = generateHandling(Chess.default(), moves, { seed: 7 });
 *   const r = runRecognition(startRecognition(Game.standard()), events);   // the same moves back
 */
import type { Chess, Move } from 'chessops';
import type { Game } from '../game.js';
import { type BoardEvent, isSensorEvent } from '../recognition/boardEvent.js';
import { MIN_REPLY_MS, makeHands } from './hands.js';
import { factsOf } from './moveFacts.js';
import { type HandlingStats, adjustBefore, afterMove, emptyStats, makeMove } from './patterns.js';
import { makeRng } from './prng.js';
import { DEFAULT_RATES, type HandlingRates, TEMPOS, type Tempo } from './rates.js';

export interface HandlingOptions {
  readonly seed: number;
  /** 'press': a clock press after every move; 'none': a game without a clock. Default: drawn from the seed (80 % with a clock). */
  readonly clock?: 'press' | 'none';
  /** Default: drawn from the seed. */
  readonly tempo?: Tempo;
  /** Report occupancy only (boards without piece recognition). */
  readonly occupancy?: boolean;
  /** The recogniser's settle window the timing respects (ms, default 300). */
  readonly settleMs?: number;
  readonly rates?: Partial<HandlingRates>;
  /** Time of the first event's reference point (ms, default 0). */
  readonly startAt?: number;
  /** Quiet time after the last move before the closing tick (ms, default 5000). */
  readonly tailMs?: number;
  /** How long stops on the way rest (ms, default 300–2000: see hands.ts). */
  readonly dwellMs?: readonly [number, number];
}

export interface HandlingRun {
  readonly events: BoardEvent[];
  readonly stats: HandlingStats;
  readonly clock: 'press' | 'none';
  readonly tempo: Tempo;
}

const TEMPO_LIST: readonly Tempo[] = ['classical', 'rapid', 'blitz'];

/** Events for `moves` played from `start` (which is not modified). */
export const generateHandling = (
  start: Chess,
  moves: readonly Move[],
  options: HandlingOptions,
): HandlingRun => {
  const rng = makeRng(options.seed);
  const tempo = options.tempo ?? rng.pick(TEMPO_LIST) ?? 'rapid';
  const clock = options.clock ?? (rng.chance(0.8) ? 'press' : 'none');
  const settleMs = options.settleMs ?? 300;
  const rates: HandlingRates = { ...DEFAULT_RATES, ...options.rates };
  const profile = TEMPOS[tempo];
  const pos = start.clone();
  const hands = makeHands(
    rng,
    pos.board.clone(),
    {
      settleMs,
      occupancy: options.occupancy ?? false,
      tempo: profile,
      rates,
      ...(options.dwellMs ? { dwellMs: options.dwellMs } : {}),
    },
    options.startAt ?? 0,
  );
  const stats = emptyStats();
  // A thinking pause always leaves the board quiet for longer than the settle window.
  const think = (): number => Math.max(rng.int(profile.thinkMs[0], profile.thinkMs[1]), settleMs + 60);
  let chained = false;
  moves.forEach((move, i) => {
    if (!('from' in move)) throw new RangeError('generateHandling: drop moves are not chess moves');
    const facts = factsOf(pos, move);
    // Blitz: the reply starts within one settle window (no clock) or one clock tick of the press;
    // at most two plies land between quiet moments, as observed (§5.5).
    if (i > 0 && !chained && rng.chance(profile.replyInWindow)) {
      hands.wait(
        clock === 'press' ? rng.int(0, 900) : rng.int(MIN_REPLY_MS, Math.max(MIN_REPLY_MS, settleMs - 60)),
      );
      stats.repliesInWindow++;
      chained = clock === 'none';
    } else {
      hands.wait(think());
      chained = false;
    }
    adjustBefore(hands, facts, stats);
    makeMove(hands, facts, stats);
    afterMove(hands, facts, stats);
    if (clock === 'press') {
      hands.press(facts.color, rng.int(profile.pressMs[0], profile.pressMs[1]));
      stats.presses++;
    }
    pos.play(move);
  });
  hands.wait(options.tailMs ?? 5000);
  const events: BoardEvent[] = [...hands.events, { kind: 'tick', at: hands.now() }];
  stats.sensorEvents = hands.events.filter(isSensorEvent).length;
  return { events, stats, clock, tempo };
};

/** Events for the moves of a game record, played from its start. */
export const generateForGame = (game: Game, options: HandlingOptions): HandlingRun =>
  generateHandling(
    game.positionAt(0),
    game.moves.map(m => m.move),
    options,
  );
