/**
 * The ways people make each kind of move, written as hand actions (reference dgt-protocol.md
 * §5.5 and fide-laws-for-boards.md §13): quiet moves (plain, place-before-lift, stops on the way,
 * slides), captures in three orders with ghosts, castling king- or rook-first, both promotion
 * procedures, en passant in three orders, and the extras around a move (adjustments, flicker,
 * knocked-over pieces). Each function writes one move's events and counts what it did.
 *
 *   const stats = emptyStats();
 *   makeMove(hands, factsOf(pos, move), stats);   // lifts, carries and places; no clock press
 */
import type { Piece, Square } from 'chessops';
import { SquareSet, kingAttacks, squareFile, squareRank } from 'chessops';
import type { Hands } from './hands.js';
import type { MoveFacts } from './moveFacts.js';

/** How often each pattern was produced. */
export interface HandlingStats {
  plies: number;
  sensorEvents: number;
  presses: number;
  quiet: number;
  stops: number;
  legalStops: number;
  slides: number;
  placeBeforeLift: number;
  captures: number;
  captureDirect: number;
  captureVictimFirst: number;
  captureLiftRemovePlace: number;
  captureStops: number;
  ghosts: number;
  castlings: number;
  castlingRookFirst: number;
  promotions: number;
  promotionPawnFirst: number;
  underPromotions: number;
  enPassant: number;
  enPassantVictimFirst: number;
  enPassantLiftRemovePlace: number;
  adjustments: number;
  announcedAdjustments: number;
  knockOvers: number;
  flickers: number;
  repliesInWindow: number;
}

export const emptyStats = (): HandlingStats => ({
  plies: 0,
  sensorEvents: 0,
  presses: 0,
  quiet: 0,
  stops: 0,
  legalStops: 0,
  slides: 0,
  placeBeforeLift: 0,
  captures: 0,
  captureDirect: 0,
  captureVictimFirst: 0,
  captureLiftRemovePlace: 0,
  captureStops: 0,
  ghosts: 0,
  castlings: 0,
  castlingRookFirst: 0,
  promotions: 0,
  promotionPawnFirst: 0,
  underPromotions: 0,
  enPassant: 0,
  enPassantVictimFirst: 0,
  enPassantLiftRemovePlace: 0,
  adjustments: 0,
  announcedAdjustments: 0,
  knockOvers: 0,
  flickers: 0,
  repliesInWindow: 0,
});

export const addStats = (a: HandlingStats, b: HandlingStats): HandlingStats => {
  const out = { ...a };
  for (const key of Object.keys(b) as (keyof HandlingStats)[]) out[key] += b[key];
  return out;
};

const SLIDERS = new Set(['bishop', 'rook', 'queen']);

/** The captured piece passes over a neighbouring empty square on its way off the board. */
const ghost = (h: Hands, near: Square, piece: Piece, stats: HandlingStats): void => {
  if (!h.rng.chance(h.options.rates.ghost)) return;
  const square = h.emptyNeighbour(near);
  if (square === undefined) return;
  h.put(square, piece, h.scan() + h.rng.int(0, 120));
  h.take(square, h.brief());
  stats.ghosts++;
};

/**
 * Stops on the way: the piece is set down and rests (`dwell`, 0.3–2 s by default) before it goes
 * on. Either on squares it passes (d3 on the way to d4, Rd1 on the way to Rf1; 9 of 11 stops seen
 * in real games were themselves legal moves), or on an empty square next to its destination (a
 * knight or a king set down beside it, legal or not). Captures stop too, in every capture order.
 */
const stopsOnTheWay = (
  h: Hands,
  f: MoveFacts,
  piece: Piece,
  stats: HandlingStats,
  forCapture: boolean,
): void => {
  const { rates } = h.options;
  const stops: Square[] = [];
  const line = f.passing.filter(sq => !h.board.has(sq));
  if (line.length > 0 && h.rng.chance(forCapture ? rates.captureStop : rates.stop)) {
    const legal = f.legalStops.filter(sq => line.includes(sq));
    const pool = legal.length > 0 && !h.rng.chance(rates.illegalStop) ? legal : line;
    const first = h.rng.pick(pool);
    if (first !== undefined) stops.push(first);
    const later = line.filter(sq => first !== undefined && f.passing.indexOf(sq) > f.passing.indexOf(first));
    const second = h.rng.chance(0.3) ? h.rng.pick(later) : undefined;
    if (second !== undefined) stops.push(second);
  } else if (h.rng.chance(forCapture ? rates.captureStop * 0.5 : rates.besideStop)) {
    const near = h.emptyNeighbour(f.to, SquareSet.fromSquare(f.from));
    if (near !== undefined) stops.push(near);
  }
  for (const sq of stops) {
    h.put(sq, piece, h.carry());
    h.take(sq, h.dwell());
    if (forCapture) stats.captureStops++;
    else stats.stops++;
    if (f.legalStops.includes(sq) || isLegalStop(f, sq)) stats.legalStops++;
  }
};

