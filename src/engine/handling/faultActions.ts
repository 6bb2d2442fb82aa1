/**
 * What the hands do for a fault (engine/handling/faults.ts): an illegal placement set right,
 * another own piece touched, castling rook first, a position set back, the result gesture.
 */
import type { Chess, Color, Piece, Square } from 'chessops';
import { CENTRE, NEAR_CENTRE } from '../recognition/gesture.js';
import type { Hands } from './hands.js';
import type { MoveFacts } from './moveFacts.js';
import type { Rng } from './prng.js';

/** An empty square the piece on `from` cannot reach: where the illegal move puts it (never the centre, never a last rank). */
export const illegalTarget = (pos: Chess, from: Square, rng: Rng): Square | undefined => {
  const dests = pos.dests(from);
  const free: Square[] = [];
  for (let sq = 8; sq < 56; sq++) {
    if (sq === from || pos.board.has(sq) || dests.has(sq) || CENTRE.has(sq)) continue;
    free.push(sq);
  }
  return rng.pick(free);
};

/** Another own piece with a legal move, to touch before the move (not a castling rook). */
export const otherMovable = (pos: Chess, f: MoveFacts, rng: Rng): Square | undefined => {
  const mine = [...pos.board[f.color].without(f.from)].filter(sq => pos.dests(sq).nonEmpty());
  return rng.pick(mine);
};

/** The pieces to set right after an illegal placement: back to where the move started. */
export const illegalAttempt = (h: Hands, f: MoveFacts, target: Square): void => {
  const piece = h.take(f.from, 0);
  if (!piece) return;
  h.put(target, piece, h.carry());
  h.wait(h.options.settleMs + h.rng.int(100, 600));
  h.press(f.color, h.rng.int(100, 600));
  h.take(target, h.rng.int(400, 1500));
  h.put(f.from, piece, h.carry());
  h.wait(h.options.settleMs + h.rng.int(200, 900));
};

/** Castling with the rook moved first, the king following (a breach of 4.4.2). */
export const castleRookFirst = (h: Hands, f: MoveFacts): void => {
  const rook = f.rook;
  if (!rook) return;
  h.take(rook.from, 0);
  h.put(rook.to, { color: f.color, role: 'rook' }, h.carry());
  h.take(f.from, h.brief());
  h.put(f.to, f.piece, h.carry());
};

/** Sets the board back to `board` quickly (a takeback done in one quiet gesture). */
export const restoreBoard = (h: Hands, target: Chess): void => {
  const now = h.board;
  const changed: Square[] = [];
  for (let sq = 0; sq < 64; sq++) {
    const a = now.get(sq);
    const b = target.board.get(sq);
    if (a?.color !== b?.color || a?.role !== b?.role) changed.push(sq);
  }
  const empties = changed.filter(sq => !target.board.has(sq));
  const fills = changed.filter(sq => target.board.has(sq));
  for (const sq of empties) h.take(sq, h.scan());
  for (const sq of fills) {
    const p = target.board.get(sq);
    if (p) h.put(sq, p, h.scan());
  }
};

const GESTURE_SQUARES: Record<'1-0' | '0-1' | '1/2-1/2', readonly [Square, Square]> = {
  '1-0': [28, 35], // e4, d5: light
  '0-1': [27, 36], // d4, e5: dark
  '1/2-1/2': [28, 36], // e4 light, e5 dark
};

/**
 * The ritual: pieces taken off the two squares, then the kings put there. A king already on one of
 * them keeps it; a king on another centre square goes first (or the board would show the wrong
 * result half way); then the one beside the centre.
 */
export const gesture = (h: Hands, pos: Chess, result: '1-0' | '0-1' | '1/2-1/2'): void => {
  const free = [...GESTURE_SQUARES[result]];
  const kings = (['white', 'black'] as const)
    .map(c => ({ color: c, square: pos.board.kingOf(c) }))
    .filter((k): k is { color: Color; square: Square } => k.square !== undefined);
  const plan: { color: Color; from: Square; to: Square }[] = [];
  for (const k of kings) {
    const i = free.indexOf(k.square);
    if (i >= 0) free.splice(i, 1);
  }
  const dist = (a: Square, b: Square): number =>
    Math.max(Math.abs((a & 7) - (b & 7)), Math.abs((a >> 3) - (b >> 3)));
  for (const k of kings) {
    if (GESTURE_SQUARES[result].includes(k.square)) continue;
    free.sort((a, b) => dist(a, k.square) - dist(b, k.square));
    const to = free.shift();
    if (to !== undefined) plan.push({ color: k.color, from: k.square, to });
  }
  const rank = (m: { from: Square }): number => (CENTRE.has(m.from) ? 0 : NEAR_CENTRE.has(m.from) ? 1 : 2);
  plan.sort((a, b) => rank(a) - rank(b));
  for (const m of plan) {
    const p = h.board.get(m.to);
    if (p && p.role !== 'king') h.take(m.to, h.pause());
  }
  for (const m of plan) {
    const king: Piece = { color: m.color, role: 'king' };
    h.take(m.from, h.pause());
    h.put(m.to, king, h.carry());
  }
};
