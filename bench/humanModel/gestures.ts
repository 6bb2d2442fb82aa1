/**
 * How a person's hands make one move on a sensor board, as square changes on a Timeline: plain
 * lift-and-place, rests on squares on the way (on the piece's line or next to its destination,
 * legal or not, sometimes recreating an earlier position), the three capture orders with a ghost
 * of the captured piece, castling king first / both in hand / rook first, en passant orders and
 * promotions (sometimes with the pawn set down on the last rank first). Frequencies come from
 * HandlingParams; what was chosen is returned as tags, so failures can be grouped by pattern.
 *
 *   const tags = makeMove(tl, rng, params, shapeOf(pos, move)!, { pos, earlier });
 */
import type { Chess } from 'chessops/chess';
import type { Piece, Square } from 'chessops';
import { makeBoardFen } from 'chessops/fen';
import type { HandlingParams } from './params.js';
import type { Rng } from './rng.js';
import { type MoveShape, lineBetween, neighbours, scanIndex } from './moveShape.js';
import type { Timeline } from './timeline.js';

/** What a gesture may look at: the position before the move, the board fields of earlier positions. */
export interface MoveContext {
  readonly pos: Chess;
  readonly earlier: ReadonlySet<string>;
}

interface Hands {
  readonly tl: Timeline;
  readonly rng: Rng;
  readonly p: HandlingParams;
  readonly ctx: MoveContext;
  readonly tags: string[];
}

const travel = (h: Hands): void => h.tl.wait(h.rng.between(h.p.travelMs[0], h.p.travelMs[1]));
const shortTravel = (h: Hands): void => h.tl.wait(h.rng.between(150, 500));
const dwell = (h: Hands): void => h.tl.wait(h.rng.between(h.p.dwellMs[0], h.p.dwellMs[1]));

/** Would the board, with `piece` moved from `from` to `stop` (and `removed` emptied), show an earlier position? */
const recreates = (
  ctx: MoveContext,
  from: Square,
  stop: Square,
  piece: Piece,
  removed: Square[],
): boolean => {
  const board = ctx.pos.board.clone();
  board.take(from);
  for (const sq of removed) board.take(sq);
  board.set(stop, piece);
  return ctx.earlier.has(makeBoardFen(board));
};

/**
 * Up to `count` squares the piece rests on between `from` and `to`: on its line (legal stops for a
 * slider or a double push), or next to the destination (a knight or king set down beside it, or a
 * slider off its line). Only empty squares; in travel order.
 */
const chooseStops = (
  h: Hands,
  from: Square,
  to: Square,
  piece: Piece,
  count: number,
  removed: Square[],
): Square[] => {
  const free = (s: Square): boolean => s !== from && s !== to && h.tl.isEmpty(s);
  const line = lineBetween(from, to).filter(free);
  const near = neighbours(to).filter(s => free(s) && !line.includes(s));
  const jumper = piece.role === 'knight' || (piece.role === 'king' && line.length === 0);
  const out: Square[] = [];
  for (let k = 0; k < count; k++) {
    const offLine = jumper || line.length === 0 || h.rng.chance(h.p.offLine);
    const pool = (offLine ? near : line).filter(s => !out.includes(s));
    if (pool.length === 0) break;
    const repeats = pool.filter(s => recreates(h.ctx, from, s, piece, removed));
    const pickRepeat = repeats.length > 0 && h.rng.chance(h.p.repeatStop);
    const sq = h.rng.pick(pickRepeat ? repeats : pool);
    h.tags.push(
      pickRepeat ? 'stop-repeat' : offLine ? (jumper ? 'stop-next-to' : 'stop-off-line') : 'stop-line',
    );
    out.push(sq);
  }
  // Along a line the hand passes the nearer square first.
  const dist = (s: Square): number => Math.abs((s & 7) - (from & 7)) + Math.abs((s >> 3) - (from >> 3));
  return out.sort((a, b) => dist(a) - dist(b));
};

/** How many stops a move makes (0, 1 or 2) at rate `rate`. */
const stopCount = (h: Hands, rate: number): number =>
  h.rng.chance(rate) ? (h.rng.chance(h.p.secondStop) ? 2 : 1) : 0;

/**
 * The piece leaves `from`, rests on each stop, lands on `to` (the target's content is replaced
 * directly). Without stops a slide may register on every empty square passed; the landing square
 * may flicker.
 */
