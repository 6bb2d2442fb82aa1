/**
 * Reading the evidence: replaying the board events kept since the last final ply to see which
 * positions the board showed, when, and for how long. Used to choose between explanations that
 * reach the same board (transpositions, captures hiding a lifted piece) and to time moves.
 *
 *   observedAt(st, st.anchor, [afterE4, afterE5]);   // [1, 3]: shown after events 1 and 3
 *   longestDwell(st, st.anchor, afterE4);            // 640 (ms the board showed it, at most)
 */
import type { Board, Chess, NormalMove, Piece, Role, Square } from 'chessops';
import { SquareSet, kingCastlesTo } from 'chessops';
import { castlingSide } from 'chessops/chess';
import type { BoardEvent } from './boardEvent.js';
import {
  type SensedBoard,
  changedBetween,
  diffSquares,
  sensedOfBoard,
  sensedOfContents,
  withContent,
} from './sensedBoard.js';
import { type RecognitionState, madeIndexOf } from './state.js';

/** Applies one sensor event to a sensed board (identities of unknown squares are not inferred). */
export const replayEvent = (s: SensedBoard, e: BoardEvent): SensedBoard => {
  switch (e.kind) {
    case 'square':
      return withContent(s, e.square, e.piece);
    case 'snapshot':
      return sensedOfContents(e.board);
    case 'press':
    case 'adjust':
    case 'tick':
      return s;
  }
};

/**
 * The board a replay starts from: the position, its pieces unidentified where the board reports
 * occupancy only (or an identity-checked replay would reject every `'occupied'` report).
 */
export const replayBase = (st: RecognitionState, board: Board): SensedBoard =>
  sensedOfBoard(board, st.options.occupancyOnly || st.sensed.unknown.nonEmpty());

/** Squares touched by `events`, replayed from `base` (a snapshot touches the squares it changes). */
export const touchedBy = (events: readonly BoardEvent[], base: Board): SquareSet => {
  let touched = SquareSet.empty();
  let s: SensedBoard | undefined;
  for (const e of events) {
    if (e.kind === 'square') {
      touched = touched.with(e.square);
      if (s) s = replayEvent(s, e);
    } else if (e.kind === 'snapshot') {
      // Replay only once a snapshot appears: until then square events alone say what changed.
      s ??= replayUpTo(events, e, base);
      const next = replayEvent(s, e);
      touched = touched.union(changedBetween(s, next));
      s = next;
    }
  }
  return touched;
};

const replayUpTo = (events: readonly BoardEvent[], stop: BoardEvent, base: Board): SensedBoard => {
  let s = sensedOfBoard(base);
  for (const e of events) {
    if (e === stop) break;
    s = replayEvent(s, e);
  }
  return s;
};

/**
 * Where the evidence shows the board passing through `positions` in order: the index of the event
 * after which it first showed each, or undefined when it never showed them all. A true history of
 * several plies normally shows each position; a transposition (Nf3 e5 e4 for e4 e5 Nf3) or a
 * capture that hides a lifted piece (Bh6 Nxh6 for a bishop held in the air after ...Nh6) does not.
 * Squares in `ignore` are not compared (pieces no ply of the story moves, lying knocked over).
 */
export const observedAt = (
  st: RecognitionState,
  root: number,
  positions: readonly Chess[],
  ignore: SquareSet = SquareSet.empty(),
): number[] | undefined => {
  if (positions.length === 0) return [];
  const before = st.game.positionView(root);
  if (!before) return undefined;
  let s = replayBase(st, before.board);
  const seen: number[] = [];
  for (let j = madeIndexOf(st, root) + 1; j <= st.lastChange; j++) {
    const e = st.evidence[j];
    if (!e || e.kind === 'press' || e.kind === 'adjust' || e.kind === 'tick') continue;
    s = replayEvent(s, e);
    const k = e.kind === 'snapshot' ? lastShown(positions, seen.length, s) : seen.length;
    const pos = positions[k];
    if (pos && diffSquares(pos.board, s).diff(ignore).isEmpty()) {
      while (seen.length <= k) seen.push(j);
      if (seen.length === positions.length) return seen;
    }
  }
  return undefined;
};

/**
 * The latest of `positions` from `from` on that `s` shows (else `from`). A snapshot (a dump after a
 * gap) shows where the board got to, not how: it vouches for the claimed positions before the one
 * it shows (a dump after Nxd4 Nf6, then Nc3 seen live: Nxd4 Nf6 Nc3, not Nc3 Nf6 Nxd4).
 */
