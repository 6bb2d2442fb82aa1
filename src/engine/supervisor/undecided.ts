/**
 * A board that several move orders reach (docs/recognition.md: a catch-up after a reconnection or a
 * restart showing `gxf6 c4 cxd4` made, which `cxd4 c4 gxf6` explains as well): the position is
 * legal and reachable, only the order of the moves is unknown. It is a board/record mismatch for
 * the arbiter (`board-mismatch`, the candidate orders as evidence), never an illegal move: a press
 * with it on the board, or with the moves played on from it, passes the clock on as a move's press
 * and counts nothing under Art. 7.
 *
 *   onUndecidedPress(tx, 'black', 537, mismatchOutput);   // one board-mismatch alert; White's clock runs
 */
import { makeSquare } from 'chessops';
import { citeTopic } from '../editions.js';
import type { RecognitionOutput } from '../recognition/outputs.js';
import type { Color } from '../types.js';
import { pressFor } from './clockFeed.js';
import { attemptEvents, sensedFen } from './boardFacts.js';
import { positionAt } from './state.js';
import { type Tx, emitOnce, patch } from './tx.js';
import { say } from '../texts.js';

type MismatchOutput = Extract<RecognitionOutput, { type: 'mismatch' }>;

/** The arbiter's alert for an undecided board (once per ply and epoch of the game). */
export const onUndecided = (tx: Tx, out: MismatchOutput, at: number = out.at): void => {
  const { orders } = out;
  const { st } = tx;
  // Held until the board stood, and meanwhile withdrawn below its root (a re-read nothing
  // explained): the mismatch raised then stands for it.
  if (!orders || orders.root > st.rec.game.length) return;
  const lines = orders.lines.map(line => line.join(' '));
  emitOnce(tx, `undecided:${orders.root}:${st.epoch}`, at, {
    type: 'alert',
    code: 'board-mismatch',
    article: citeTopic(st.profile, 'displacedFoundLater'),
    color: positionAt(st, orders.root).turn,
    detail: `The board shows a legal position that ${orders.total} move orders reach after ply ${orders.root} (${lines.join(' / ')}${orders.total > lines.length ? ` and ${orders.total - lines.length} more` : ''}): the arbiter decides which was played. No illegal move.`,
    text: [
      orders.total > lines.length
        ? say('board.orders_more', {
            count: orders.total,
            ply: orders.root,
            orders: orders.lines,
            more: orders.total - lines.length,
          })
        : say('board.orders', { count: orders.total, ply: orders.root, orders: orders.lines }),
    ],
    evidence: {
      fenBefore: st.rec.game.fenAt(orders.root),
      boardFen: sensedFen(st.rec.sensed),
      squares: out.squares.map(makeSquare),
      events: attemptEvents(st.rec),
      orders: orders.lines,
      ordersAfterPly: orders.root,
    },
  });
  patch(tx, { illegalShown: true });
};

/** A press with an undecided board: alerted, and the clock passes on; no Art. 7 count, no penalty. */
export const onUndecidedPress = (tx: Tx, side: Color, at: number, out: MismatchOutput): void => {
  onUndecided(tx, out, at);
  pressFor(tx, side, at);
};
