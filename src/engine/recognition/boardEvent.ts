/**
 * Board events: the engine's own input vocabulary for the act of moving. The bridge maps driver
 * observations to these; tests, the handling generator and replays build them directly. Times
 * are milliseconds on one monotonic base and are the only clock the recogniser knows.
 *
 *   const lift: BoardEvent = { kind: 'square', at: 0, square: 12, piece: 'empty' };     // e2 emptied
 *   const place: BoardEvent = { kind: 'square', at: 240, square: 28, piece: { color: 'white', role: 'pawn' } };
 *   const press: BoardEvent = { kind: 'press', at: 900, side: 'white' };
 */
import type { Board, Color, Piece, Square } from 'chessops';
import { parseBoardFen } from 'chessops/fen';

/**
 * What a sensor reports for one square: a recognised piece, nothing, or `'occupied'` when the
 * board sees occupancy only (role and colour unknown: the recogniser infers them from the game).
 */
export type SensedContent = Piece | 'empty' | 'occupied';

export type BoardEvent =
  /** One square changed. A repeated report of the same content is ignored. */
  | { readonly kind: 'square'; readonly at: number; readonly square: Square; readonly piece: SensedContent }
  /** The whole board (64 entries, index = chessops square), e.g. a dump after a reconnect. */
  | { readonly kind: 'snapshot'; readonly at: number; readonly board: readonly SensedContent[] }
  /** The player of `side` pressed his clock lever (stopping his own clock). */
  | { readonly kind: 'press'; readonly at: number; readonly side: Color }
  /** The player of `side` announced an adjustment (j'adoube, Art. 4.2): kept as evidence for Art. 4. */
  | { readonly kind: 'adjust'; readonly at: number; readonly side: Color }
  /** Time passes with nothing sensed: lets a settle window close without a sensor event. */
  | { readonly kind: 'tick'; readonly at: number };

export type BoardEventKind = BoardEvent['kind'];

/** Square and snapshot events: what the sensors themselves report. */
export const isSensorEvent = (e: BoardEvent): boolean => e.kind === 'square' || e.kind === 'snapshot';

export const sameContent = (a: SensedContent, b: SensedContent): boolean => {
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return a.color === b.color && a.role === b.role;
};

/** The 64 square contents of a chessops board; `occupancyOnly` hides identities as such boards do. */
export const contentsOfBoard = (board: Board, occupancyOnly = false): SensedContent[] => {
  const out: SensedContent[] = new Array<SensedContent>(64).fill('empty');
  for (const [sq, piece] of board)
    out[sq] = occupancyOnly ? 'occupied' : { color: piece.color, role: piece.role };
  return out;
};

/**
 * The 64 square contents of a FEN board field (`rnbqkbnr/pppppppp/8/...`), or undefined when the
 * field is malformed. Lets tests and scripts write snapshots as text.
 */
export const contentsOfBoardFen = (boardFen: string, occupancyOnly = false): SensedContent[] | undefined => {
  const board = parseBoardFen(boardFen.trim());
  return board.isOk ? contentsOfBoard(board.value, occupancyOnly) : undefined;
};