const lastShown = (positions: readonly Chess[], from: number, s: SensedBoard): number => {
  for (let i = positions.length - 1; i > from; i--) {
    const pos = positions[i];
    if (pos && diffSquares(pos.board, s).isEmpty()) return i;
  }
  return from;
};

/**
 * The longest time the board showed `position` without a change, replaying from `root` (ms; 0
 * when never shown). A position made by a move stays until the opponent reacts; a touch-down or
 * a ghost that only looks like one vanishes sooner. With `after`, only the showings that began
 * after that evidence event count (shown again once the board had left it).
 */
export const longestDwell = (st: RecognitionState, root: number, position: Chess, after = -1): number => {
  const before = st.game.positionView(root);
  if (!before) return 0;
  let s = replayBase(st, before.board);
  let since: number | undefined;
  let best = 0;
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (!e || e.kind === 'press' || e.kind === 'adjust' || e.kind === 'tick') continue;
    // Every kept square or snapshot event changed the board: a run showing `position` ends here.
    if (since !== undefined) best = Math.max(best, e.at - since);
    s = replayEvent(s, e);
    since = j > after && diffSquares(position.board, s).isEmpty() ? e.at : undefined;
  }
  if (since !== undefined) best = Math.max(best, st.now - since);
  return best;
};

/**
 * The index of the last event after which the board showed `board`, replaying from `root` (-1:
 * never): whether a position was shown again after a later move was made, or only before it.
 */
export const lastShownIndex = (st: RecognitionState, root: number, board: Board): number => {
  const before = st.game.positionView(root);
  if (!before) return -1;
  let s = replayBase(st, before.board);
  let last = diffSquares(board, s).isEmpty() ? madeIndexOf(st, root) : -1;
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (!e || e.kind === 'press' || e.kind === 'adjust' || e.kind === 'tick') continue;
    s = replayEvent(s, e);
    if (diffSquares(board, s).isEmpty()) last = j;
  }
  return last;
};

/** Pieces lifted since the last final ply (each ply lifts one at least). */
export const liftsSince = (st: RecognitionState): number =>
  st.evidence.filter(e => e.kind === 'square' && e.piece === 'empty').length;

/** What the evidence since `root` shows on each square (index): how occupancy-only captures are judged. */
export interface SquareHistory {
  /** How many times each square was emptied. */
  readonly emptied: readonly number[];
  /** Index of the first event emptying each square (-1: none). */
  readonly firstEmptied: readonly number[];
  /** Index of the last event filling each square (-1: none). */
  readonly lastFilled: readonly number[];
  /** What was set down on each square: a bit per piece (`pieceBit`), one for an unidentified one. */
  readonly landed: readonly number[];
}

const ROLES: readonly Role[] = ['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'];
const OCCUPIED_BIT = 1 << 12;
const pieceBit = (p: Piece): number => 1 << ((p.color === 'white' ? 0 : 6) + ROLES.indexOf(p.role));

/** Square by square history of the events since `root` (a snapshot counts for the squares it shows). */
export const squareHistory = (st: RecognitionState, root: number): SquareHistory => {
  const emptied = new Array<number>(64).fill(0);
  const firstEmptied = new Array<number>(64).fill(-1);
  const lastFilled = new Array<number>(64).fill(-1);
  const landed = new Array<number>(64).fill(0);
  const note = (sq: number, content: Piece | 'empty' | 'occupied', j: number): void => {
    if (content !== 'empty') {
      lastFilled[sq] = j;
      landed[sq] = (landed[sq] ?? 0) | (content === 'occupied' ? OCCUPIED_BIT : pieceBit(content));
      return;
    }
    emptied[sq] = (emptied[sq] ?? 0) + 1;
    if (firstEmptied[sq] === -1) firstEmptied[sq] = j;
  };
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (e?.kind === 'square') note(e.square, e.piece, j);
    else if (e?.kind === 'snapshot') e.board.forEach((c, sq) => note(sq, c, j));
  }
  return { emptied, firstEmptied, lastFilled, landed };
};

/**
 * Ranks moves for the search (`SearchOptions.order`, lower first): first those whose piece the
 * events show set down where the move puts it, then by when the square it leaves was first
 * emptied, then those whose piece stands there now. The true story's moves come first so, and
 * where the search's budget runs out it has tried them (...Rb8 before ...Na5 when a8 was lifted
 * first, not ...Ra7 that nobody played).
 */
