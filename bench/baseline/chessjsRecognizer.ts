/**
 * The baseline recogniser of issue 9 (e): moves read from a sensor board the way desktop
 * board apps and most open-source drivers do it, built on chess.js. It keeps the game's current
 * chess.js position and the board as the sensors report it; once the board has been still for
 * the settle window (the same debounce our recogniser uses), it compares the board's piece
 * placement with the placement after each legal move:
 *
 * - the board shows the current position: nothing to do;
 * - it shows the position after exactly one legal move: that move is played and announced;
 * - anything else (a piece in the hand, a half-made capture, two plies at once): it waits for
 *   the board to change and be still again.
 *
 * Nothing is ever taken back or corrected: an announced move stays, as in those tools. It reads
 * full piece identities (a DGT-style board), and ignores the clock and j'adoube messages: time
 * passing is all it takes from them.
 *
 *   const r = new ChessJsRecognizer({ settleMs: 300 });
 *   for (const e of events) for (const m of r.push(e)) console.log(m.ply, m.san);
 *   r.finish(lastAt);   // a stable board at the very end is judged too
 */
import { Chess, type Move } from 'chess.js';
import type { BoardEvent, SensedContent } from '../../src/engine/recognition/boardEvent.js';

export interface BaselineOptions {
  /** How long the board must be still before it is compared (ms, default 300, as ours). */
  readonly settleMs?: number;
  /** The game's start position (FEN, default the standard start). */
  readonly startFen?: string;
}

/** A move the baseline announced: ply (1 = White's first), SAN, and the time it was decided. */
export interface BaselineMove {
  readonly ply: number;
  readonly san: string;
  readonly at: number;
}

const LETTER: Readonly<Record<string, string>> = {
  pawn: 'p',
  knight: 'n',
  bishop: 'b',
  rook: 'r',
  queen: 'q',
  king: 'k',
};

/** The FEN placement field of 64 sensed contents (index 0 = a1, as chessops numbers squares). */
export const placementOf = (board: readonly SensedContent[]): string => {
  const ranks: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let text = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const c = board[rank * 8 + file] ?? 'empty';
      if (c === 'empty') {
        empty++;
        continue;
      }
      if (c === 'occupied') throw new TypeError('the chess.js baseline needs piece identities');
      if (empty > 0) text += String(empty);
      empty = 0;
      const l = LETTER[c.role] ?? '?';
      text += c.color === 'white' ? l.toUpperCase() : l;
    }
    ranks.push(empty > 0 ? text + String(empty) : text);
  }
  return ranks.join('/');
};

/** The 64 contents of a FEN's placement field. */
const contentsOfFen = (fen: string): SensedContent[] => {
  const out: SensedContent[] = new Array<SensedContent>(64).fill('empty');
  const rows = (fen.split(' ')[0] ?? '').split('/');
  rows.forEach((row, i) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) {
        file += Number(ch);
        continue;
      }
      const role = Object.keys(LETTER).find(r => LETTER[r] === ch.toLowerCase());
      if (role !== undefined)
        out[(7 - i) * 8 + file] = {
          color: ch === ch.toUpperCase() ? 'white' : 'black',
          role: role as 'pawn',
        };
      file++;
    }
  });
  return out;
};

const samePiece = (a: SensedContent, b: SensedContent): boolean =>
  typeof a === 'string' || typeof b === 'string' ? a === b : a.color === b.color && a.role === b.role;

export class ChessJsRecognizer {
  private readonly chess: Chess;
  private readonly settleMs: number;
  private readonly board: SensedContent[];
  /** Time of the last change the sensors reported. */
  private changedAt = 0;
  /** The board changed since it was last compared. */
  private dirty = false;
  /** Placement after each legal move of the current position (built once per position). */
  private successors: { readonly placement: string; readonly move: Move }[] | undefined;
  private currentPlacement: string;
  private readonly announced: BaselineMove[] = [];
  /** How many times a still board was compared with the legal moves. */
  comparisons = 0;
  /** The placements of the still boards that matched no legal move (for diagnosis), in order. */
  readonly unmatched: string[] = [];

  constructor(options: BaselineOptions = {}) {
    this.chess = new Chess(options.startFen);
    this.settleMs = options.settleMs ?? 300;
    this.board = contentsOfFen(this.chess.fen());
    this.currentPlacement = placementOf(this.board);
  }

  /** Every move announced so far, in order. */
  get moves(): readonly BaselineMove[] {
    return this.announced;
  }

  /** SAN of the moves played, as the baseline's game record holds them. */
  get sans(): string[] {
    return this.chess.history();
  }

  /** Feeds one board event; returns the moves it made the baseline announce. */
  push(event: BoardEvent): BaselineMove[] {
    const out = this.settle(event.at);
    switch (event.kind) {
      case 'square':
        if (!samePiece(this.board[event.square] ?? 'empty', event.piece)) {
          this.board[event.square] = event.piece;
          this.touched(event.at);
        }
        break;
      case 'snapshot':
        event.board.forEach((c, sq) => {
          if (!samePiece(this.board[sq] ?? 'empty', c)) {
            this.board[sq] = c;
            this.touched(event.at);
          }
        });
        break;
      case 'press':
      case 'adjust':
      case 'tick':
        break;
    }
    return out;
  }

  /** Lets the time run to `at` with nothing sensed (the end of a stream). */
  finish(at: number): BaselineMove[] {
    return this.settle(at);
  }

  private touched(at: number): void {
    this.changedAt = at;
    this.dirty = true;
  }

  /** The board has been still since `changedAt`: at `now`, judge it if the window has passed. */
  private settle(now: number): BaselineMove[] {
    if (!this.dirty || now - this.changedAt < this.settleMs) return [];
    this.dirty = false;
    const placement = placementOf(this.board);
    if (placement === this.currentPlacement) return [];
    this.comparisons++;
    this.successors ??= this.chess
      .moves({ verbose: true })
      .map(move => ({ placement: move.after.split(' ')[0] ?? '', move }));
    // Two legal moves never lead to the same placement except promotions to different pieces,
    // which the piece on the square tells apart: the first match is the only one.
    const match = this.successors.find(s => s.placement === placement);
    if (match === undefined) {
      this.unmatched.push(placement);
      return [];
    }
    const { from, to, promotion } = match.move;
    this.chess.move(promotion === undefined ? { from, to } : { from, to, promotion });
    this.successors = undefined;
    this.currentPlacement = placement;
    const played: BaselineMove = {
      ply: this.announced.length + 1,
      san: match.move.san,
      at: this.changedAt + this.settleMs,
    };
    this.announced.push(played);
    return [played];
  }
}
