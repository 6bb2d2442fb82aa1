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
 */
import { Result } from '@badrap/result';
import { Chess, type Move, type Position, kingCastlesTo, makeSquare, makeUci, parseUci } from 'chessops';
import { castlingSide, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
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

export class Game {
  private constructor(
    readonly start: GameStart,
    /** positions[i] is the position after i plies; positions[0] is the start. Never mutated. */
    private readonly positions: readonly Chess[],
    readonly moves: readonly MoveRecord[],
  ) {}

  /** A game from the standard starting position. */
  static standard(): Game {
    const pos = Chess.default();
    return new Game({ fen: makeFen(pos.toSetup()), chess960: false }, [pos], []);
  }

  /** A game from any legal position given as FEN (X-FEN and Shredder-FEN castling for Chess960). */
  static fromFen(fen: string, opts: { chess960?: boolean } = {}): Result<Game, GameError> {
    return parsePosition(fen).map(
      pos => new Game({ fen: makeFen(pos.toSetup()), chess960: opts.chess960 ?? false }, [pos], []),
    );
  }

  /** A game from an already validated position. */
  static fromPosition(pos: Chess, opts: { chess960?: boolean } = {}): Game {
    const start = pos.clone();
    return new Game({ fen: makeFen(start.toSetup()), chess960: opts.chess960 ?? false }, [start], []);
  }

  /** Number of plies played. */
  get length(): number {
    return this.moves.length;
  }

  /** The current position (a copy: callers may play on it). */
  position(): Chess {
    return this.positionAt(this.length);
  }

  /** The position after `ply` plies (0 = start), as a copy. Throws a RangeError outside 0..length (a programmer error). */
  positionAt(ply: number): Chess {
    const pos = this.positions[ply];
    if (!pos) throw new RangeError(`positionAt: ply ${ply} outside 0..${this.length}`);
    return pos.clone();
  }

  /** FEN after `ply` plies (0 = the start position). */
  fenAt(ply: number): string {
    return ply === 0 ? this.start.fen : (this.moves[ply - 1]?.fen ?? this.positionAtFen(ply));
  }

  private positionAtFen(ply: number): string {
    return makeFen(this.positionAt(ply).toSetup());
  }

  /** Read-only view of the positions (0 = start). Do not mutate them: clone first. */
  positionsView(): readonly Position[] {
    return this.positions;
  }

  /** Plays a chessops move if legal. */
  play(move: Move, meta: MoveMeta = {}): Result<Game, GameError> {
    const current = this.positions[this.length] as Chess;
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
    const current = this.positions[this.length] as Chess;
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
    const current = this.positions[this.length] as Chess;
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
    const san = makeSan(current, move);
    const uci = makeUciFor(current, move, this.start.chess960);
    const next = current.clone();
    next.play(move);
    const record: MoveRecord = {
      ...meta,
      ply: this.length + 1,
      move,
      san,
      uci,
      fen: makeFen(next.toSetup()),
    };
    return new Game(this.start, [...this.positions, next], [...this.moves, record]);
  }

  /** Keeps the first `ply` plies (a takeback to the position after `ply`). */
  truncate(ply: number): Result<Game, GameError> {
    if (!Number.isInteger(ply) || ply < 0 || ply > this.length) {
      return Result.err(gameError({ kind: 'plyOutOfRange', ply, length: this.length }));
    }
    return Result.ok(new Game(this.start, this.positions.slice(0, ply + 1), this.moves.slice(0, ply)));
  }

  /** Replaces the moves from ply `ply` (1-based) on with `sans`: a correction, never a variation. */
  replaceFrom(ply: number, sans: readonly string[]): Result<Game, GameError> {
    let game = this.truncate(ply - 1);
    for (const san of sans) game = game.chain(g => g.playSan(san));
    return game;
  }

  /** Returns a copy with the metadata of ply `ply` merged (a clock reading arriving after the move). */
  annotate(ply: number, meta: MoveMeta): Result<Game, GameError> {
    const rec = this.moves[ply - 1];
    if (!rec) return Result.err(gameError({ kind: 'plyOutOfRange', ply, length: this.length }));
    const moves = this.moves.slice();
    moves[ply - 1] = { ...rec, ...meta };
    return Result.ok(new Game(this.start, this.positions, moves));
  }

  /** Side to move now. */
  get turn(): 'white' | 'black' {
    return (this.positions[this.length] as Chess).turn;
  }
}
