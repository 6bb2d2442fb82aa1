/**
 * The game record: a start position and the moves played from it, each with SAN, UCI, the FEN
 * after it, and optional timestamp, clock reading and comment. Immutable: every change returns a
 * new record, so an engine reducer can keep the previous one.
 *
 *   const g = Game.standard().playSan('e4').unwrap().playSan('e5').unwrap();
 *   g.moves[1]?.san;      // 'e5'
 *   g.truncate(1).unwrap().length; // 1 (takeback of 1...e5)
 *
 * Corrections replace the moves from ply N (`replaceFrom`): a record never holds variations.
 * Records of one game share their storage (see `Line`): a move or a takeback copies nothing, and
 * `moveAt`/`positionView` read one ply without the array copy `moves`/`positionsView()` make.
 */
import { Result } from '@badrap/result';
import { Chess, type Move, type Position, kingCastlesTo, makeSquare, makeUci, parseUci } from 'chessops';
import { castlingSide, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { makeFenOf, makeSanBetween } from './notation.js';
import { dataError } from './types.js';

/** Information attached to a move besides the move itself. */
export interface MoveMeta {
  /** When the move was made, in monotonic milliseconds of the game's time base. */
  readonly at?: number;
  /** Remaining time of the player who moved, in ms, after the move (PGN [%clk]). */
  readonly clockMs?: number;
  /** Time the move took, in ms (PGN [%emt]). */
  readonly elapsedMs?: number;
  /** Free text comment. */
  readonly comment?: string;
}

/** One ply of the record. */
export interface MoveRecord extends MoveMeta {
  /** 1-based ply number: 1 is White's first move from the standard position. */
  readonly ply: number;
  /** chessops move; castling is king-to-rook, as chessops encodes it. */
  readonly move: Move;
  /** Standard Algebraic Notation with check (+) and mate (#) marks. */
  readonly san: string;
  /** UCI: e1g1 for castling in standard chess, king-to-rook (e1h1) in Chess960. */
  readonly uci: string;
  /** FEN of the position after the move. */
  readonly fen: string;
}

/** How the game started. */
export interface GameStart {
  readonly fen: string;
  /** Chess960 (Fischer random): castling is written king-to-rook in UCI and castling rights by file. */
  readonly chess960: boolean;
}

/** Expected failures of the game record, with the data needed to say what and where. */
export type GameErrorDetail =
  | { readonly kind: 'invalidFen'; readonly fen: string; readonly reason: string }
  | { readonly kind: 'illegalPosition'; readonly fen: string; readonly reason: string }
  | { readonly kind: 'illegalSan'; readonly san: string; readonly ply: number; readonly fen: string }
  | { readonly kind: 'illegalUci'; readonly uci: string; readonly ply: number; readonly fen: string }
  | { readonly kind: 'illegalMove'; readonly move: string; readonly ply: number; readonly fen: string }
  | { readonly kind: 'plyOutOfRange'; readonly ply: number; readonly length: number };

/** An expected failure: the detail's fields plus an Error whose message names what and where. */
export type GameError = GameErrorDetail & Error;

const gameError = (detail: GameErrorDetail): GameError => dataError(detail, describeGameError(detail));

/** A readable one-line description of a GameError, naming what was wrong and where. */
export const describeGameError = (e: GameErrorDetail): string => {
  switch (e.kind) {
    case 'invalidFen':
      return `invalid FEN "${e.fen}": ${e.reason}`;
    case 'illegalPosition':
      return `illegal position "${e.fen}": ${e.reason}`;
    case 'illegalSan':
      return `illegal or ambiguous move "${e.san}" at ${describePly(e.ply)} in position ${e.fen}`;
    case 'illegalUci':
      return `illegal or malformed UCI move "${e.uci}" at ${describePly(e.ply)} in position ${e.fen}`;
    case 'illegalMove':
      return `illegal move ${e.move} at ${describePly(e.ply)} in position ${e.fen}`;
    case 'plyOutOfRange':
      return `ply ${e.ply} is outside the game (0..${e.length})`;
  }
};

/** "ply 7 (4. ...)" style text. Ply numbers count from the game's first move. */
const describePly = (ply: number): string => `ply ${ply}`;

const FEN_ERROR_TEXT: Record<string, string> = {
  ERR_FEN: 'malformed FEN',
  ERR_BOARD: 'bad piece placement field',
  ERR_POCKETS: 'pockets are not allowed',
  ERR_TURN: 'bad side-to-move field',
  ERR_CASTLING: 'bad castling field',
  ERR_EP_SQUARE: 'bad en-passant field',
  ERR_HALFMOVES: 'bad halfmove clock',
  ERR_FULLMOVES: 'bad fullmove number',
  ERR_REMAINING_CHECKS: 'remaining checks are not allowed',
};

const POSITION_ERROR_TEXT: Record<string, string> = {
  ERR_EMPTY: 'the board is empty',
  ERR_OPPOSITE_CHECK: 'the side not to move is in check',
  ERR_PAWNS_ON_BACKRANK: 'pawns on the first or last rank',
  ERR_KINGS: 'each side needs exactly one king',
  ERR_VARIANT: 'not a legal chess position',
};

/** Parses and validates a FEN into a legal chess position (the Setup → Position step). */
export const parsePosition = (fen: string): Result<Chess, GameError> => {
  const setup = parseFen(fen.trim());
  if (setup.isErr) {
    const reason = FEN_ERROR_TEXT[setup.error.message] ?? setup.error.message;
    return Result.err(gameError({ kind: 'invalidFen', fen, reason }));
  }
  const pos = Chess.fromSetup(setup.value);
  if (pos.isErr) {
    const reason = POSITION_ERROR_TEXT[pos.error.message] ?? pos.error.message;
    return Result.err(gameError({ kind: 'illegalPosition', fen, reason }));
  }
  return Result.ok(pos.value);
};

/** UCI text of a legal move: standard castling as e1g1 unless Chess960. */
export const makeUciFor = (pos: Position, move: Move, chess960: boolean): string => {
  if (!chess960 && 'from' in move) {
    const side = castlingSide(pos, move);
    if (side) return makeSquare(move.from) + makeSquare(kingCastlesTo(pos.turn, side));
  }
  return makeUci(move);
};

/**
 * The positions and records of one line of play, shared by every Game on it: a Game sees the first
 * `length` records and `length + 1` positions. The arrays only ever grow, and only at the end of
 * the line, so what a Game sees never changes; playing from a Game that is not at the end of its
 * line (after a takeback, or a second move from the same Game) copies its part into a new line.
 */
interface Line {
  readonly positions: Chess[];
  readonly moves: MoveRecord[];
}

const lineOf = (start: Chess): Line => ({ positions: [start], moves: [] });

export class Game {
  /** Copies of the line's prefix handed out by `moves` and `positionsView`, made on first use. */
  private movesCopy: readonly MoveRecord[] | undefined;
  private positionsCopy: readonly Chess[] | undefined;

  private constructor(
    readonly start: GameStart,
    private readonly line: Line,
    /** Number of plies played. */
    readonly length: number,
  ) {}

  /** A game from the standard starting position. */
  static standard(): Game {
    const pos = Chess.default();
    return new Game({ fen: makeFen(pos.toSetup()), chess960: false }, lineOf(pos), 0);
  }

  /** A game from any legal position given as FEN (X-FEN and Shredder-FEN castling for Chess960). */
  static fromFen(fen: string, opts: { chess960?: boolean } = {}): Result<Game, GameError> {
    return parsePosition(fen).map(
      pos => new Game({ fen: makeFen(pos.toSetup()), chess960: opts.chess960 ?? false }, lineOf(pos), 0),
    );
  }

  /** A game from an already validated position. */
  static fromPosition(pos: Chess, opts: { chess960?: boolean } = {}): Game {
    const start = pos.clone();
    return new Game({ fen: makeFen(start.toSetup()), chess960: opts.chess960 ?? false }, lineOf(start), 0);
  }

  /** The records of the plies played, ply 1 first. */
  get moves(): readonly MoveRecord[] {
    return (this.movesCopy ??= this.line.moves.slice(0, this.length));
  }

  /** The record of ply `ply` (1-based), or undefined outside 1..length: `moves[ply - 1]` without the copy. */
  moveAt(ply: number): MoveRecord | undefined {
    return ply >= 1 && ply <= this.length ? this.line.moves[ply - 1] : undefined;
  }

  /** The current position (a copy: callers may play on it). */
  position(): Chess {
    return this.positionAt(this.length);
  }

  /** The position after `ply` plies (0 = start), as a copy. Throws a RangeError outside 0..length (a programmer error). */
  positionAt(ply: number): Chess {
    const pos = this.positionView(ply);
    if (!pos) throw new RangeError(`positionAt: ply ${ply} outside 0..${this.length}`);
    return pos.clone();
  }

  /**
   * The position after `ply` plies (0 = start) itself, or undefined outside 0..length:
   * `positionsView()[ply]` without the copy. Do not mutate it: clone first.
   */
  positionView(ply: number): Chess | undefined {
    return Number.isInteger(ply) && ply >= 0 && ply <= this.length ? this.line.positions[ply] : undefined;
  }

  /** FEN after `ply` plies (0 = the start position). */
  fenAt(ply: number): string {
    return ply === 0 ? this.start.fen : (this.moveAt(ply)?.fen ?? this.positionAtFen(ply));
  }

  private positionAtFen(ply: number): string {
    return makeFen(this.positionAt(ply).toSetup());
  }

  /** Read-only view of the positions (0 = start). Do not mutate them: clone first. */
  positionsView(): readonly Position[] {
    return (this.positionsCopy ??= this.line.positions.slice(0, this.length + 1));
  }

  /** The position now, not copied (internal: the game's own, never played on). */
  private get current(): Chess {
    return this.line.positions[this.length] as Chess;
  }

  /** Plays a chessops move if legal. */
  play(move: Move, meta: MoveMeta = {}): Result<Game, GameError> {
    const current = this.current;
    const normalized = this.start.chess960 ? move : normalizeMove(current, move);
    if (!current.isLegal(normalized)) {
      return Result.err(
        gameError({
          kind: 'illegalMove',
          move: makeUci(move),
          ply: this.length + 1,
          fen: this.fenAt(this.length),
        }),
      );
    }
    return Result.ok(this.playUnchecked(current, normalized, meta));
  }

  /** Plays a move given in SAN (check marks, `x` and `=` optional as chessops accepts them). */
  playSan(san: string, meta: MoveMeta = {}): Result<Game, GameError> {
    const current = this.current;
    const move = parseSan(current, san);
    if (!move) {
      return Result.err(
        gameError({ kind: 'illegalSan', san, ply: this.length + 1, fen: this.fenAt(this.length) }),
      );
    }
    return Result.ok(this.playUnchecked(current, move, meta));
  }

  /** Plays a move given in UCI (e2e4, e7e8q; castling as e1g1, or e1h1 king-to-rook). */
  playUci(uci: string, meta: MoveMeta = {}): Result<Game, GameError> {
    const current = this.current;
    const parsed = parseUci(uci);
    const move = parsed && (this.start.chess960 ? parsed : normalizeMove(current, parsed));
    if (!move || !current.isLegal(move)) {
      return Result.err(
        gameError({ kind: 'illegalUci', uci, ply: this.length + 1, fen: this.fenAt(this.length) }),
      );
    }
    return Result.ok(this.playUnchecked(current, move, meta));
  }

  private playUnchecked(current: Chess, move: Move, meta: MoveMeta): Game {
    const next = current.clone();
    next.play(move);
    // SAN from the two positions (no replay), FEN straight from the bitboards: notation.ts.
    // Object.assign rather than a spread: V8 copies objects of many shapes (the metadata) far
    // faster this way (a spread of them took microseconds).
    const record: MoveRecord = Object.assign({}, meta, {
      ply: this.length + 1,
      move,
      san: makeSanBetween(current, move, next),
      uci: makeUciFor(current, move, this.start.chess960),
      fen: makeFenOf(next),
    });
    return new Game(this.start, this.extended(next, record), this.length + 1);
  }

  /** The line with one more ply after this game's last: appended in place at the end of the line, else a copy. */
  private extended(next: Chess, record: MoveRecord): Line {
    const { positions, moves } = this.line;
    if (moves.length === this.length) {
      positions.push(next);
      moves.push(record);
      return this.line;
    }
    const line: Line = {
      positions: positions.slice(0, this.length + 1),
      moves: moves.slice(0, this.length),
    };
    line.positions.push(next);
    line.moves.push(record);
    return line;
  }

  /** Keeps the first `ply` plies (a takeback to the position after `ply`). */
  truncate(ply: number): Result<Game, GameError> {
    if (!Number.isInteger(ply) || ply < 0 || ply > this.length) {
      return Result.err(gameError({ kind: 'plyOutOfRange', ply, length: this.length }));
    }
    return Result.ok(ply === this.length ? this : new Game(this.start, this.line, ply));
  }

  /** Replaces the moves from ply `ply` (1-based) on with `sans`: a correction, never a variation. */
  replaceFrom(ply: number, sans: readonly string[]): Result<Game, GameError> {
    let game = this.truncate(ply - 1);
    for (const san of sans) game = game.chain(g => g.playSan(san));
    return game;
  }

  /** Returns a copy with the metadata of ply `ply` merged (a clock reading arriving after the move). */
  annotate(ply: number, meta: MoveMeta): Result<Game, GameError> {
    const rec = this.moveAt(ply);
    if (!rec) return Result.err(gameError({ kind: 'plyOutOfRange', ply, length: this.length }));
    const moves = this.line.moves.slice(0, this.length);
    moves[ply - 1] = Object.assign({}, rec, meta);
    return Result.ok(
      new Game(this.start, { positions: this.line.positions.slice(0, this.length + 1), moves }, this.length),
    );
  }

  /** Side to move now. */
  get turn(): 'white' | 'black' {
    return this.current.turn;
  }
}
