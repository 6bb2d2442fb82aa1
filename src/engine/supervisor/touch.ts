/**
 * What the player having the move touched, from the board events of his turn: each piece is
 * followed from the square it stood on when the turn began (its origin), so a piece lifted, set
 * down and lifted again is one piece. The trace lists the first touch of each piece (own or the
 * opponent's), where a piece was set down and for how long (a release, Art. 4.7), and the first
 * promotion piece put on each square (4.4.4). A board cannot see hands, so only unambiguous
 * evidence is a touch: a piece put back after a j'adoube, or put back after being lifted while
 * the player already held a piece of his own (knocked by the hand), is none. Ghosts and other
 * pieces that were not on the board at the start of the turn have no origin and are never
 * touches; what happens once the board shows the move made is no part of it (`madeWithin`).
 *
 *   const t = traceTurn(pos, events, { openAt: 900, settleMs: 300 });
 *   t.touches[0];   // { origin: 6, own: true, at: 1200, ... }  (Ng1 lifted first)
 *   isAttended(attendance(previous, pos, events, madeAt, openAt, clock), t.origin, t.at); // proven?
 */
import type { Color, Piece, Position, Role, Square } from 'chessops';
import { ROLES, SquareSet, kingAttacks } from 'chessops';
import type { BoardEvent, SensedContent } from '../recognition/boardEvent.js';

export interface Touch {
  /** Square of the piece when the turn began. */
  readonly origin: Square;
  readonly piece: Piece;
  /** The piece belongs to the player having the move. */
  readonly own: boolean;
  readonly at: number;
  readonly event: BoardEvent;
  /** The piece was put back on its origin at some point after this touch. */
  readonly returned: boolean;
}

/** A piece set down away from its origin, and when it was lifted again (undefined: still there). */
export interface Placement {
  readonly origin: Square;
  readonly square: Square;
  readonly since: number;
  readonly until: number | undefined;
}

export interface TurnTrace {
  readonly color: Color;
  /** First touch of each piece, in time order (own first on equal times). */
  readonly touches: readonly Touch[];
  readonly placements: readonly Placement[];
  /** The first promotion piece (not a piece from the board) put on each square. */
  readonly newPieces: ReadonlyMap<Square, Role>;
  /** A snapshot re-read the board: the trace cannot be trusted. */
  readonly uncertain: boolean;
  /** Time of the player's last press in the turn (an illegal move completed and reinstated), or -Infinity. */
  readonly reinstatedAt: number;
}

export interface TraceOptions {
  /** Touches before this time are not the player's (the opponent was still at the board). */
  readonly openAt: number;
  readonly settleMs: number;
}

interface InHand {
  readonly origin: number;
  readonly piece: Piece | undefined;
  readonly at: number;
  /** Lifted after a j'adoube of the player having the move. */
  readonly adjusting: boolean;
  /** Lifted while the player already held a piece of his own: a knock of the hand, not a touch, if put back. */
  readonly holding: boolean;
  readonly touchIndex: number;
}

/** Whether a square of `board` reads `content` (occupancy-only: any piece). */
const shows = (board: Position['board'], sq: Square, content: SensedContent): boolean => {
  const p = board.get(sq);
  if (content === 'empty') return p === undefined;
  if (content === 'occupied') return p !== undefined;
  return p !== undefined && p.color === content.color && p.role === content.role;
};

const matches = (content: SensedContent, piece: Piece | undefined): boolean =>
  content === 'occupied' ||
  (piece !== undefined &&
    content !== 'empty' &&
    content.color === piece.color &&
    content.role === piece.role);

