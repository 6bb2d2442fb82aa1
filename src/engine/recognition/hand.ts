/**
 * What is "in hand": pieces lifted from the board and not yet put down, in lift order. The board
 * cannot see hands, so this is inferred from square changes: emptying a square lifts its piece,
 * filling one puts down the most recently lifted piece of that identity (any piece when the board
 * sees occupancy only), a direct replacement does both. Captured pieces carried off stay in hand
 * until the board next matches a position.
 *
 *   let h = liftOrPlace([], 12, { color: 'white', role: 'pawn' }, 'empty', 100).hand;   // e2 lifted
 *   h = liftOrPlace(h, 28, undefined, { color: 'white', role: 'pawn' }, 300).hand;      // e4 placed
 *   h.length; // 0
 */
import type { Piece, Square } from 'chessops';
import type { SensedContent } from './boardEvent.js';

export interface Lifted {
  readonly square: Square;
  /** The piece's identity as shown or inferred when it was lifted (undefined when unknown). */
  readonly piece: Piece | undefined;
  readonly at: number;
}

export interface HandChange {
  readonly hand: readonly Lifted[];
  /** For a placement reported as `'occupied'`: the identity of the piece put down, if known. */
  readonly inferred: Piece | undefined;
}

const samePiece = (a: Piece | undefined, b: Piece): boolean =>
  !!a && a.color === b.color && a.role === b.role;

/** Index of the piece to put down: the latest lifted one of that identity, or the latest one. */
const pickIndex = (hand: readonly Lifted[], placed: Piece | undefined): number => {
  for (let i = hand.length - 1; i >= 0; i--) {
    if (!placed || samePiece(hand[i]?.piece, placed)) return i;
  }
  return -1;
};

/**
 * Updates the hand for one square change. `before` is the identity the square held (undefined
 * for an empty square or an unidentified piece), `wasOccupied` whether it held anything.
 */
export const liftOrPlace = (
  hand: readonly Lifted[],
  square: Square,
  before: Piece | undefined,
  after: SensedContent,
  at: number,
  wasOccupied = before !== undefined,
): HandChange => {
  let next = hand;
  if (wasOccupied) next = [...next, { square, piece: before, at }];
  if (after === 'empty') return { hand: next, inferred: undefined };
  const placed = after === 'occupied' ? undefined : after;
  // The piece just taken off this square (a direct replacement) is not the one being put down.
  const pool = wasOccupied ? next.slice(0, -1) : next;
  const i = pickIndex(pool, placed);
  if (i < 0) return { hand: next, inferred: placed };
  const taken = pool[i];
  const out = next.slice();
  out.splice(i, 1);
  return { hand: out, inferred: placed ?? taken?.piece };
};
