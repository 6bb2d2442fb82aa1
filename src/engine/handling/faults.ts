/**
 * Fault injection for the human-handling generator: the game is played as people play it (with a
 * clock press after each move), and on chosen plies something goes wrong: an illegal move is
 * pressed and then set right, another own piece is touched before the move (touch-move), the link
 * drops while two moves are played, the players take two moves back and play them again, and the
 * game ends with a result gesture where a king stood next to the centre. Each fault lists what the
 * supervisor must report for it (the alert code and the topic of its article, or the correction or
 * the end), so a test can check that it is reported, and that nothing else is.
 *
 *   const run = injectFaults(game, { seed: 7 });
 *   run.faults[0];   // { kind: 'touchMove', ply: 12, reports: [{ type: 'alert', code: 'touch-move', topic: 'touchMoveOwn' }, ...] }
 *   superviseAll(run.inputs);   // the alerts of each fault, and nothing else
 *   stepsOfEvents(run.played, …); // what an emulated board plays (the lost link's moves too)
 */
import type { Chess, Color, Move, NormalMove } from 'chessops';
import type { ArticleTopic } from '../editions.js';
import type { AlertCode, SupervisorInput } from '../events.js';
import type { Game } from '../game.js';
import { contentsOfBoard } from '../recognition/boardEvent.js';
import {
  castleRookFirst,
  gesture,
  illegalAttempt,
  illegalTarget,
  otherMovable,
  restoreBoard,
} from './faultActions.js';
import { FAULT_KINDS, type FaultKind, plan } from './faultPlan.js';
import { makeHands } from './hands.js';
import { factsOf } from './moveFacts.js';
import { adjustBefore, afterMove, emptyStats, makeMove } from './patterns.js';
import { makeRng } from './prng.js';
import { DEFAULT_RATES, type HandlingRates, TEMPOS, type Tempo } from './rates.js';

export { BREACH_KINDS, FAULT_KINDS, type FaultKind } from './faultPlan.js';

/** Something the supervisor must publish for a fault. */
export type FaultReport =
  | {
      readonly type: 'alert';
      readonly code: AlertCode;
      readonly topic: ArticleTopic;
      readonly optional?: boolean;
    }
  | {
      readonly type: 'correction';
      readonly reason: 'takeback' | 'gesture' | 'arbiter';
      readonly optional?: boolean;
    }
  | { readonly type: 'end'; readonly result: '1-0' | '0-1' | '1/2-1/2'; readonly reason: 'gesture' };

export interface Fault {
  readonly kind: FaultKind;
  /** The ply (1-based) the fault comes before (the gesture: the game's length + 1). */
  readonly ply: number;
  readonly by: Color;
  readonly reports: readonly FaultReport[];
}

export interface FaultOptions {
  readonly seed: number;
  /** Kinds to inject (default: all); each at most once per game. */
  readonly kinds?: readonly FaultKind[];
  readonly tempo?: Tempo;
  /** The recogniser's settle window (ms, default 300). */
  readonly settleMs?: number;
  readonly rates?: Partial<HandlingRates>;
  /** How long stops on the way rest (ms; default hands.ts DEFAULT_DWELL_MS). */
  readonly dwellMs?: readonly [number, number];
  /** How long the players leave a taken-back position before playing on (ms; default TAKEBACK_STANDS_MS). */
  readonly standsMs?: number;
}

export interface FaultRun {
  /** What the supervisor receives: the events of a lost link's moves left out, a snapshot when it is back. */
  readonly inputs: SupervisorInput[];
  /**
   * What is done at the board, for an emulator to play: every board event (the moves made while
   * the link is lost included) and the link's loss and return, no snapshot (the board sends it).
   */
  readonly played: SupervisorInput[];
  readonly faults: readonly Fault[];
}

/** Rook-first castling is itself an Art. 4 breach (4.4.2): the baseline handling avoids it. */
const CLEAN: Partial<HandlingRates> = { castlingRookFirst: 0 };

/** How long the players leave a taken-back position before playing on (over the recogniser's confirmMs). */
export const TAKEBACK_STANDS_MS = 4500;