export const moveOrder =
  (h: SquareHistory, sensed: SensedBoard) =>
  (pos: Chess, move: NormalMove): number => {
    const color = pos.turn;
    const role = move.promotion ?? pos.board.getRole(move.from) ?? 'pawn';
    // Castling is the king taking its own rook: the king's square is where it lands.
    const side = castlingSide(pos, move);
    const to = side ? kingCastlesTo(color, side) : move.to;
    const landed = h.landed[to] ?? 0;
    const seen = (landed & (OCCUPIED_BIT | pieceBit({ color, role }))) !== 0;
    const lifted = h.firstEmptied[move.from] ?? -1;
    const stands =
      sensed.occupied.has(to) && (sensed.unknown.has(to) || (sensed[color].has(to) && sensed[role].has(to)));
    return ((seen ? 0 : 1 << 20) + (lifted < 0 ? (1 << 20) - 1 : lifted)) * 2 + (stands ? 0 : 1);
  };

/** Where a piece standing at the root went, following the hands through the square events. */
export interface Trail {
  readonly piece: Piece;
  /** The square it was last on. */
  readonly last: Square;
  /** Lifted and not set down since, or standing on `last`. */
  readonly inHand: boolean;
  /**
   * Captured: replaced where it stood, or its square taken by a piece of the other colour that
   * stayed; whatever the hand did with it after (a ghost).
   */
  readonly taken: boolean;
  /** Set down while another like piece was in a hand too: which of them went where is a guess. */
  readonly unsure: boolean;
}

/**
 * Follows the pieces of the position at `root` through the square events since: a lift takes the
 * piece into the hand; a piece set down where one stood takes it (captured, into the hand), and
 * so does one set down and staying where one of the other colour was lifted from and is still in
 * the hand; a like piece set down is the one lifted last (a piece of a kind none is in the hand
 * of is not followed). Keyed by the square each stood on at the root. Undefined where the events
 * cannot be followed (a snapshot, a board that reads occupancy only).
 */
export const trailsFrom = (st: RecognitionState, root: number): Map<Square, Trail> | undefined => {
  const before = st.game.positionView(root);
  if (!before) return undefined;
  const trails = new Map<Square, { -readonly [K in keyof Trail]: Trail[K] }>();
  const on = new Map<Square, Square>();
  for (const [sq, piece] of before.board) {
    trails.set(sq, { piece, last: sq, inHand: false, taken: false, unsure: false });
    on.set(sq, sq);
  }
  const hands = new Map<string, Square[]>();
  const liftedFrom = new Map<Square, Square>();
  const captured = new Map<Square, Square>();
  const kind = (p: Piece): string => `${p.color} ${p.role}`;
  const lift = (id: Square): void => {
    const t = trails.get(id);
    if (!t) return;
    t.inHand = true;
    hands.set(kind(t.piece), [...(hands.get(kind(t.piece)) ?? []), id]);
  };
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const ev = st.evidence[j];
    if (ev?.kind === 'snapshot') return undefined;
    if (ev?.kind !== 'square') continue;
    if (ev.piece === 'occupied') return undefined;
    const id = on.get(ev.square);
    on.delete(ev.square);
    if (id !== undefined) lift(id);
    if (ev.piece === 'empty') {
      // A piece set down where one of the other colour had been lifted from, lifted again: it
      // went on from there (a stop where a piece had been knocked off), nothing was taken.
      const victim = captured.get(ev.square);
      const v = victim === undefined ? undefined : trails.get(victim);
      if (v) v.taken = false;
      captured.delete(ev.square);
      const from = id ?? victim;
      if (from !== undefined) liftedFrom.set(ev.square, from);
      continue;
    }
    // Taken where it stood, or where it was lifted from, the capturer set down there and staying
    // (the captured piece taken off first).
    const gone = id ?? liftedFrom.get(ev.square);
    const taken = gone === undefined ? undefined : trails.get(gone);
    if (taken && id !== undefined) taken.taken = true;
    else if (gone !== undefined && taken?.inHand && taken.piece.color !== ev.piece.color) {
      taken.taken = true;
      captured.set(ev.square, gone);
    }
    liftedFrom.delete(ev.square);
    const hand = hands.get(kind(ev.piece)) ?? [];
    // The piece just taken is not the one set down in its place.
    const k = hand.length - 1 - (hand[hand.length - 1] === id ? 1 : 0);
    const lifted = hand[k];
    const moved = lifted === undefined ? undefined : trails.get(lifted);
    if (lifted === undefined || !moved) continue;
    hand.splice(k, 1);
    if (hand.some(o => o !== id)) {
      moved.unsure = true;
      for (const other of hand) {
        const o = trails.get(other);
        if (o && other !== id) o.unsure = true;
      }
    }
    moved.inHand = false;
    moved.last = ev.square;
    on.set(ev.square, lifted);
  }
  return trails;
};