const carry = (h: Hands, from: Square, to: Square, piece: Piece, stops: Square[]): void => {
  h.tl.set(from, 'empty');
  for (const s of stops) {
    shortTravel(h);
    h.tl.set(s, piece);
    dwell(h);
    h.tl.set(s, 'empty');
  }
  const passed = lineBetween(from, to);
  if (
    stops.length === 0 &&
    passed.length > 0 &&
    passed.every(s => h.tl.isEmpty(s)) &&
    h.rng.chance(h.p.slide)
  ) {
    h.tags.push('slide');
    for (const s of passed) {
      h.tl.wait(h.rng.between(30, 150));
      h.tl.set(s, piece);
      h.tl.wait(h.rng.between(40, 200));
      h.tl.set(s, 'empty');
    }
    h.tl.wait(h.rng.between(30, 150));
  } else travel(h);
  h.tl.set(to, piece);
  if (h.rng.chance(h.p.flicker)) {
    h.tags.push('flicker');
    h.tl.wait(h.rng.between(60, 250));
    h.tl.set(to, 'empty');
    h.tl.wait(h.rng.between(20, 100));
    h.tl.set(to, piece);
  }
};

/** A captured piece carried off may register for a moment on an empty square next to where it stood. */
const ghost = (h: Hands, near: Square, piece: Piece): void => {
  if (!h.rng.chance(h.p.ghost)) return;
  const spots = neighbours(near).filter(s => h.tl.isEmpty(s));
  if (spots.length === 0) return;
  const sq = h.rng.pick(spots);
  h.tags.push('ghost');
  h.tl.wait(h.rng.between(40, 300));
  h.tl.set(sq, piece);
  h.tl.wait(h.rng.between(80, 400));
  h.tl.set(sq, 'empty');
};

const quiet = (h: Hands, s: Extract<MoveShape, { kind: 'quiet' }>): void => {
  const onePush = s.piece.role === 'pawn' && Math.abs(s.to - s.from) === 8;
  if (onePush && h.rng.chance(h.p.placeBeforeLift)) {
    h.tags.push('place-before-lift');
    h.tl.set(s.to, s.piece);
    h.tl.wait(h.rng.between(10, 90));
    h.tl.set(s.from, 'empty');
    return;
  }
  const jumper = s.piece.role === 'knight' || s.piece.role === 'king';
  const n = stopCount(h, jumper ? h.p.nextTo : h.p.stop);
  carry(h, s.from, s.to, s.piece, chooseStops(h, s.from, s.to, s.piece, n, []));
};

const capture = (h: Hands, s: Extract<MoveShape, { kind: 'capture' }>): void => {
  const order = h.rng.weighted([h.p.captureDirect, h.p.capturedFirst, h.p.capturerFirst]);
  const n = stopCount(h, h.p.captureStop);
  if (order === 0) {
    h.tags.push('capture-direct');
    carry(h, s.from, s.to, s.piece, chooseStops(h, s.from, s.to, s.piece, n, []));
  } else if (order === 1) {
    h.tags.push('capture-captured-first');
    h.tl.set(s.to, 'empty');
    h.tl.wait(h.rng.between(300, 1500));
    carry(h, s.from, s.to, s.piece, chooseStops(h, s.from, s.to, s.piece, n, [s.to]));
  } else {
    h.tags.push('capture-capturer-first');
    const stops = chooseStops(h, s.from, s.to, s.piece, n, []);
    h.tl.set(s.from, 'empty');
    for (const st of stops) {
      shortTravel(h);
      h.tl.set(st, s.piece);
      dwell(h);
      h.tl.set(st, 'empty');
    }
    travel(h);
    h.tl.set(s.to, 'empty');
    h.tl.wait(h.rng.between(200, 800));
    h.tl.set(s.to, s.piece);
  }
  ghost(h, s.to, s.captured);
};

