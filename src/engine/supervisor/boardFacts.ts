/**
 * What an alert shows of the board: its placement as a FEN board field (unidentified pieces as
 * their inferred identity), and the board events of the attempt now on it.
 *
 *   sensedFen(tx.st.rec.sensed);        // 'rnbqkbnr/pppp1ppp/8/4p3/...'
 *   attemptEvents(tx.st.rec).length;    // events since the game's last ply was made
 */
import { makeBoardFen } from 'chessops/fen';
import { Board } from 'chessops/board';
import type { BoardEvent } from '../recognition/boardEvent.js';
import { type SensedBoard, pieceAt } from '../recognition/sensedBoard.js';
import { madeIndexOf, type RecognitionState } from '../recognition/state.js';

/** The board's placement as a FEN board field (unidentified pieces as their inferred identity). */
export const sensedFen = (s: SensedBoard): string => {
  const board = Board.empty();
  for (const sq of s.occupied) {
    const p = pieceAt(s, sq);
    if (p) board.set(sq, p);
  }
  return makeBoardFen(board);
};

/** Board events since the game's last ply was made: the attempt now on the board. */
export const attemptEvents = (rec: RecognitionState): readonly BoardEvent[] =>
  rec.evidence.slice(madeIndexOf(rec, rec.game.length) + 1);
