/**
 * SAN and FEN written straight from a position, for the game record's every ply. The text is the
 * same as chessops' `makeSan` and `makeFen(pos.toSetup())` (test/engine/notation.test.ts compares
 * them over the corpora), but nothing is cloned or replayed: the SAN suffix needs only whether the
 * position after the move is check, and whether it has a legal move when it is, and the board
 * field is read rank by rank from the bitboards.
 *
 *   const after = pos.clone(); after.play(move);
 *   makeSanBetween(pos, move, after);   // 'Nbd7', 'exd6', 'O-O', 'Qh7#'
 *   makeFenOf(after);                   // 'r1bqkb1r/pppn1ppp/...  w KQkq - 2 5'
 */
import {
  type Board,
  type Move,
  type Position,
  type Role,
  type Square,
  SquareSet,
  bishopAttacks,
  defined,
  kingAttacks,
  knightAttacks,
  makeSquare,
  opposite,
  pawnAttacks,
  queenAttacks,
  rookAttacks,
} from 'chessops';
import { makeCastlingFen } from 'chessops/fen';
import { makeSan } from 'chessops/san';

const FILES = 'abcdefgh';
const RANKS = '12345678';
const LETTER: Readonly<Record<Role, string>> = {
  pawn: 'P',
  knight: 'N',
  bishop: 'B',
  rook: 'R',
  queen: 'Q',
  king: 'K',
};

/** The same-role pieces of the mover that could also go to `to` (the SAN disambiguation candidates). */
const rivals = (pos: Position, role: Role, from: number, to: number): SquareSet => {
  const b = pos.board;
  let others: SquareSet;
  switch (role) {
    case 'king':
      others = kingAttacks(to).intersect(b.king);
      break;
    case 'queen':
      others = queenAttacks(to, b.occupied).intersect(b.queen);
      break;
    case 'rook':
      others = rookAttacks(to, b.occupied).intersect(b.rook);
      break;
    case 'bishop':
      others = bishopAttacks(to, b.occupied).intersect(b.bishop);
      break;
    case 'knight':
      others = knightAttacks(to).intersect(b.knight);
      break;
    case 'pawn':
      return SquareSet.empty();
  }
  return others.intersect(b[pos.turn]).without(from);
};

/** SAN without the check or mate mark, as chessops writes it for a legal chess move. */
const sanBody = (pos: Position, move: Move): string | undefined => {
  if (!('from' in move)) return undefined;
  const { from, to } = move;
  const b = pos.board;
  const role = b.getRole(from);
  if (!role) return '--';
  if (role === 'king' && (b[pos.turn].has(to) || Math.abs(to - from) === 2))
    return to > from ? 'O-O' : 'O-O-O';
  const capture = b.occupied.has(to) || (role === 'pawn' && (from & 7) !== (to & 7));
  let san = '';
  if (role !== 'pawn') {
    san = LETTER[role];
    let others = rivals(pos, role, from, to);
    if (others.nonEmpty()) {
      const ctx = pos.ctx();
      for (const other of others) if (!pos.dests(other, ctx).has(to)) others = others.without(other);
      if (others.nonEmpty()) {
        let row = false;
        let column = others.intersects(SquareSet.fromRank(from >> 3));
        if (others.intersects(SquareSet.fromFile(from & 7))) row = true;
        else column = true;
        if (column) san += FILES[from & 7] ?? '';
        if (row) san += RANKS[from >> 3] ?? '';
      }
    }
  } else if (capture) san = FILES[from & 7] ?? '';
  if (capture) san += 'x';
  san += makeSquare(to);
  if (move.promotion) san += `=${LETTER[move.promotion]}`;
  return san;
};

/**
 * SAN of `move` played in `before`, `after` being the position it gives (neither is changed).
 * '#' when `after` is checkmate, '+' when it is check.
 */
export const makeSanBetween = (before: Position, move: Move, after: Position): string => {
  const body = sanBody(before, move);
  if (body === undefined) return makeSan(before, move);
  if (!after.isCheck()) return body;
  return after.hasDests() ? `${body}+` : `${body}#`;
};

/** The 8 bits of rank `rank` (bit i = file i) of a square set. */
const rankBits = (set: SquareSet, rank: number): number =>
  ((rank < 4 ? set.lo : set.hi) >>> ((rank & 3) * 8)) & 0xff;

/** The piece placement field of a FEN, as chessops' makeBoardFen writes it ('~' marks promoted pieces). */
export const makeBoardFenOf = (board: Board): string => {
  let fen = '';
  for (let rank = 7; rank >= 0; rank--) {
    const occupied = rankBits(board.occupied, rank);
    if (occupied === 0) fen += '8';
    else {
      const white = rankBits(board.white, rank);
      const pawn = rankBits(board.pawn, rank);
      const knight = rankBits(board.knight, rank);
      const bishop = rankBits(board.bishop, rank);
      const rook = rankBits(board.rook, rank);
      const queen = rankBits(board.queen, rank);
      const promoted = rankBits(board.promoted, rank);
      let empty = 0;
      for (let file = 0; file < 8; file++) {
        const bit = 1 << file;
        if ((occupied & bit) === 0) {
          empty++;
          continue;
        }
        if (empty > 0) {
          fen += empty;
          empty = 0;
        }
        const i =
          (pawn & bit) !== 0
            ? 0
            : (knight & bit) !== 0
              ? 1
              : (bishop & bit) !== 0
                ? 2
                : (rook & bit) !== 0
                  ? 3
                  : (queen & bit) !== 0
                    ? 4
                    : 5;
        fen += ((white & bit) !== 0 ? 'PNBRQK' : 'pnbrqk')[i] ?? '';
        if ((promoted & bit) !== 0) fen += '~';
      }
      if (empty > 0) fen += empty;
    }
    if (rank > 0) fen += '/';
  }
  return fen;
};

/**
 * The en-passant square, but only if the side to move has a legal en-passant capture (FEN writes
 * it so, and so does the repetition key: E09 9.2 "a pawn that could have been captured en
 * passant"). A pawn that merely advanced two squares, a capturer that is pinned, or a capture that
 * would uncover a check on its own king, give nothing.
 */
export const legalEnPassantSquare = (pos: Position): Square | undefined => {
  const ep = pos.epSquare;
  if (!defined(ep)) return undefined;
  // Our pawns that attack the en-passant square: the squares a pawn of the other colour on `ep` would attack.
  const capturers = pos.board.pieces(pos.turn, 'pawn').intersect(pawnAttacks(opposite(pos.turn), ep));
  for (const from of capturers) {
    if (pos.dests(from).has(ep)) return ep;
  }
  return undefined;
};

/** The FEN of a position, as chessops' `makeFen(pos.toSetup())` writes it for standard chess. */
export const makeFenOf = (pos: Position): string => {
  const rights = pos.castles.castlingRights;
  const castling = rights.isEmpty() ? '-' : makeCastlingFen(pos.board, rights);
  const ep = legalEnPassantSquare(pos);
  const halfmoves = Math.max(0, Math.min(pos.halfmoves, 150));
  const fullmoves = Math.max(1, Math.min(pos.fullmoves, 9999));
  return `${makeBoardFenOf(pos.board)} ${pos.turn === 'white' ? 'w' : 'b'} ${castling} ${defined(ep) ? makeSquare(ep) : '-'} ${halfmoves} ${fullmoves}`;
};
