/**
 * What a made move settles besides the record: a draw offer lapses when the opponent makes a move
 * (E97 9.1; from E09 already when he touches a piece, see illegal.ts), the window to claim the
 * opponent's illegal move closes (reduced supervision: before the claimant makes his move), and an
 * illegal position shown before is gone.
 *
 *   afterMoveMade(tx, publishedMove);
 */
import { citeTopic } from '../editions.js';
import type { PublishedMove } from '../recognition/outputs.js';
import { moverOf } from './state.js';
import { type Tx, emit, patch } from './tx.js';

export const afterMoveMade = (tx: Tx, m: PublishedMove): void => {
  const mover = moverOf(tx.st, m.ply);
  const { offer, claimable, profile } = tx.st;
  if (offer && offer.by !== mover && profile.draws.offerLapsesBy === 'makingMove') {
    patch(tx, { offer: undefined });
    emit(tx, m.at, {
      type: 'offer',
      by: offer.by,
      status: 'lapsed',
      article: citeTopic(profile, 'drawOffer'),
    });
  }
  if (claimable && claimable.offender !== mover) patch(tx, { claimable: { ...claimable, closed: true } });
  if (tx.st.illegalShown || tx.st.resync) patch(tx, { illegalShown: false, resync: false });
};