/** A stop beside the destination that is itself a legal move of the piece. */
const isLegalStop = (f: MoveFacts, sq: Square): boolean => f.dests.has(sq);

/** A slider registering on one or two squares it passes. */
const slide = (h: Hands, f: MoveFacts, piece: Piece, stats: HandlingStats): boolean => {
  if (!SLIDERS.has(f.piece.role) || f.passing.length === 0 || !h.rng.chance(h.options.rates.slide))
    return false;
  const passed = f.passing.filter(() => h.rng.chance(0.6)).slice(0, 2);
  if (passed.length === 0) return false;
  h.wait(h.scan());
  for (const sq of passed) {
    h.put(sq, piece, h.scan());
    h.take(sq, h.scan());
  }
  stats.slides++;
  return true;
};

const quietMove = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  stats.quiet++;
  const oneStepPawn = f.piece.role === 'pawn' && Math.abs(squareRank(f.to) - squareRank(f.from)) === 1;
  if (
    oneStepPawn &&
    squareFile(f.to) === squareFile(f.from) &&
    h.rng.chance(h.options.rates.placeBeforeLift)
  ) {
    // Scan order: the pawn is seen on its new square before the old one reads empty.
    h.put(f.to, f.piece, 0);
    h.take(f.from, h.scan());
    stats.placeBeforeLift++;
    return;
  }
  h.take(f.from, 0);
  stopsOnTheWay(h, f, f.piece, stats, false);
  const slid = slide(h, f, f.piece, stats);
  h.put(f.to, f.piece, slid ? h.scan() : h.carry());
};

const capture = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const victim = f.captured;
  if (!victim) return quietMove(h, f, stats);
  stats.captures++;
  const { rates } = h.options;
  const roll = h.rng.next();
  if (roll < rates.captureDirect) {
    stats.captureDirect++;
    h.take(f.from, 0);
    stopsOnTheWay(h, f, f.piece, stats, true);
    h.replace(f.to, f.piece, h.carry());
    ghost(h, f.to, victim.piece, stats);
  } else if (roll < rates.captureDirect + rates.captureVictimFirst) {
    stats.captureVictimFirst++;
    h.take(victim.square, 0);
    ghost(h, victim.square, victim.piece, stats);
    h.take(f.from, h.pause());
    stopsOnTheWay(h, f, f.piece, stats, true);
    h.put(f.to, f.piece, h.carry());
  } else {
    stats.captureLiftRemovePlace++;
    h.take(f.from, 0);
    stopsOnTheWay(h, f, f.piece, stats, true);
    h.take(victim.square, h.pause());
    ghost(h, victim.square, victim.piece, stats);
    h.put(f.to, f.piece, h.carry());
  }
};

const enPassant = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const victim = f.captured;
  if (!victim) return quietMove(h, f, stats);
  stats.enPassant++;
  const { rates } = h.options;
  const roll = h.rng.next();
  if (roll < rates.enPassantVictimFirst) {
    stats.enPassantVictimFirst++;
    h.take(victim.square, 0);
    h.take(f.from, h.pause());
    h.put(f.to, f.piece, h.carry());
  } else if (roll < rates.enPassantVictimFirst + rates.enPassantLiftRemovePlace) {
    stats.enPassantLiftRemovePlace++;
    h.take(f.from, 0);
    h.take(victim.square, h.pause());
    h.put(f.to, f.piece, h.carry());
  } else {
    // As seen in the captures: capturer lifted and placed, the captured pawn removed last.
    h.take(f.from, 0);
    h.put(f.to, f.piece, h.carry());
    h.take(victim.square, h.pause());
  }
};

const castling = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const rook = f.rook;
  const rookPiece: Piece = { color: f.color, role: 'rook' };
  if (!rook) return quietMove(h, f, stats);
  stats.castlings++;
  if (f.from === f.to || rook.from === rook.to || rook.from === f.to || rook.to === f.from)
    return castling960(h, f, rook, rookPiece);
  if (h.rng.chance(h.options.rates.castlingRookFirst)) {
    stats.castlingRookFirst++;
    h.take(rook.from, 0);
    h.put(rook.to, rookPiece, h.carry());
    // The rook on f1 is a legal rook move by itself: the king follows within the window.
    h.take(f.from, h.brief());
    h.put(f.to, f.piece, h.carry());
    return;
  }
  h.take(f.from, 0);
  h.put(f.to, f.piece, h.carry());
  // The king stands on its castling square a while (the castling is pending) before the rook goes.
  h.take(rook.from, h.rng.chance(0.5) ? h.dwell() : h.pause());
  h.put(rook.to, rookPiece, h.carry());
};

