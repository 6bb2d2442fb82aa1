/**
 * A whole game as people play it on a sensor board with a clock: thinking, the move's handling
 * (gestures.ts), sometimes an adjustment of a piece by the player who just moved, the press after
 * the move (0.15–2.5 s later), blitz replies within a second of it and, now and then, a reply whose
 * first lift is sensed before the press, a press forgotten (`forgetPress`), and a piece beside the
 * destination knocked over by the withdrawing hand (`knock`: lying, it is not sensed), set up again
 * before the press, after it, by the opponent before his reply or by its knocker at his next turn.
 * Without a clock there are no presses, only the pauses.
 * Returns the inputs for the supervisor and, per ply, when its handling began and ended and how it
 * was made, so a failure can be traced to the ply and the pattern.
 *
 *   const played = playGame(game, seededRng('carlsen.pgn:12:1'), defaultParams, { clock: true });
 *   runSupervision(state, played.inputs);
 */
import type { NormalMove, Piece, Square } from 'chessops';
import { opposite } from 'chessops/util';
import { makeBoardFen } from 'chessops/fen';
import type { SupervisorInput } from '../../src/engine/events.js';
import type { Game } from '../../src/engine/game.js';
import { type MoveContext, makeMove } from './gestures.js';
import { neighbours, shapeOf } from './moveShape.js';
import type { HandlingParams } from './params.js';
import type { Rng } from './rng.js';
import { Timeline, contentsOf } from './timeline.js';

/** One ply's handling: when it began and ended on the board, when it was pressed, how it was made. */
export interface PlyTrace {
  readonly ply: number;
  readonly san: string;
  readonly beganAt: number;
  readonly doneAt: number;
  /** When the mover's press is reported (none without a clock). */
  pressAt: number | undefined;
  readonly tags: string[];
}

export interface PlayedGame {
  readonly inputs: SupervisorInput[];
  readonly plies: PlyTrace[];
  /** Square changes reported (the sensor events). */
  readonly sensorEvents: number;
}

/** A piece knocked over and lying unsensed: who sets it up again, and before which ply's move. */
interface Knocked {
  readonly square: Square;
  readonly piece: Piece;
  readonly when: 'beforePress' | 'afterPress' | 'beforePly';
  /** For `beforePly`: the index of the ply before whose handling it is set up. */
  readonly ply: number;
  /** The trace's tag: `knock-before-press`, `knock-after-press`, `knock-by-opponent`, `knock-next-turn`. */
  readonly tag: string;
}

/** Does ply `i` of `game` change `square` (its mover's squares, a castling rook, an en passant victim)? */
const involves = (game: Game, i: number, square: Square): boolean => {
  const move = game.moves[i]?.move;
  if (!move || !('from' in move)) return true;
  const before = game.positionAt(i).board;
  const after = game.positionAt(i + 1).board;
  const a = before.get(square);
  const b = after.get(square);
  return move.from === square || move.to === square || a?.role !== b?.role || a?.color !== b?.color;
};

/** The hand withdrawing from ply `i` knocks over a piece beside its destination (not a king). */
const knockOver = (tl: Timeline, rng: Rng, p: HandlingParams, game: Game, i: number): Knocked | undefined => {
  const move = game.moves[i]?.move as NormalMove;
  const board = game.positionAt(i + 1).board;
  const near = neighbours(move.to).filter(sq => {
    const piece = board.get(sq);
    return piece !== undefined && piece.role !== 'king' && sq !== move.from && !tl.isEmpty(sq);
  });
  if (near.length === 0) return undefined;
  const square = rng.pick(near);
  const piece = board.get(square);
  if (!piece) return undefined;
  const kinds = [p.knockBeforePress, p.knockAfterPress, p.knockByOpponent, p.knockNextTurn];
  let kind = rng.weighted(kinds);
  // Set up at the knocker's next turn only when the reply leaves the square alone; on the last
  // plies, by the mover.
  if (kind === 3 && (i + 2 >= game.length || involves(game, i + 1, square))) kind = 2;
  if (kind === 2 && i + 1 >= game.length) kind = 1;
  tl.wait(rng.between(30, 300));
  tl.set(square, 'empty');
  const when = kind === 0 ? 'beforePress' : kind === 1 ? 'afterPress' : 'beforePly';
  const tag =
    ['knock-before-press', 'knock-after-press', 'knock-by-opponent', 'knock-next-turn'][kind] ?? 'knock';
  return { square, piece, when, ply: kind === 2 ? i + 1 : i + 2, tag };
};