/** Follows the pieces of `pos` through `events` (the turn of `pos.turn`). */
export const traceTurn = (pos: Position, events: readonly BoardEvent[], opts: TraceOptions): TurnTrace => {
  const color = pos.turn;
  /** origin of the piece on each square (-1: a piece with no origin); absent: empty. */
  const on = new Map<Square, number>();
  for (const [sq] of pos.board) on.set(sq, sq);
  const pieceOf = (origin: number): Piece | undefined => (origin >= 0 ? pos.board.get(origin) : undefined);
  const hand: InHand[] = [];
  /** `excused`: put back after a j'adoube, or knocked while a piece was in hand. */
  const touches: (Touch & { excused: boolean })[] = [];
  const touched = new Set<number>();
  const placements: Placement[] = [];
  const open = new Map<Square, number>(); // square -> index in placements
  const newPieces = new Map<Square, Role>();
  /** j'adoube announced: by the player having the move (any piece), or by the opponent (his own pieces, out of turn). */
  let adjustingAll = false;
  let adjustingOpponent = false;
  let uncertain = false;
  let reinstatedAt = Number.NEGATIVE_INFINITY;

  const lift = (sq: Square, e: BoardEvent): void => {
    const origin = on.get(sq);
    if (origin === undefined) return;
    on.delete(sq);
    const idx = open.get(sq);
    if (idx !== undefined) {
      const p = placements[idx];
      if (p) placements[idx] = { ...p, until: e.at };
      open.delete(sq);
    }
    let touchIndex = -1;
    const piece = pieceOf(origin);
    if (origin >= 0 && piece && !touched.has(origin) && e.at >= opts.openAt) {
      touched.add(origin);
      touchIndex = touches.length;
      touches.push({
        origin,
        piece,
        own: piece.color === color,
        at: e.at,
        event: e,
        excused: false,
        returned: false,
      });
    }
    const adjusting = adjustingAll || (adjustingOpponent && piece !== undefined && piece.color !== color);
    // A piece lifted after one of the player's own was already in hand (not in the same frame:
    // king and rook lifted together are both touched) and then put back may have been knocked.
    const holding = hand.some(h => h.origin >= 0 && h.piece?.color === color && h.at < e.at);
    hand.push({ origin, piece, at: e.at, adjusting, holding, touchIndex });
  };

  const place = (sq: Square, content: Exclude<SensedContent, 'empty'>, e: BoardEvent): void => {
    // The piece of the square set down on it without being lifted in the turn: it was off the
    // board when the turn began (knocked over, and now set up again by either player). Restoring
    // a displaced piece (7.4) touches nothing the board can prove.
    if (on.get(sq) === sq && matches(content, pos.board.get(sq)) && !touched.has(sq)) return;
    if (on.has(sq)) lift(sq, e);
    let i = hand.findIndex(h => h.origin === sq && matches(content, h.piece));
    if (i < 0) {
      for (let j = hand.length - 1; j >= 0; j--) {
        if (matches(content, hand[j]?.piece)) {
          i = j;
          break;
        }
      }
    }
    const h = i >= 0 ? hand[i] : undefined;
    if (!h) {
      on.set(sq, -1);
      if (
        content !== 'occupied' &&
        content.color === color &&
        content.role !== 'pawn' &&
        content.role !== 'king'
      )
        if (!newPieces.has(sq)) newPieces.set(sq, content.role);
      return;
    }
    hand.splice(i, 1);
    on.set(sq, h.origin);
    if (h.origin === sq) {
      // Put back where it stood: with a j'adoube announced first, an adjustment, not a touch; lifted
      // while the hand held another piece of the player's, perhaps knocked: no evidence of intent.
      const first = touches.findIndex(t => t.origin === sq);
      const t = touches[first];
      if (t)
        touches[first] = {
          ...t,
          returned: true,
          excused: t.excused || ((h.adjusting || h.holding) && h.touchIndex === first),
        };
      return;
    }
    open.set(sq, placements.length);
    placements.push({ origin: h.origin, square: sq, since: e.at, until: undefined });
  };

  for (const e of events) {
    switch (e.kind) {
      case 'square':
        if (e.piece === 'empty') lift(e.square, e);
        else place(e.square, e.piece, e);
        break;
      case 'snapshot':
        uncertain = true;
        break;
      case 'adjust':
        if (e.side === color) adjustingAll = true;
        else adjustingOpponent = true;
        break;
      case 'press':
        if (e.side === color) reinstatedAt = e.at;
        break;
      case 'tick':
        break;
    }
  }
  const kept = touches
    .filter(t => !t.excused)
    .map(({ excused: _excused, ...t }) => t)
    .sort((a, b) => a.at - b.at || (a.own === b.own ? 0 : a.own ? -1 : 1));
  return { color, touches: kept, placements, newPieces, uncertain, reinstatedAt };
};

/** The squares whose content differs between `before` and `after` (a move's squares). */
const changedSquares = (before: Position, after: Position): SquareSet => {
  const [a, b] = [before.board, after.board];
  let changed = a.white.xor(b.white).union(a.black.xor(b.black));
  for (const role of ROLES) changed = changed.union(a[role].xor(b[role]));
  return changed;
};