/** Plays `game` with faults injected. */
export const injectFaults = (game: Game, options: FaultOptions): FaultRun => {
  const rng = makeRng(options.seed);
  const tempo = options.tempo ?? rng.pick(['classical', 'rapid', 'blitz'] as const) ?? 'rapid';
  const settleMs = options.settleMs ?? 300;
  const rates: HandlingRates = { ...DEFAULT_RATES, ...CLEAN, ...options.rates };
  const profile = TEMPOS[tempo];
  const start = game.positionAt(0);
  const h = makeHands(
    rng,
    start.board.clone(),
    {
      settleMs,
      occupancy: false,
      tempo: profile,
      rates,
      ...(options.dwellMs === undefined ? {} : { dwellMs: options.dwellMs }),
    },
    0,
  );
  const stats = emptyStats();
  const think = (): number => Math.max(rng.int(profile.thinkMs[0], profile.thinkMs[1]), settleMs + 60);
  const kinds = options.kinds ?? FAULT_KINDS;
  const { plies } = plan(game, kinds, rng);
  const faults: Fault[] = [];
  const extra: { readonly index: number; readonly input: SupervisorInput }[] = [];
  const dropped = new Set<number>();
  const positions = game.positionsView();
  const moves = game.moves.map(m => m.move);

  const play = (pos: Chess, move: Move): void => {
    if (!('from' in move)) throw new RangeError('injectFaults: drop moves are not chess moves');
    const f = factsOf(pos, move);
    adjustBefore(h, f, stats);
    makeMove(h, f, stats);
    afterMove(h, f, stats);
    h.press(f.color, rng.int(profile.pressMs[0], profile.pressMs[1]));
  };

  let i = 0;
  while (i < moves.length) {
    const move = moves[i] as NormalMove;
    const pos = (positions[i] as Chess).clone();
    const f = factsOf(pos, move);
    const kind = plies.get(i);
    h.wait(think());
    switch (kind) {
      case 'illegalMove': {
        const target = illegalTarget(pos, f.from, rng);
        if (target !== undefined) {
          illegalAttempt(h, f, target);
          faults.push({
            kind,
            ply: i + 1,
            by: f.color,
            reports: [
              // Pressed within the quiet time: the press judges it (no alert while it may be moving).
              { type: 'alert', code: 'illegal-position', topic: 'illegalMove', optional: true },
              { type: 'alert', code: 'illegal-move', topic: 'illegalMove' },
            ],
          });
          h.wait(think());
        }
        play(pos, move);
        i++;
        break;
      }
      case 'touchMove': {
        const other = otherMovable(pos, f, rng);
        if (other !== undefined) {
          const piece = h.take(other, 0);
          if (piece) h.put(other, piece, rng.int(150, 600));
          h.wait(h.pause());
          faults.push({
            kind,
            ply: i + 1,
            by: f.color,
            reports: [
              { type: 'alert', code: 'touch-move', topic: 'touchMoveOwn' },
              // The opponent then touches a piece: the right to claim is gone (4.8).
              { type: 'alert', code: 'touch-move', topic: 'article4ClaimLost', optional: true },
            ],
          });
        }
        play(pos, move);
        i++;
        break;
      }
      case 'missedUpdate': {
        extra.push({ index: h.events.length, input: { kind: 'link', at: h.now(), state: 'lost' } });
        const first = h.events.length;
        play(pos, move);
        h.wait(think());
        play(positions[i + 1] as Chess, moves[i + 1] as Move);
        for (let k = first; k < h.events.length; k++) dropped.add(k);
        h.wait(rng.int(200, 1500));
        extra.push({ index: h.events.length, input: { kind: 'link', at: h.now(), state: 'back' } });
        extra.push({
          index: h.events.length,
          input: { kind: 'snapshot', at: h.now(), board: contentsOfBoard(h.board) },
        });
        faults.push({
          kind,
          ply: i + 1,
          by: f.color,
          reports: [{ type: 'alert', code: 'board-missing', topic: 'stopClocks' }],
        });
        i += 2;
        break;
      }
      case 'takeback': {
        play(pos, move);
        h.wait(think());
        play(positions[i + 1] as Chess, moves[i + 1] as Move);
        h.wait(think());
        restoreBoard(h, pos);
        // The earlier position stands (a stop on the way could show it for a moment, never for long).
        h.wait((options.standsMs ?? TAKEBACK_STANDS_MS) + rng.int(200, 2000));
        faults.push({
          kind,
          ply: i + 1,
          by: f.color,
          reports: [
            { type: 'correction', reason: 'takeback' },
            { type: 'alert', code: 'board-mismatch', topic: 'displacedFoundLater' },
          ],
        });
        // The same two moves are played again.
        h.wait(think());
        play(pos, move);
        h.wait(think());
        play(positions[i + 1] as Chess, moves[i + 1] as Move);
        i += 2;
        break;
      }
      case 'rookFirst': {
        // The rook is touched first, then the king: castling stands, a breach of 4.4.2. No
        // adjustment first (lifting the king and putting it back would touch the king first).
        castleRookFirst(h, f);
        h.press(f.color, rng.int(profile.pressMs[0], profile.pressMs[1]));
        faults.push({
          kind,
          ply: i + 1,
          by: f.color,
          reports: [
            { type: 'alert', code: 'castling-order', topic: 'castlingRookFirst' },
            { type: 'alert', code: 'castling-order', topic: 'article4ClaimLost', optional: true },
          ],
        });
        i++;
        break;
      }
      case 'kingCapture': {
        // The player having the move takes the opponent's king off and presses; then puts it back.
        const square = pos.board.kingOf(f.color === 'white' ? 'black' : 'white');
        const king = square === undefined ? undefined : h.take(square, 0);
        if (square !== undefined && king) {
          h.wait(h.options.settleMs + rng.int(100, 600));
          h.press(f.color, rng.int(100, 600));
          h.put(square, king, rng.int(400, 1500));
          h.wait(h.options.settleMs + rng.int(200, 900));
          faults.push({
            kind,
            ply: i + 1,
            by: f.color,
            reports: [{ type: 'alert', code: 'king-capture', topic: 'kingCapture' }],
          });
          h.wait(think());
        }
        play(pos, move);
        i++;
        break;
      }
      case 'illegalAfterRestore': {
        // Two moves, then the arbiter restores the position before them; the players set it up,
        // and the player having the move presses an illegal move before the right one.
        play(pos, move);
        h.wait(think());
        play(positions[i + 1] as Chess, moves[i + 1] as Move);
        h.wait(think());
        extra.push({
          index: h.events.length,
          input: { kind: 'arbiter', at: h.now(), action: { type: 'restore', ply: i } },
        });
        h.wait(rng.int(1500, 4000));
        restoreBoard(h, pos);
        h.wait(think());
        const target = illegalTarget(pos, f.from, rng);
        if (target !== undefined) illegalAttempt(h, f, target);
        faults.push({
          kind,
          ply: i + 1,
          by: f.color,
          reports: [
            { type: 'correction', reason: 'arbiter' },
            // While the pieces are set up, the board is a mismatch for the arbiter (then withdrawn).
            { type: 'alert', code: 'board-mismatch', topic: 'displacedFoundLater', optional: true },
            ...(target === undefined
              ? []
              : [
                  { type: 'alert', code: 'illegal-position', topic: 'illegalMove', optional: true } as const,
                  { type: 'alert', code: 'illegal-move', topic: 'illegalMove' } as const,
                ]),
          ],
        });
        h.wait(think());
        play(pos, move);
        h.wait(think());
        play(positions[i + 1] as Chess, moves[i + 1] as Move);
        i += 2;
        break;
      }
      case 'gesture':
      case undefined:
        play(pos, move);
        i++;
        break;
    }
  }
  if (kinds.includes('gesture')) {
    const last = positions[game.length] as Chess;
    const result = rng.pick(['1-0', '0-1', '1/2-1/2'] as const) ?? '1/2-1/2';
    h.wait(think());
    gesture(h, last, result);
    faults.push({
      kind: 'gesture',
      ply: game.length + 1,
      by: last.turn,
      reports: [
        { type: 'correction', reason: 'gesture', optional: true },
        { type: 'end', result, reason: 'gesture' },
      ],
    });
  }
  h.wait(5000);
  const merge = (seen: boolean): SupervisorInput[] => {
    const out: SupervisorInput[] = [];
    const extras = seen ? extra : extra.filter(x => x.input.kind !== 'snapshot');
    let next = 0;
    h.events.forEach((e, k) => {
      while (extras[next] && (extras[next]?.index ?? 0) <= k)
        out.push((extras[next++] as { input: SupervisorInput }).input);
      if (!seen || !dropped.has(k)) out.push(e);
    });
    while (extras[next]) out.push((extras[next++] as { input: SupervisorInput }).input);
    out.push({ kind: 'tick', at: h.now() });
    return out;
  };
  return { inputs: merge(true), played: merge(false), faults };
};
