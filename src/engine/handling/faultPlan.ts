/**
 * Where the faults of a game go: one ply for each kind of fault, GAP plies apart, chosen among the
 * plies where the game allows that kind (a pawn move to take back, a castling to do rook first).
 */
import type { Game } from '../game.js';
import { type MoveFacts, factsOf } from './moveFacts.js';
import type { Rng } from './prng.js';

export const FAULT_KINDS = ['illegalMove', 'touchMove', 'missedUpdate', 'takeback', 'gesture'] as const;
/**
 * Breaches that need a game of their own, each counting as an illegal move or changing the
 * record: castling with the rook touched first (4.4.2), the opponent's king taken off the board and
 * the clock pressed (a king capture), and an illegal move pressed after the arbiter restored an
 * earlier position and the players set it up.
 */
export const BREACH_KINDS = ['rookFirst', 'kingCapture', 'illegalAfterRestore'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number] | (typeof BREACH_KINDS)[number];

/** Plies kept clear between two faults, so that each one's reports stand alone. */
const GAP = 4;

const isPlain = (f: MoveFacts): boolean => f.kind === 'quiet' && !f.move.promotion;

export interface Planner {
  readonly plies: Map<number, FaultKind>;
}

/** Chooses a ply for each kind, GAP apart, where the game allows it. */
export const plan = (game: Game, kinds: readonly FaultKind[], rng: Rng): Planner => {
  const plies = new Map<number, FaultKind>();
  const positions = game.positionsView();
  const taken = (p: number, span: number): boolean => {
    for (let q = p - GAP; q <= p + span + GAP; q++) if (plies.has(q)) return true;
    return false;
  };
  const fits = (kind: FaultKind, i: number): boolean => {
    const pos = positions[i];
    const move = game.moves[i]?.move;
    if (!pos || !move || !('from' in move)) return false;
    const f = factsOf(pos, move);
    switch (kind) {
      case 'illegalMove':
        return f.kind !== 'castling';
      case 'touchMove':
        return isPlain(f);
      case 'missedUpdate':
      case 'takeback': {
        const next = game.moves[i + 1]?.move;
        const after = positions[i + 1];
        if (!(i + 2 < game.length && next !== undefined && after !== undefined && 'from' in next))
          return false;
        // A takeback of reversible moves looks like two more moves (Be3 Bg7, then Bc1 Bf8): the
        // first move taken back is a pawn move, which no move undoes.
        const irreversible = kind === 'missedUpdate' || f.piece.role === 'pawn';
        return irreversible && isPlain(f) && isPlain(factsOf(after, next));
      }
      case 'rookFirst':
        return f.kind === 'castling';
      case 'kingCapture':
        return isPlain(f) && pos.board.kingOf(pos.turn === 'white' ? 'black' : 'white') !== undefined;
      case 'illegalAfterRestore': {
        const next = game.moves[i + 1]?.move;
        const after = positions[i + 1];
        return (
          i + 2 < game.length &&
          f.kind !== 'castling' &&
          next !== undefined &&
          after !== undefined &&
          'from' in next &&
          factsOf(after, next).kind !== 'castling'
        );
      }
      case 'gesture':
        return false;
    }
  };
  for (const kind of kinds) {
    if (kind === 'gesture') continue;
    const candidates: number[] = [];
    for (let i = 2; i < game.length - 1; i++) if (fits(kind, i) && !taken(i, 2)) candidates.push(i);
    const i = rng.pick(candidates);
    if (i !== undefined) plies.set(i, kind);
  }
  return { plies };
};
