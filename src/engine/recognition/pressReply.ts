/**
 * A press that nothing on the board explains, read once more with the reply set aside: the
 * presser's move complete and the opponent's reply begun before the press message arrived (the
 * reply's piece set down on its way, a pawn set down before it is lifted, the captured piece
 * carried over a square next to the capture). Every move is still played from the game's
 * position, so an illegal move of the presser's is never excused.
 *
 *   const reply = replyInHand(st, 'white', root => searchOptionsFrom(root));
 *   if (reply) decidePartial(st, reply.root, reply.members, now, trigger);
 *
 * And what the readings of a press share with those after a missed one (missedPress.ts):
 * `isPressedStory`; `shownBut`, a story shown but for pieces knocked over; `lastSetDown`, of
 * stories that differ in where the presser's piece went, the one where it was set down last;
 * `lastLifted`, of stories that differ in which piece made the move, the one a hand lifted and set
 * down on the move's square (followed through the events), else the one that left its square last.
 */
import type { Chess, Color, Piece, Square } from 'chessops';
import { SquareSet, kingAttacks, opposite } from 'chessops';
import { claimedBy, claimsStood } from './choose.js';
import { lastShownIndex, longestDwell, observedAt, trailsFrom } from './evidence.js';
import { type Explanation, type SearchOptions, bystanders, changedBy, explain } from './search.js';
import { diffSquares, pieceAt, withContent } from './sensedBoard.js';
import { type RecognitionState, madeIndexOf, positionAt } from './state.js';

/** What the reply leaves to be decided: the root and the stories of the presser's move from it. */
export interface ReplyReading {
  readonly root: number;
  readonly members: readonly Explanation[];
}

/**
 * Whether the story, from `root` and ending with the presser's move, stands as the board, or
 * leaves only pieces of `opponent`'s lifted: the reply begun, nothing of the presser's in hand
 * but pieces his move did not touch, no king (knocked over as the hand withdrew: displaced).
 */
export const leavesTheirsLifted = (e: Explanation, opponent: Color, root: Chess): boolean => {
  const after = e.positions[e.positions.length - 1];
  const last = e.path[e.path.length - 1];
  if (!after || !last) return false;
  if (e.residual.kind === 'none') return true;
  if (e.residual.kind !== 'lifted') return false;
  const before = e.positions.length >= 2 ? e.positions[e.positions.length - 2] : root;
  const displaced = bystanders(before ?? root, last, after);
  return e.residual.squares.diff(after.board[opponent]).diff(displaced).isEmpty();
};

/** The roots a press may be read from: the tip, then each revisable ply, with the presser to move. */
function* presserRoots(st: RecognitionState, presser: Color): Generator<[number, Chess]> {
  for (let root = st.game.length; root >= st.anchor; root--) {
    const pos = positionAt(st, root);
    if (pos.turn === presser) yield [root, pos];
  }
}

/**
 * At `presser`'s press, the board explained with the opponent's identified pieces that stand off
 * the game's squares taken as lifted: from the tip, then from each revisable ply, one move of the
 * presser's that leaves only the opponent's pieces unexplained. That is the presser's move
 * complete and the reply begun before the press was reported (a king set down on d7 on its way to
 * e8, a pawn set on h3 before it is lifted from h2). Else, or when the presser's move so read was
 * a piece passing over a square (Rf7, the rook sliding to f8) and the board shows his move standing
 * with the reply capturing and the captured piece's ghost (Rf8+ ...Kxf8, the rook carried off over
 * f7): that reading (`capturedInHand`).
 */
export const replyInHand = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): ReplyReading | undefined => {
  const reply = theirsInHand(st, presser, from);
  if (!reply) return capturedInHand(st, presser, from);
  if (reply.members.some(e => claimsStood(st, reply.root, 'partial', e))) {
    const ghost = capturedInHand(st, presser, from);
    return ghost && wentOnFromStop(st, reply, ghost) ? ghost : reply;
  }
  const ghost = capturedInHand(st, presser, from);
  return ghost?.members.some(e => claimsStood(st, ghost.root, 'exact', e)) ? ghost : reply;
};

