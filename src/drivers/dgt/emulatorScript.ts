/**
 * Scripts for the DGT board emulator: timed board events and faults, and a generator that turns
 * a game's moves (SAN) into the lift and place events a person makes at the board, following the
 * habits measured in real captures (reference §5.5): quiet moves and captures as lift then place
 * (a capture replaces the captured piece directly), castling king first then rook, en passant with
 * the captured pawn removed last, promotion by placing the new piece.
 *
 *   const game = scriptFromSans(['e4', 'e5', 'Nf3'], { plyMs: 200, pressAfterMs: 60 }).unwrap();
 *   runner.play(game.steps); // 'square' and 'clock-press' steps
 *   game.final; // the 64 square contents after the last move (game frame)
 */
import { Result } from '@badrap/result';
import { Chess, type Piece, type Role, type Square } from 'chessops';
import { parseSan } from 'chessops/san';
import type { ClockSide, SquareContent } from '../observation.js';
import { EMPTY, makePiece } from '../observation.js';
import type { BoardEvent, PieceLetter } from './emulator.js';

/** Misbehaviour of the line or the board, injected by the emulator runner. */
export type Fault =
  /** Bytes that belong to no message (default: `count` random 7-bit bytes, which resynchronise at once). */
  | { readonly kind: 'garbage'; readonly bytes?: readonly number[]; readonly count?: number }
  /** The next `count` field updates are not sent (the board still changes). */
  | { readonly kind: 'drop-updates'; readonly count: number }
  /** Cut every later write into pieces: of `size` bytes, at random places, or not at all. */
  | { readonly kind: 'split'; readonly pieces: number | 'random' | 'off' }
  /** Pull the cable for `forMs` (script time), then plug it back. */
  | { readonly kind: 'disconnect'; readonly forMs: number };

/** One scripted step: at `at` ms of script time, an event or a fault (`board` = bus address). */
export type ScriptStep = { readonly at: number; readonly board?: number } & (BoardEvent | Fault);

export type FaultKind = Fault['kind'];

export const isFault = (s: BoardEvent | Fault): s is Fault =>
  s.kind === 'garbage' || s.kind === 'drop-updates' || s.kind === 'split' || s.kind === 'disconnect';

const ROLE_LETTER: Readonly<Record<Role, string>> = {
  pawn: 'p',
  knight: 'n',
  bishop: 'b',
  rook: 'r',
  queen: 'q',
  king: 'k',
};

export const letterOf = (p: Piece): PieceLetter => {
  const l = ROLE_LETTER[p.role];
  return (p.color === 'white' ? l.toUpperCase() : l) as PieceLetter;
};

export interface MovesScriptOptions {
  /** Script time of the first event; default 0. */
  readonly startAt?: number;
  /** Time from a lift to the matching place; default 40 ms. */
  readonly handMs?: number;
  /** Time from one ply's first event to the next ply's; default 200 ms. */
  readonly plyMs?: number;
  /** When set, the mover presses the clock this long after the ply's last event. */
  readonly pressAfterMs?: number;
  /** The clock side White sits at; default 'left'. */
  readonly whiteSide?: ClockSide;
  /** Bus address to put on every step. */
  readonly board?: number;
}

export interface MovesScript {
  readonly steps: readonly ScriptStep[];
  /** Square events only, in order, as (square, content) pairs: what a session must observe. */
  readonly squares: readonly { readonly square: Square; readonly content: SquareContent }[];
  /** The position after the last move, game frame. */
  readonly final: readonly SquareContent[];
  /** Script time of the last step. */
  readonly endsAt: number;
}

export class ScriptError extends Error {
  constructor(
    readonly ply: number,
    readonly san: string,
  ) {
    super(`ply ${ply}: "${san}" is not a legal move here`);
    this.name = 'ScriptError';
  }
}

const contentOf = (p: Piece | undefined): SquareContent =>
  p === undefined ? EMPTY : makePiece(p.color, p.role);

export const squaresOf = (pos: Chess): SquareContent[] =>
  Array.from({ length: 64 }, (_, sq) => contentOf(pos.board.get(sq)));

/** Lift/place events for the moves of a game from the start position. */
export const scriptFromSans = (
  sans: readonly string[],
  options: MovesScriptOptions = {},
): Result<MovesScript, ScriptError> => {
  const hand = options.handMs ?? 40;
  const plyMs = options.plyMs ?? 200;
  const whiteSide = options.whiteSide ?? 'left';
  const board = options.board;
  const pos = Chess.default();
  const steps: ScriptStep[] = [];
  const squares: { square: Square; content: SquareContent }[] = [];
  let t = options.startAt ?? 0;
  let endsAt = t;
  for (let ply = 0; ply < sans.length; ply++) {
    const san = sans[ply] ?? '';
    const move = parseSan(pos, san);
    if (move === undefined || !('from' in move)) return Result.err(new ScriptError(ply + 1, san));
    const mover = pos.board.get(move.from);
    if (mover === undefined) return Result.err(new ScriptError(ply + 1, san));
    const events: { square: Square; piece: Piece | undefined }[] = [];
    const target = pos.board.get(move.to);
    if (mover.role === 'king' && target?.role === 'rook' && target.color === mover.color) {
      // chessops writes castling as king-takes-rook; on the board the king goes two files.
      const rank = move.from & ~7;
      const kingSide = move.to > move.from;
      events.push({ square: move.from, piece: undefined });
      events.push({ square: rank + (kingSide ? 6 : 2), piece: mover });
      events.push({ square: move.to, piece: undefined });
      events.push({ square: rank + (kingSide ? 5 : 3), piece: target });
    } else {
      const epCapture = mover.role === 'pawn' && target === undefined && (move.from & 7) !== (move.to & 7);
      const placed = move.promotion !== undefined ? { color: mover.color, role: move.promotion } : mover;
      events.push({ square: move.from, piece: undefined });
      events.push({ square: move.to, piece: placed });
      if (epCapture) events.push({ square: (move.from & ~7) | (move.to & 7), piece: undefined });
    }
    let et = t;
    for (const e of events) {
      const piece = e.piece === undefined ? 'empty' : letterOf(e.piece);
      steps.push({ at: et, kind: 'square', square: e.square, piece, ...(board !== undefined && { board }) });
      squares.push({ square: e.square, content: contentOf(e.piece) });
      endsAt = et;
      et += hand;
    }
    if (options.pressAfterMs !== undefined) {
      const side: ClockSide = pos.turn === 'white' ? whiteSide : whiteSide === 'left' ? 'right' : 'left';
      endsAt = et - hand + options.pressAfterMs;
      steps.push({ at: endsAt, kind: 'clock-press', side, ...(board !== undefined && { board }) });
    }
    pos.play(move);
    t = Math.max(t + plyMs, endsAt + hand);
  }
  return Result.ok({ steps, squares, final: squaresOf(pos), endsAt });
};