/**
 * How many of `events` it took to make the move from `pos` to `after`: up to the first event after
 * which the squares the move changes show `after` and have all reported (an occupancy-only board
 * shows a capture's squares occupied as soon as the capturer is lifted). Once the board shows the
 * move, it is made (4.7): what is touched afterwards (a piece knocked over as the hand withdraws,
 * the opponent starting his reply within the settle window, a piece lying since before set up
 * again) is no touch of this move. Other squares do not hold the move back: a piece lying knocked
 * over elsewhere (7.4) is no part of it. All of `events` when the board never showed the move, or
 * was re-read (a snapshot).
 */
export const madeWithin = (pos: Position, after: Position, events: readonly BoardEvent[]): number => {
  const b = after.board;
  const moved = changedSquares(pos, after);
  let differs = moved;
  let unreported = moved;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e?.kind === 'snapshot') return events.length;
    if (e?.kind !== 'square' || !moved.has(e.square)) continue;
    unreported = unreported.without(e.square);
    differs = shows(b, e.square, e.piece) ? differs.without(e.square) : differs.with(e.square);
    if (differs.isEmpty() && unreported.isEmpty()) return i + 1;
  }
  return events.length;
};

/**
 * When the player having the move may be taken to be at the board: from the opponent's press
 * after his move or, when he did not press before this move was made, from the first quiet spell
 * (`settleMs` without a sensor event) with the board showing the position after the opponent's
 * move (`pos`): he has finished and nothing is in hand. Before that, pieces knocked over and set
 * up again are the opponent's, and so are the first touches of a reply made within the window.
 */
export const turnOpenAt = (
  pos: Position,
  events: readonly BoardEvent[],
  previousMadeAt: number | undefined,
  settleMs: number,
): number => {
  if (previousMadeAt === undefined) return Number.NEGATIVE_INFINITY;
  const opponent = pos.turn === 'white' ? 'black' : 'white';
  const press = events.find(e => e.kind === 'press' && e.side === opponent && e.at >= previousMadeAt);
  if (press) return press.at;
  const differs = new Set<Square>();
  let last = previousMadeAt;
  for (const e of events) {
    if (e.kind !== 'square' && e.kind !== 'snapshot') continue;
    if (e.at - last >= settleMs && differs.size === 0) return last + settleMs;
    if (e.kind === 'snapshot') return Number.POSITIVE_INFINITY;
    if (shows(pos.board, e.square, e.piece)) differs.delete(e.square);
    else differs.add(e.square);
    last = e.at;
  }
  return Number.POSITIVE_INFINITY;
};

/**
 * When a piece of the mover's lifted and put back is surely his touch, the opponent's hand gone
 * from the board: with a clock, from the opponent's press after his move (until then that hand may
 * be setting up a piece it knocked over, 7.4); without one (or on the first move), from when the
 * turn opened, except beside the squares the opponent's move changed for `WITHDRAW_MS` after it
 * was made, where the withdrawing hand may have knocked a piece over.
 */
export interface Attendance {
  readonly from: number;
  readonly near: SquareSet;
  readonly until: number;
}

/**
 * How long after his move is made the opponent's withdrawing hand may knock over a piece beside it.
 * Not measured (the real captures had no knocked pieces, reference §5.5): a hand leaves the board
 * within about a second.
 */
const WITHDRAW_MS = 1000;

/**
 * The attendance for the move from `pos` (the opponent's move went from `previous` to `pos`, made
 * at `previousMadeAt`; `clock`: presses are seen in this game).
 */
export const attendance = (
  previous: Position | undefined,
  pos: Position,
  events: readonly BoardEvent[],
  previousMadeAt: number | undefined,
  openAt: number,
  clock: boolean,
): Attendance => {
  const opponent = pos.turn === 'white' ? 'black' : 'white';
  if (previousMadeAt === undefined || !previous)
    return { from: openAt, near: SquareSet.empty(), until: Number.NEGATIVE_INFINITY };
  if (clock) {
    const press = events.find(e => e.kind === 'press' && e.side === opponent && e.at >= previousMadeAt);
    return {
      from: press?.at ?? Number.POSITIVE_INFINITY,
      near: SquareSet.empty(),
      until: Number.NEGATIVE_INFINITY,
    };
  }
  let near = SquareSet.empty();
  for (const sq of changedSquares(previous, pos)) near = near.union(kingAttacks(sq));
  return { from: openAt, near, until: previousMadeAt + WITHDRAW_MS };
};

/** Whether a touch of `origin` at `at` can only have been the mover's (see `Attendance`). */
export const isAttended = (a: Attendance, origin: Square, at: number): boolean =>
  at >= a.from && !(a.near.has(origin) && at < a.until);