/**
 * Whether the presser's piece went on from the stop the reply reading keeps (`reply`, standing a
 * settle window) to the square of the ghost reading's move (`ghost`), the board showing that move
 * standing (`minReplyMs`) after it last showed the stop: Bf4 stood 0.3 s, the bishop then took on
 * g5 (Bxg5 standing 0.25 s), ...Nxg5 was begun before White's press and the captured bishop
 * carried off over f4 as it arrived. The stop was a stop; the ghost reading is the story.
 */
const wentOnFromStop = (st: RecognitionState, reply: ReplyReading, ghost: ReplyReading): boolean =>
  ghost.root === reply.root &&
  ghost.members.every(g => {
    const move = g.path[0];
    const made = g.positions[0];
    return (
      move !== undefined &&
      made !== undefined &&
      reply.members.every(r => {
        const stop = r.path[0];
        const shown = r.positions[0];
        if (!stop || !shown || stop.from !== move.from || stop.to === move.to) return false;
        const left = lastShownIndex(st, reply.root, shown.board);
        return left >= 0 && longestDwell(st, ghost.root, made, left) >= st.options.minReplyMs;
      })
    );
  });

/** `replyInHand`'s first reading: the opponent's pieces off the game's squares set aside. */
const theirsInHand = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): ReplyReading | undefined => {
  const opponent = opposite(presser);
  const theirs = st.sensed[opponent].diff(st.sensed.unknown);
  for (const [root, rootPos] of presserRoots(st, presser)) {
    const moved = theirs.intersect(diffSquares(rootPos.board, st.sensed));
    if (moved.isEmpty()) continue;
    let masked = st.sensed;
    for (const sq of moved) masked = withContent(masked, sq, 'empty');
    const found = explain(rootPos, masked, st.touched, from(root));
    const fits = (e: Explanation): boolean =>
      e.path.length === 1 && e.made === 1 && leavesTheirsLifted(e, opponent, rootPos);
    const exact = found.exactConsistent ? found.exact.filter(fits) : [];
    const partial = found.partialConsistent ? found.partial.filter(fits) : [];
    const members = exact.length > 0 ? exact : partial;
    if (members.length > 0) return { root, members };
  }
  return undefined;
};

/**
 * The presser's pieces standing where they stood at `root`, on squares the evidence since emptied:
 * lifted and set back, or a piece carried off over the square its move left (a ghost).
 */
const setBack = (st: RecognitionState, root: number, rootPos: Chess, presser: Color): SquareSet => {
  let emptied = SquareSet.empty();
  for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
    const e = st.evidence[j];
    if (e?.kind === 'square' && e.piece === 'empty') emptied = emptied.with(e.square);
  }
  return emptied.intersect(rootPos.board[presser]).intersect(st.sensed[presser]).diff(st.sensed.unknown);
};

/**
 * Whether the story's only pieces unaccounted for are `presser`'s own, no king (pieces his hand
 * knocked over), and the board showed each position it claims, those squares apart (`shownBut`).
 */
const knockedOwn = (
  st: RecognitionState,
  root: number,
  e: Explanation,
  presser: Color,
  rootPos: Chess,
): boolean => {
  const after = e.positions[e.positions.length - 1];
  if (e.residual.kind !== 'lifted' || !after) return false;
  const own = after.board[presser].diff(after.board.king);
  return e.residual.squares.diff(own).isEmpty() && shownBut(st, root, rootPos, e);
};

/**
 * At `presser`'s press, the board explained by the presser's move and the reply capturing, with
 * one of the presser's pieces standing where no piece of his stood: the captured piece, carried
 * off over a square next to the capture (a ghost, reference §5.5: 5 captures in 35), when the
 * press arrives. Only a piece of the captured one's identity, next to the capture square. Or one
 * standing on a square a piece of his was lifted from since `root`: the captured piece carried off
 * over the square it came from (...dxe4 fxe4, the black pawn set down on d5), or over the square
 * the presser's move left (e3 ...Bxf1, the white bishop set down on e2).
 */
