/**
 * Plies the board does not show (issue 13: downtime never decides a result). A board re-read after
 * a gap without its log shows where the game got to, not how many plies were made: a piece that
 * went and came back (Qe2 Nf6 Qf3 Ng8 Qd1) leaves the board as it was, with the other side to
 * move. The first press after the gap tells: a player pressing while the record has his opponent
 * to move, on a board that is no position of the record, moved although the record says he did
 * not. That is one board mismatch for the arbiter, with the candidates (the presser's move after
 * an odd number of unseen plies, written `--` for them as PGN writes a null move), never an
 * illegal move; and nothing is read on that board (the record stays undecided) until the arbiter
 * records the moves or the board shows the record's position again.
 *
 *   onUnseenPlies(tx, 'black', 27_600, mismatchOutput);   // board-mismatch, orders [['--', 'Nc6']]
 */
import { makeSquare, opposite } from 'chessops';
import { citeTopic } from '../editions.js';
import { makeSanBetween } from '../notation.js';
import type { MoveOrders, RecognitionOutput } from '../recognition/outputs.js';
import { explain } from '../recognition/search.js';
import { MAX_ORDERS } from '../recognition/outputs.js';
import type { Color } from '../types.js';
import { say } from '../texts.js';
import { attemptEvents, sensedFen } from './boardFacts.js';
import { pressFor } from './clockFeed.js';
import { holdAlert } from './held.js';
import { type Tx, emitOnce, patch } from './tx.js';

type MismatchOutput = Extract<RecognitionOutput, { type: 'mismatch' }>;

/** The null move of PGN (ChessBase and others): the unseen plies, an odd number of them. */
export const UNSEEN = '--';

/** How far the candidates look past the unseen plies (the presser's move, a blitz reply). */
const CANDIDATE_PLIES = 2;

/**
 * Is a mismatch at `side`'s press a sign of plies the board does not show? Only while the record
 * since a gap is unproven (no press has confirmed it), when the record has the opponent to move,
 * and the re-read board was taken as the record's (a board still re-read or inferred from has its
 * one mismatch already: illegal.ts).
 */
export const isUnseenPress = (tx: Tx, side: Color): boolean => {
  const { st } = tx;
  if (!st.unproven || st.resync || st.inferred !== false || st.irregular?.alert) return false;
  return !st.rec.undecided && !st.rec.awaitSetup && st.rec.game.turn !== side;
};

/** The candidate lines from the tip: unseen plies (an odd number), then what the board shows. */
const candidates = (tx: Tx): MoveOrders => {
  const { rec } = tx.st;
  const root = rec.game.length;
  const tip = rec.game.positionView(root);
  if (!tip) return { root, lines: [], total: 0 };
  const flipped = tip.clone();
  flipped.turn = opposite(tip.turn);
  flipped.epSquare = undefined;
  const found = explain(flipped, rec.sensed, rec.touched, {
    maxDepth: CANDIDATE_PLIES,
    promotion: rec.options.promotion,
  });
  const lines = found.exact.slice(0, MAX_ORDERS).map(e =>
    e.path.map((move, i) => {
      const before = i === 0 ? flipped : e.positions[i - 1];
      const after = e.positions[i];
      return before && after ? makeSanBetween(before, move, after) : '?';
    }),
  );
  return { root, lines: lines.map(l => [UNSEEN, ...l]), total: found.exact.length };
};

/** A press that says plies went unseen: one board mismatch for the arbiter; the clock passes on. */
export const onUnseenPlies = (tx: Tx, side: Color, at: number, out: MismatchOutput): void => {
  const { st } = tx;
  // The press judges the board now: nothing is held for the quiet time any more.
  if (st.irregular && !st.irregular.alert) patch(tx, { irregular: undefined });
  const orders = candidates(tx);
  // Nothing read on this board until the arbiter records the moves (or it shows the record again).
  patch(tx, { rec: { ...tx.st.rec, undecided: orders } });
  const lines = orders.lines.length > 0 ? orders.lines : [[UNSEEN]];
  holdAlert(tx, { ...out, orders }, () =>
    emitOnce(tx, `undecided:${orders.root}:${tx.st.epoch}`, at, {
      type: 'alert',
      code: 'board-mismatch',
      article: citeTopic(st.profile, 'displacedFoundLater'),
      color: side,
      detail: `${side === 'white' ? 'White' : 'Black'} pressed the clock with the opponent to move after ply ${orders.root} in the record: plies were made while the board was not seen that it does not show (a piece gone and back). The arbiter records what was played (${lines.map(l => l.join(' ')).join(' / ')}). No illegal move.`,
      text: [say('board.unseen_plies', { color: side, ply: orders.root, orders: lines })],
      evidence: {
        fenBefore: st.rec.game.fenAt(orders.root),
        boardFen: sensedFen(st.rec.sensed),
        squares: out.squares.map(makeSquare),
        events: attemptEvents(st.rec),
        orders: lines,
        ordersAfterPly: orders.root,
      },
    }),
  );
  patch(tx, { illegalShown: true });
  pressFor(tx, side, at);
};
