/**
 * A pawn left on the last rank and the clock pressed (E14 7.5.a, E18+ 7.5.2): the pawn is
 * replaced by a queen of the same colour; the move stands as a promotion to a queen (the
 * illegal-move penalty follows in illegal.ts). The board still shows the pawn until it is exchanged.
 *
 *   completeUnfinishedPromotion(tx, pending, 950);   // move event 'a8=Q+', recogniser on the new line
 */
import type { Pending } from '../recognition/pending.js';
import { onMove } from './moves.js';
import { rebase } from './rebase.js';
import type { Tx } from './tx.js';

export const completeUnfinishedPromotion = (
  tx: Tx,
  pending: Extract<Pending, { kind: 'promotion' }>,
  at: number,
): void => {
  const played = tx.st.rec.game.play({ from: pending.from, to: pending.to, promotion: 'queen' }, { at });
  if (played.isErr) return;
  const game = played.value;
  const rec = game.moves[game.length - 1];
  if (!rec) return;
  rebase(tx, game);
  onMove(tx, {
    ply: rec.ply,
    san: rec.san,
    uci: rec.uci,
    fen: rec.fen,
    at,
    publishedAt: at,
    evidence: [],
    observed: false,
  });
};