export const capturedInHand = (
  st: RecognitionState,
  presser: Color,
  from: (root: number) => SearchOptions,
): ReplyReading | undefined => {
  for (const [root, rootPos] of presserRoots(st, presser)) {
    const stray = st.sensed[presser].diff(st.sensed.unknown).diff(rootPos.board[presser]);
    const ghosts = stray.union(setBack(st, root, rootPos, presser));
    if (ghosts.isEmpty() || ghosts.size() > 3) continue;
    // Two stray pieces of one kind (c5 exd5 with the captured pawn passing c6: c6 exd5 with it on
    // c5 fits too): the reading whose move stood a settle window, the other a stop on its way.
    let first: ReplyReading | undefined;
    for (const ghost of ghosts) {
      const piece = pieceAt(st.sensed, ghost);
      const found = explain(rootPos, withContent(st.sensed, ghost, 'empty'), st.touched, from(root));
      const fits = (e: Explanation): boolean => {
        const reply = e.path[1];
        const before = e.positions[0];
        if (e.path.length !== 2 || e.made !== 2 || !reply || !before || !piece) return false;
        const taken = before.board.get(reply.to);
        return taken?.color === piece.color && taken.role === piece.role && kingAttacks(reply.to).has(ghost);
      };
      // Else with a piece of the presser's that his move did not touch lying knocked over (cxd4
      // ...Nxd4, the e5 pawn knocked over by White's hand, the captured pawn set down on d5).
      const exact = found.exactConsistent ? found.exact.filter(fits) : [];
      const members =
        exact.length > 0
          ? exact
          : found.partial.filter(e => fits(e) && knockedOwn(st, root, e, presser, rootPos));
      if (members.length === 0) continue;
      if (members.some(e => claimsStood(st, root, 'exact', e))) return { root, members };
      first ??= { root, members };
    }
    if (first) return first;
  }
  return undefined;
};

/**
 * Whether the story makes `presser`'s move, every ply seen and made, as its last ply or followed
 * by the reply (made before the press was reported).
 */
export const isPressedStory = (e: Explanation, presser: Color): boolean =>
  e.unseen === 0 &&
  e.made > 0 &&
  e.made === e.path.length &&
  (e.path.length >= 2 || e.positions[e.positions.length - 1]?.turn === opposite(presser));

/**
 * Did the board show the story's positions in order, but for pieces in hand that none of its
 * plies moves (a pawn knocked over as the reply's hand withdrew, lying since: the position after
 * the presser's move was never shown with it standing)? With `oneOnly`, one such piece at most.
 */
export const shownBut = (
  st: RecognitionState,
  root: number,
  rootPos: Chess,
  e: Explanation,
  oneOnly = false,
): boolean => {
  if (e.residual.kind !== 'lifted') return false;
  let moved = SquareSet.empty();
  e.path.forEach((m, i) => {
    moved = moved.union(changedBy((i === 0 ? rootPos : e.positions[i - 1]) ?? rootPos, m));
  });
  const lying = e.residual.squares.diff(moved);
  if (lying.isEmpty() || observedAt(st, root, claimedBy('partial', e), lying) === undefined) return false;
  // None of them a piece the hands, followed through the events, show taken since: not the pawns
  // that made d5 and cxd5, read as "knocked over" by ...Bd5 after the bishop took on d5. (Where
  // the hands show one set down elsewhere it may still be lying: a pawn set on g6 before the g7
  // pawn is lifted takes the place of the one knocked off f5 in the hand.)
  // With `oneOnly`, one piece at most: a hand knocks one over now and then, not the pieces of
  // plies nobody followed.
  if (oneOnly && lying.size() > 1) return false;
  const trails = trailsFrom(st, root);
  return [...lying].every(sq => {
    const t = trails?.get(sq);
    return !t || t.unsure || !t.taken;
  });
};

/**
 * Of stories differing in where the presser's piece went, with the reply begun (a rook set down
 * on d7, then on d8 capturing, then taken off by the reply): the one whose last move ends where
 * that piece was set down last (its identity sensed: a captured piece carried off over a square,
 * a ghost, is no landing of the mover's). Where the stories agree, or the sensors do not tell
 * (an occupancy-only square), all of them.
 */
export const lastSetDown = (
  st: RecognitionState,
  root: number,
  members: readonly Explanation[],
): Explanation[] => {
  if (members.length <= 1) return [...members];
  const landed = (e: Explanation): number => {
    const to = e.path[e.path.length - 1]?.to;
    const piece = to === undefined ? undefined : e.positions[e.positions.length - 1]?.board.get(to);
    if (to === undefined || !piece) return -1;
    let at = -1;
    for (let j = madeIndexOf(st, root) + 1; j < st.evidence.length; j++) {
      const ev = st.evidence[j];
      if (ev?.kind !== 'square' || ev.square !== to || ev.piece === 'empty') continue;
      if (ev.piece === 'occupied') return -1;
      if (ev.piece.color === piece.color && ev.piece.role === piece.role) at = j;
    }
    return at;
  };
  const when = members.map(landed);
  const latest = Math.max(...when);
  const last = members.filter((_, k) => when[k] === latest);
  return latest >= 0 && last.length === 1 ? last : [...members];
};

