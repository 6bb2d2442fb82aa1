/**
 * A whole game as people play it on a sensor board with a clock: thinking, the move's handling
 * (gestures.ts), sometimes an adjustment of a piece by the player who just moved, the press after
 * the move (0.15–2.5 s later), blitz replies within a second of it and, now and then, a reply whose
 * first lift is sensed before the press, and a press forgotten (`forgetPress`). Without a clock there are no presses, only the pauses.
 * Returns the inputs for the supervisor and, per ply, when its handling began and ended and how it
 * was made, so a failure can be traced to the ply and the pattern.
 *
 *   const played = playGame(game, seededRng('carlsen.pgn:12:1'), defaultParams, { clock: true });
 *   runSupervision(state, played.inputs);
 */
import type { NormalMove } from 'chessops';
import { opposite } from 'chessops/util';
import { makeBoardFen } from 'chessops/fen';
import type { SupervisorInput } from '../../src/engine/events.js';
import type { Game } from '../../src/engine/game.js';
import { type MoveContext, makeMove } from './gestures.js';
import { shapeOf } from './moveShape.js';
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

/** Lifts a piece of `side`'s (the moved one, more often) and puts it back on its square. */
const adjust = (tl: Timeline, rng: Rng, game: Game, ply: number, tags: string[]): void => {
  const pos = game.positionAt(ply + 1);
  const mover = game.positionAt(ply).turn;
  const moved = game.moves[ply]?.move as NormalMove | undefined;
  const own = [...pos.board[mover]];
  const sq = moved && pos.board.get(moved.to)?.color === mover && rng.chance(0.6) ? moved.to : rng.pick(own);
  const piece = pos.board.get(sq);
  if (!piece) return;
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
    const off = after.findIndex((c, sq) => JSON.stringify(c) !== JSON.stringify(tl.at(sq)));
    if (off >= 0)
      throw new TypeError(
        `playGame: after ply ${i + 1} (${record.san}, ${tags.join('+')}) square ${off} is wrong`,
      );
    if (rng.chance(p.adjust)) adjust(tl, rng, game, i, tags);
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
    if (rng.chance(p.adjustAfterPress)) {
      adjust(tl, rng, game, i, tags);
      tags.push('after-press');
    }
  }
  const inputs = tl.finish(10000);
  return { inputs, plies, sensorEvents: inputs.filter(e => e.kind === 'square').length };
};