/**
 * Chess960 castlings that standard handling cannot make: the king or the rook already on its end
 * square, or one ending where the other stood. As FIDE's Chess960 guidelines advise, the king comes
 * off the board first; then the rook goes, and the king is put down (or put back) last. Some
 * players put the king down first once both are in hand, or touch the king before moving only
 * the rook.
 */
const castling960 = (
  h: Hands,
  f: MoveFacts,
  rook: { readonly from: Square; readonly to: Square },
  rookPiece: Piece,
): void => {
  if (rook.from === rook.to) {
    // King-only castling: the rook already stands on its end square.
    h.take(f.from, 0);
    h.put(f.to, f.piece, h.carry());
    return;
  }
  if (f.from === f.to && h.rng.chance(0.3)) {
    // Rook-only castling announced by touching the king: lifted and put back, then the rook.
    h.take(f.from, 0);
    h.put(f.from, f.piece, h.brief());
    h.take(rook.from, h.pause());
    h.put(rook.to, rookPiece, h.carry());
    return;
  }
  h.take(f.from, 0);
  h.take(rook.from, h.brief());
  if (f.from !== f.to && h.rng.chance(0.3)) {
    h.put(f.to, f.piece, h.carry());
    h.put(rook.to, rookPiece, h.carry());
    return;
  }
  h.put(rook.to, rookPiece, h.carry());
  h.put(f.to, f.piece, h.carry());
};

const promotion = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const role = f.promotion ?? 'queen';
  const promoted: Piece = { color: f.color, role };
  stats.promotions++;
  if (role !== 'queen') stats.underPromotions++;
  if (f.captured) {
    stats.captures++;
    stats.captureDirect++;
  }
  if (h.rng.chance(h.options.rates.promotionPawnFirst)) {
    // The pawn goes to the last rank first (replacing a captured piece directly), then is exchanged.
    stats.promotionPawnFirst++;
    h.take(f.from, 0);
    h.replace(f.to, f.piece, h.carry());
    if (f.captured) ghost(h, f.to, f.captured.piece, stats);
    h.take(f.to, h.pause());
    h.put(f.to, promoted, h.carry());
    return;
  }
  // The pawn is taken off the board and the new piece put on the promotion square.
  h.take(f.from, 0);
  h.replace(f.to, promoted, h.carry() + h.rng.int(100, 600));
  if (f.captured) ghost(h, f.to, f.captured.piece, stats);
};

/** Writes the events of one move (no clock press). */
export const makeMove = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  stats.plies++;
  if (f.kind === 'castling') return castling(h, f, stats);
  if (f.kind === 'enPassant') return enPassant(h, f, stats);
  if (f.move.promotion) return promotion(h, f, stats);
  if (f.kind === 'capture') return capture(h, f, stats);
  return quietMove(h, f, stats);
};

/** Before the move: the player adjusts the piece he will move, or announces j'adoube and adjusts another. */
export const adjustBefore = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const { rates } = h.options;
  if (h.rng.chance(rates.adjustMover)) {
    const piece = h.take(f.from, 0);
    if (piece) h.put(f.from, piece, h.rng.int(60, 400));
    h.wait(h.pause());
    stats.adjustments++;
    return;
  }
  if (!h.rng.chance(rates.adjustAnnounced)) return;
  const others = [...h.board[f.color].without(f.from)];
  const square = h.rng.pick(others);
  if (square === undefined) return;
  h.adjust(f.color, 0);
  const piece = h.take(square, h.rng.int(100, 500));
  if (piece) h.put(square, piece, h.rng.int(60, 400));
  h.wait(h.pause());
  stats.adjustments++;
  stats.announcedAdjustments++;
};

/** After the move: the destination flickers, or a piece next to it falls and is set up again. */
export const afterMove = (h: Hands, f: MoveFacts, stats: HandlingStats): void => {
  const { rates } = h.options;
  if (h.rng.chance(rates.flicker)) {
    const piece = h.board.get(f.to);
    if (piece) {
      h.take(f.to, h.scan());
      h.put(f.to, piece, h.scan());
      stats.flickers++;
    }
  }
  if (h.rng.chance(rates.knockOver)) {
    const involved = SquareSet.fromSquare(f.from).with(f.to);
    const near = [...h.board.occupied.intersect(kingAttacks(f.to)).diff(involved)];
    const square = h.rng.pick(near);
    if (square === undefined) return;
    // It falls as the hand withdraws, before the board has been quiet for a settle window: a
    // later fall would read as the opponent's deliberate touch, which a board cannot tell apart.
    const piece = h.take(square, h.rng.int(30, Math.max(30, Math.min(300, h.options.settleMs - 60))));
    if (piece) h.put(square, piece, h.rng.int(200, 1500));
    stats.knockOvers++;
  }
};
