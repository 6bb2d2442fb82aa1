/**
 * The player having the move touches a piece: what that settles besides Art. 4 (judged on the
 * made move in art4.ts). His opponent's draw offer lapses (E09+ 9.1.2.1), his own 9.2/9.3 claim
 * on this move is lost (9.4, judged in claims.ts), and so is his right to claim the opponent's
 * Art. 4 breach (E97 4.6, E09 4.7, E14+ 4.8). It also watches the window in which an illegal move
 * may still be claimed (reduced supervision): it closes when the claimant puts a piece down
 * elsewhere (his move made).
 *
 *   onTouch(tx, { kind: 'square', at: 3000, square: 52, piece: 'empty' }, recBefore);
 *   // offer lapsed, or alert touch-move 4.8 when White's breach was pending
 */
import { makeSquare, opposite } from 'chessops';
import { citeTopic } from '../editions.js';
import type { AlertCode } from '../events.js';
import type { BoardEvent } from '../recognition/boardEvent.js';
import type { RecognitionState } from '../recognition/state.js';
import type { Color } from '../types.js';
import { noteAlert } from './art4.js';
import { positionAt } from './state.js';
import { type Tx, emit, patch } from './tx.js';
import { say } from '../texts.js';

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };

/** Is the turn of the player having the move open: did the opponent press, or leave the board quiet? */
const turnOpen = (tx: Tx, at: number): boolean => {
  const { st } = tx;
  const ply = st.rec.game.length;
  if (ply === 0) return true;
  const mover = opposite(st.rec.game.turn);
  if (st.completed[mover] >= ply) return true;
  const made = st.plies[ply]?.madeAt;
  return made === undefined || at - made >= st.rec.options.settleMs;
};

/** The piece the last move put down, lifted again before its mover pressed: his own revision. */
const isMoversOwnPiece = (tx: Tx, square: number): boolean => {
  const { st } = tx;
  const ply = st.rec.game.length;
  const last = st.rec.game.moves[ply - 1];
  if (!last || !('from' in last.move)) return false;
  const mover = opposite(st.rec.game.turn);
  const pos = positionAt(st, ply);
  return st.completed[mover] < ply && pos.board.get(square)?.color === mover;
};

/**
 * A square event: a lift by the player having the move lapses the opponent's draw offer (E09+
 * 9.1.2.1), loses his own 9.2/9.3 claim for this move (9.4) and his right to claim an Art. 4
 * breach of the opponent (E97 4.6, E09 4.7, E14+ 4.8). Also watches the claim window for an
 * illegal move in claim-only regimes.
 */
export const onTouch = (
  tx: Tx,
  e: Extract<BoardEvent, { kind: 'square' }>,
  before: RecognitionState,
): void => {
  const c = tx.st.claimable;
  if (c && !c.closed && e.at > c.at) {
    if (e.piece === 'empty' && c.liftedFrom === undefined)
      patch(tx, { claimable: { ...c, liftedFrom: e.square } });
    else if (e.piece !== 'empty' && c.liftedFrom !== undefined && e.square !== c.liftedFrom)
      patch(tx, { claimable: { ...c, closed: true } });
  }
  if (e.piece !== 'empty' || !before.sensed.occupied.has(e.square)) return;
  const { st } = tx;
  const ply = st.rec.game.length;
  const color = st.rec.game.turn;
  if (st.turnTouch?.ply === ply && st.turnTouch.color === color) return;
  if (!turnOpen(tx, e.at) || isMoversOwnPiece(tx, e.square)) return;
  patch(tx, { turnTouch: { ply, color, at: e.at } });
  const { offer, breach, profile } = tx.st;
  if (offer && offer.by !== color && offer.at <= e.at && profile.draws.offerLapsesBy === 'touchingPiece') {
    patch(tx, { offer: undefined });
    emit(tx, e.at, {
      type: 'offer',
      by: offer.by,
      status: 'lapsed',
      article: citeTopic(profile, 'drawOffer'),
    });
  }
  if (breach && breach.by !== color) {
    patch(tx, { breach: undefined });
    noteAlert(tx, tx.st.seq + 1, breach.code as AlertCode, breach.ply);
    emit(tx, e.at, {
      type: 'alert',
      code: breach.code as AlertCode,
      article: citeTopic(profile, 'article4ClaimLost'),
      color: breach.by,
      detail: `${NAME[color]} touched a piece on ${makeSquare(e.square)}: the right to claim ${NAME[breach.by]}'s breach of Art. 4 is lost.`,
      text: [say('touch.claim_lost_square', { color, opponent: breach.by, square: makeSquare(e.square) })],
      evidence: { events: [e] },
    });
  }
};