/**
 * Of stories differing in which piece made the presser's move, the others' pieces missing
 * (a rook knocked over on a8 while the rook from f8 goes to c8; two knights able to take on c4,
 * one of them knocked over): the one whose moving piece left its square last before the move's
 * square was filled. A piece knocked over before the turn, or as the hand withdrew from the move,
 * left its square at another time. Where the stories agree, all of them.
 */
export const lastLifted = (
  st: RecognitionState,
  root: number,
  members: readonly Explanation[],
): Explanation[] => {
  if (members.length <= 1) return [...members];
  const start = madeIndexOf(st, root) + 1;
  // The first ply the stories differ in (the presser's, with the reply after it or not).
  const first = members[0]?.path ?? [];
  const k = first.findIndex((m, i) =>
    members.some(e => {
      const o = e.path[i];
      return !o || o.from !== m.from || o.to !== m.to || o.promotion !== m.promotion;
    }),
  );
  if (k < 0) return [...members];
  const lifted = (e: Explanation): number => {
    const move = e.path[k];
    if (!move) return -1;
    let filled = -1;
    for (let j = start; j < st.evidence.length; j++) {
      const ev = st.evidence[j];
      if (ev?.kind === 'square' && ev.square === move.to && ev.piece !== 'empty') filled = j;
    }
    let at = -1;
    for (let j = start; j < (filled < 0 ? st.evidence.length : filled); j++) {
      const ev = st.evidence[j];
      if (ev?.kind === 'square' && ev.square === move.from && ev.piece === 'empty') at = j;
    }
    return at;
  };
  // Followed piece by piece first: the like piece set down last on the move's square came from
  // where the hand lifted it, however it passed over the knocked piece's square on its way.
  const move = first[k];
  const board = positionAt(st, root).board;
  const piece = k === 0 && move ? board.get(move.from) : undefined;
  if (move && piece) {
    const origin = heldOrigin(st, start, board, piece, move.to);
    const held = members.filter(e => e.path[k]?.from === origin);
    if (held.length > 0 && held.length < members.length) return held;
  }
  const when = members.map(lifted);
  const latest = Math.max(...when);
  const last = members.filter((_, i) => when[i] === latest);
  return latest >= 0 && last.length < members.length ? last : [...members];
};

/**
 * Where the piece of `piece`'s colour and role set down last on `to` stood in `board`, following
 * the like pieces through the square events from `start`: a lift takes the piece into the hand,
 * a like piece set down is the one lifted last. A piece knocked over stays in the air under the
 * pieces lifted after it, so a rook lifted from a1 and resting on e2 (the rook of e2 knocked over
 * a moment before) is the one that goes on to e1. Undefined when the events cannot be followed so
 * (a board that does not tell pieces apart, a like piece set down with none in the hand).
 */
const heldOrigin = (
  st: RecognitionState,
  start: number,
  board: Chess['board'],
  piece: Piece,
  to: Square,
): Square | undefined => {
  const like = board[piece.color].intersect(board[piece.role]);
  const on = new Map<Square, Square>([...like].map(sq => [sq, sq]));
  const hand: Square[] = [];
  let landed: Square | undefined;
  for (let j = start; j < st.evidence.length; j++) {
    const ev = st.evidence[j];
    if (ev?.kind === 'snapshot') return undefined;
    if (ev?.kind !== 'square') continue;
    const was = on.get(ev.square);
    on.delete(ev.square);
    if (ev.piece === 'occupied') return undefined;
    if (ev.piece === 'empty') {
      if (was !== undefined) hand.push(was);
      continue;
    }
    if (ev.piece.color !== piece.color || ev.piece.role !== piece.role) continue;
    const from = hand.pop();
    if (from === undefined) return undefined;
    on.set(ev.square, from);
    if (ev.square === to) landed = from;
  }
  return landed;
};