const castle = (h: Hands, s: Extract<MoveShape, { kind: 'castle' }>): void => {
  const order = h.rng.weighted([h.p.castleKingFirst, h.p.castleBothInHand, h.p.castleRookFirst]);
  const overlap = s.kingTo === s.rookFrom || s.rookTo === s.kingFrom;
  if (order === 1 && !overlap) {
    // Both lifted together: the board reports them in its scan order, a few ms apart.
    h.tags.push('castle-both-in-hand');
    const [first, second] =
      scanIndex(s.kingFrom) < scanIndex(s.rookFrom) ? [s.kingFrom, s.rookFrom] : [s.rookFrom, s.kingFrom];
    h.tl.set(first, 'empty');
    h.tl.wait(h.rng.between(0, 40));
    h.tl.set(second, 'empty');
    travel(h);
    const kingFirst = h.rng.chance(0.5);
    h.tl.set(kingFirst ? s.kingTo : s.rookTo, kingFirst ? s.king : s.rook);
    h.tl.wait(h.rng.between(20, 300));
    h.tl.set(kingFirst ? s.rookTo : s.kingTo, kingFirst ? s.rook : s.king);
    return;
  }
  const king = (): void => {
    const stops = h.rng.chance(h.p.stop)
      ? lineBetween(s.kingFrom, s.kingTo)
          .filter(sq => h.tl.isEmpty(sq))
          .slice(0, 1)
      : [];
    if (stops.length > 0) h.tags.push('stop-castle-king');
    carry(h, s.kingFrom, s.kingTo, s.king, stops);
  };
  const rook = (): void => carry(h, s.rookFrom, s.rookTo, s.rook, []);
  if (order === 2 && !overlap) {
    h.tags.push('castle-rook-first');
    rook();
    h.tl.wait(h.rng.between(150, 700));
    king();
  } else {
    h.tags.push('castle-king-first');
    if (overlap) {
      // Chess960 with shared squares: both in hand, then set down.
      h.tl.set(s.kingFrom, 'empty');
      h.tl.set(s.rookFrom, 'empty');
      travel(h);
      h.tl.set(s.kingTo, s.king);
      h.tl.set(s.rookTo, s.rook);
      return;
    }
    king();
    h.tl.wait(h.rng.between(150, 700));
    rook();
  }
};

const enPassant = (h: Hands, s: Extract<MoveShape, { kind: 'enPassant' }>): void => {
  const order = h.rng.weighted([h.p.epCapturedLast, h.p.epCapturedFirst, h.p.epCapturerInHand]);
  if (order === 0) {
    h.tags.push('ep-captured-last');
    carry(h, s.from, s.to, s.piece, []);
    h.tl.wait(h.rng.between(200, 900));
    h.tl.set(s.capturedOn, 'empty');
  } else if (order === 1) {
    h.tags.push('ep-captured-first');
    h.tl.set(s.capturedOn, 'empty');
    h.tl.wait(h.rng.between(300, 1200));
    carry(h, s.from, s.to, s.piece, []);
  } else {
    h.tags.push('ep-capturer-in-hand');
    h.tl.set(s.from, 'empty');
    travel(h);
    h.tl.set(s.capturedOn, 'empty');
    h.tl.wait(h.rng.between(200, 700));
    h.tl.set(s.to, s.piece);
  }
};

const promotion = (h: Hands, s: Extract<MoveShape, { kind: 'promotion' }>): void => {
  const pawnFirst = h.rng.chance(h.p.promoPawnFirst);
  const capturedFirst = s.captured !== undefined && h.rng.chance(0.5);
  h.tags.push(pawnFirst ? 'promo-pawn-first' : 'promo-pawn-off');
  if (capturedFirst) {
    h.tags.push('capture-captured-first');
    h.tl.set(s.to, 'empty');
    h.tl.wait(h.rng.between(300, 1200));
  }
  h.tl.set(s.from, 'empty');
  travel(h);
  if (pawnFirst) {
    // Set down on the last rank (replacing a captured piece directly), then swapped for the new piece.
    h.tl.set(s.to, s.pawn);
    h.tl.wait(h.rng.between(300, 1500));
    h.tl.set(s.to, 'empty');
  } else if (s.captured !== undefined) h.tl.set(s.to, 'empty');
  h.tl.wait(h.rng.between(500, 3000));
  h.tl.set(s.to, s.promoted);
  if (s.captured !== undefined) ghost(h, s.to, s.captured);
};

/** Makes the move on the timeline; returns the tags of the handling chosen. */
export const makeMove = (
  tl: Timeline,
  rng: Rng,
  p: HandlingParams,
  shape: MoveShape,
  ctx: MoveContext,
): string[] => {
  const h: Hands = { tl, rng, p, ctx, tags: [] };
  switch (shape.kind) {
    case 'quiet':
      quiet(h, shape);
      break;
    case 'capture':
      capture(h, shape);
      break;
    case 'castle':
      castle(h, shape);
      break;
    case 'enPassant':
      enPassant(h, shape);
      break;
    case 'promotion':
      promotion(h, shape);
      break;
  }
  return h.tags;
};
