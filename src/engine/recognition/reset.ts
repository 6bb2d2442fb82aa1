/**
 * The pieces set up again after the game. A board that shows the game's start position once the
 * game has gone `resetPlies` plies or more past it is the players clearing the board after a
 * result the board cannot see (a resignation, an agreed draw), or the arbiter starting the game
 * again: never a takeback of the whole game (only the arbiter restores a position, 7.5.1), and
 * never an illegal move at a press. The record is kept, except the last plies nobody pressed for
 * that were the first pieces going home (the loser's knight taken back to g8 reads as ...Ng8).
 * From then on nothing on the board is read into the game (players going over the game again on
 * the same board), until the arbiter restores a position or records moves (a fresh recogniser),
 * or enters the result.
 *
 *   if (showsReset(st)) return resetBoard(st, now, trigger);
 */
import type { Board, Chess, Color } from 'chessops';
import { type SensedBoard, diffSquares, pieceAt } from './sensedBoard.js';
import type { RecognitionOutput } from './outputs.js';
import { NO_OUTPUTS, type Step, publishLine } from './publish.js';
import { type RecognitionState, type Trigger, positionAt, squareList } from './state.js';

/** Pieces of each side back home that make a board being cleared a reset (showsReset). */
const CLEARING_HOME = 2;

/** Can `pos` reach the sensed board in `depth` legal moves or fewer (a knight shuffle back home)? */
const reaches = (pos: Chess, sensed: SensedBoard, depth: number): boolean => {
  for (const [from, dests] of pos.allDests())
    for (const to of dests) {
      const next = pos.clone();
      next.play({ from, to });
      if (diffSquares(next.board, sensed).isEmpty()) return true;
      if (depth > 1 && reaches(next, sensed, depth - 1)) return true;
    }
  return false;
};

/** Pieces of each side back on their own squares of the start position since `before`. */
const homeReturns = (st: RecognitionState, before: Board, start: Board): Record<Color, number> => {
  const n: Record<Color, number> = { white: 0, black: 0 };
  for (const sq of start.occupied) {
    const home = start.get(sq);
    const now = pieceAt(st.sensed, sq);
    const was = before.get(sq);
    if (!home || now?.role !== home.role || now.color !== home.color) continue;
    if (was?.role === home.role && was.color === home.color) continue;
    n[home.color]++;
  }
  return n;
};

/**
 * Is the board the pieces being set up again after the game? It shows the game's start position,
 * or is being cleared towards it: `CLEARING_HOME` pieces of each side or more back on their
 * squares of the start position (since the plies that were themselves the first pieces going
 * home): a player taking the opponent's pieces off while the other puts his own back, the board
 * passing positions of the opening on the way (the position after 1. e4). Either at `resetPlies`
 * plies or more past the position shown, and not a move or two from the tip (a knight shuffle
 * bringing the start position back, ...Ng8, is a move). The latest ply that shows the board
 * counts: a shuffle back to the start position at ply 4, then e4 taken back, is a takeback of one
 * ply.
 */
export const showsReset = (st: RecognitionState): boolean => {
  const tip = st.game.length;
  if (st.reset || st.awaitSetup || !st.shown || tip < st.options.resetPlies) return false;
  const start = st.game.positionView(0);
  if (!start) return false;
  if (!diffSquares(start.board, st.sensed).isEmpty()) {
    // Since the plies that were themselves the first pieces going home (...Ng8 Ng1 read as moves).
    const n = homeReturns(st, positionAt(st, pliesKept(st)).board, start.board);
    if (n.white < CLEARING_HOME || n.black < CLEARING_HOME) return false;
  }
  // A position of the last plies is a takeback; one further back (the start position, or one of
  // the opening passed while its pieces go home in reverse: the position after 1. e4) is not.
  for (let ply = tip - 1; ply > tip - st.options.resetPlies; ply--) {
    const pos = st.game.positionView(ply);
    if (pos && diffSquares(pos.board, st.sensed).isEmpty()) return false;
  }
  return !reaches(positionAt(st, tip), st.sensed, 2);
};

/**
 * The plies kept: the last plies nobody pressed for that took a piece to its square of the start
 * position and stood less than `confirmMs` before the board changed again go (the first pieces
 * taken home: the loser's knight back on g8 reads as ...Ng8, the winner's on g1 as Ng1). Any other
 * ply stays, and every ply before it: a move made with a draw offer, a quick last move of a game
 * without a clock.
 */
const pliesKept = (st: RecognitionState): number => {
  const tip = st.game.length;
  const start = st.game.positionView(0)?.board;
  const madeAt = (ply: number): number | undefined => st.game.moveAt(ply)?.at;
  // When the board changed after `ply` was made: the next ply, or the first change after the tip.
  const changedAfter = (ply: number): number | undefined => {
    if (ply < tip) return madeAt(ply + 1);
    const at = madeAt(tip);
    return at === undefined ? undefined : st.evidence.find(e => e.kind === 'square' && e.at > at)?.at;
  };
  const home = (ply: number): boolean => {
    const move = st.game.moveAt(ply)?.move;
    if (!start || !move || !('from' in move)) return false;
    const piece = st.game.positionView(ply)?.board.get(move.to);
    const there = start.get(move.to);
    return (
      piece !== undefined && there !== undefined && piece.role === there.role && piece.color === there.color
    );
  };
  let keep = tip;
  // The piece's square first: on most boards judged the tip ply took nothing home, and the
  // evidence is not searched (showsReset asks at every judgement of a board not the game's).
  for (let ply = tip; ply > st.pressedPly && home(ply); ply--) {
    const at = madeAt(ply);
    const next = changedAfter(ply);
    if (at === undefined || next === undefined || next - at >= st.options.confirmMs) break;
    keep = ply - 1;
  }
  return keep;
};

/** The board set up again: the record kept (but for pliesKept), the board left out of the game. */
export const resetBoard = (st: RecognitionState, at: number, trigger: Trigger): Step => {
  const keep = pliesKept(st);
  const cut = keep < st.game.length ? publishLine(st, keep, [], [], at, 'revision', true) : undefined;
  const base = cut?.state ?? st;
  const squares = diffSquares(positionAt(base, base.game.length).board, base.sensed);
  const state: RecognitionState = {
    ...base,
    anchor: Math.min(base.anchor, keep),
    pressedPly: Math.min(base.pressedPly, keep),
    reset: true,
    undecided: undefined,
    catchUp: false,
    hand: [],
    dirty: false,
    status: { kind: 'mismatch', squares, reason: 'reset' },
    report: 'reset',
    mismatchOpen: true,
  };
  const out: RecognitionOutput = {
    type: 'mismatch',
    at,
    ply: base.game.length,
    squares: squareList(squares),
    reason: 'reset',
    trigger: trigger.kind,
    ...(trigger.kind === 'press' ? { side: trigger.side } : {}),
  };
  return { state, outputs: [...(cut?.outputs ?? NO_OUTPUTS), out] };
};

/** After a reset: the board changes nothing (a press neither). */
export const stayReset = (st: RecognitionState): Step => ({
  state: { ...st, dirty: false },
  outputs: NO_OUTPUTS,
});