/** Lifts a piece of `side`'s (the moved one, more often) and puts it back on its square. */
const adjust = (tl: Timeline, rng: Rng, game: Game, ply: number, tags: string[], lying?: Square): void => {
  const pos = game.positionAt(ply + 1);
  const mover = game.positionAt(ply).turn;
  const moved = game.moves[ply]?.move as NormalMove | undefined;
  const own = [...pos.board[mover]];
  const sq = moved && pos.board.get(moved.to)?.color === mover && rng.chance(0.6) ? moved.to : rng.pick(own);
  const piece = pos.board.get(sq);
  // A piece lying knocked over is not adjusted: it is set up when its time comes.
  if (!piece || sq === lying) return;
  tags.push(piece.role === 'king' ? 'adjust-king' : 'adjust');
  tl.wait(rng.between(200, 900));
  tl.set(sq, 'empty');
  tl.wait(rng.between(100, 500));
  tl.set(sq, piece);
};

export const playGame = (
  game: Game,
  rng: Rng,
  p: HandlingParams,
  opts: { readonly clock: boolean },
): PlayedGame => {
  const tl = new Timeline(contentsOf(game.positionAt(0).board));
  const plies: PlyTrace[] = [];
  const earlier = new Set<string>();
  tl.wait(rng.between(500, 3000));
  let quickReply = false;
  /** A press the clock reports only after the reply's first lift. */
  let latePress: PlyTrace | undefined;
  /** The last mover forgot to press: the next mover's press reports nothing. */
  let leverDown = false;
  /** A piece lying knocked over, not yet set up again. */
  let lying: Knocked | undefined;
  for (let i = 0; i < game.length; i++) {
    const pos = game.positionAt(i);
    earlier.add(makeBoardFen(pos.board));
    const record = game.moves[i];
    const move = record?.move;
    if (!record || !move || !('from' in move))
      throw new TypeError(`playGame: ply ${i + 1} is not a board move`);
    const shape = shapeOf(pos, move);
    if (!shape) throw new TypeError(`playGame: ply ${i + 1} (${record.san}) does not fit its position`);
    tl.wait(quickReply ? rng.between(100, 900) : rng.logBetween(p.thinkMs[0], p.thinkMs[1]));
    if (lying?.when === 'beforePly' && lying.ply === i) {
      // Set up again before this move: by the opponent of the knocker, or by the knocker himself.
      tl.set(lying.square, lying.piece);
      lying = undefined;
      tl.wait(rng.between(300, 1500));
    }
    const beganAt = tl.t;
    const ctx: MoveContext = { pos, earlier };
    const tags = makeMove(tl, rng, p, shape, ctx);
    if (latePress) {
      // The previous press, reported a moment after this move's first change, and before this
      // move's own press (a lever is a seesaw: the side whose clock is not running cannot press).
      tags.push('reply-before-press');
      latePress.pressAt = Math.min(beganAt + rng.between(30, 300), tl.t);
      tl.press(opposite(pos.turn), latePress.pressAt);
      latePress = undefined;
    }
    const doneAt = tl.t;
    const after = contentsOf(game.positionAt(i + 1).board);
    const off = after.findIndex(
      (c, sq) => sq !== lying?.square && JSON.stringify(c) !== JSON.stringify(tl.at(sq)),
    );
    if (off >= 0)
      throw new TypeError(
        `playGame: after ply ${i + 1} (${record.san}, ${tags.join('+')}) square ${off} is wrong`,
      );
    if (p.knock > 0 && !lying && rng.chance(p.knock)) {
      lying = knockOver(tl, rng, p, game, i);
      if (lying) tags.push(lying.tag);
      if (lying?.when === 'beforePress' || (lying?.when === 'afterPress' && !opts.clock)) {
        tl.wait(rng.between(200, 1500));
        tl.set(lying.square, lying.piece);
        lying = undefined;
      }
    }
    if (rng.chance(p.adjust)) adjust(tl, rng, game, i, tags, lying?.square);
    const trace: PlyTrace = { ply: i + 1, san: record.san, beganAt, doneAt, pressAt: undefined, tags };
    plies.push(trace);
    tl.wait(rng.logBetween(p.pressMs[0], p.pressMs[1]));
    quickReply = rng.chance(p.blitz);
    if (quickReply) tags.push('blitz-reply-next');
    if (opts.clock) {
      if (leverDown) {
        // The previous mover forgot: this mover's lever is down already, his press reports nothing.
        leverDown = false;
        tags.push('press-unreported');
      } else if (p.forgetPress > 0 && i + 1 < game.length && rng.chance(p.forgetPress)) {
        leverDown = true;
        tags.push('forgot-press');
      } else if (
        quickReply &&
        i + 1 < game.length &&
        rng.chance(p.replyBeforePress / Math.max(p.blitz, 1e-9))
      )
        latePress = trace;
      else {
        tl.press(pos.turn);
        trace.pressAt = tl.t;
      }
    }
    if (lying?.when === 'afterPress') {
      tl.wait(rng.between(300, 3000));
      tl.set(lying.square, lying.piece);
      lying = undefined;
    }
    if (rng.chance(p.adjustAfterPress)) {
      adjust(tl, rng, game, i, tags, lying?.square);
      tags.push('after-press');
    }
  }
  const inputs = tl.finish(10000);
  return { inputs, plies, sensorEvents: inputs.filter(e => e.kind === 'square').length };
};
