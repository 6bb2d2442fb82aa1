/**
 * Board events through the recogniser, and what its outputs mean for the game: moves and
 * corrections, half-made moves and illegal positions (pending until a press), presses that
 * complete a move (the clock model) or an illegal one (Art. 7), result gestures, takebacks.
 *
 *   boardStep(tx, { kind: 'press', at: 900, side: 'white' });
 *   tx.events.map(e => e.type);   // e.g. ['move', 'clock']
 */
import { makeSquare } from 'chessops';
import type { BoardEvent } from '../recognition/boardEvent.js';
import type { PublishedMove, RecognitionOutput } from '../recognition/outputs.js';
import { step } from '../recognition/step.js';
import { citeTopic } from '../editions.js';
import type { Color } from '../types.js';
import { checkFlags, pressFor } from './clockFeed.js';
import { endGame } from './ending.js';
import { holdAlert, onMismatch, onPending } from './held.js';
import { onIllegalPress, onPressWithoutMove, onResolved } from './illegal.js';
import { judgeAll, judgeUpTo } from './commit.js';
import { onTouch } from './turn.js';
import { onCorrection, onMove } from './moves.js';
import { onReset } from './reset.js';
import { onUndecided, onUndecidedPress } from './undecided.js';
import { isUnseenPress, onUnseenPlies } from './unseenPlies.js';
import { moverOf, positionAt } from './state.js';
import { captureReach } from '../recognition/search.js';
import { type Tx, emit, isOver, patch } from './tx.js';
import { englishList, say } from '../texts.js';

/** The last ply of the recognised game made by `side` (0: none). */
export const lastPlyBy = (tx: Tx, side: Color): number => {
  const { game } = tx.st.rec;
  for (let ply = game.length; ply > 0; ply--) if (moverOf(tx.st, ply) === side) return ply;
  return 0;
};

const onOutput = (tx: Tx, out: RecognitionOutput): void => {
  switch (out.type) {
    case 'move':
      onMove(tx, out);
      return;
    case 'correction':
      onCorrection(tx, out);
      return;
    case 'final':
      // The move is final (its mover's press, or the reply on top of it): it is judged now.
      judgeUpTo(tx, out.ply, out.at);
      return;
    case 'pending':
      onPending(tx, out);
      return;
    case 'mismatch':
      if (out.reason === 'reset') {
        onReset(tx, out);
        return;
      }
      // A board several move orders reach is the arbiter's to order, never an illegal position.
      if (out.orders) {
        // After a re-read at once; in play only once the board stays so (it may be pieces moving).
        if (out.trigger === 'settle') {
          if (tx.st.resync) holdAlert(tx, out, () => onUndecided(tx, out));
          // Its alert already out (at a press): kept, to be withdrawn when the board is set right.
          else if (!tx.st.irregular?.alert) patch(tx, { irregular: { out, alert: undefined } });
        }
      } else onMismatch(tx, out);
      return;
    case 'resolved':
      onResolved(tx, out);
      return;
    case 'result': {
      judgeAll(tx, out.at);
      if (isOver(tx)) return;
      const winner: Color | undefined =
        out.result === '1-0' ? 'white' : out.result === '0-1' ? 'black' : undefined;
      endGame(tx, out.at, out.result, 'gesture', citeTopic(tx.st.profile, 'scoring'), winner);
      return;
    }
  }
};

/**
 * Pieces of the presser off the board at his press, which the reply cannot have taken (a pawn
 * beside the knight's square knocked over by the hand): his move stands, the pieces are displaced
 * (7.4). Whether they lie on their squares or on the floor the board cannot tell: a `possible`
 * finding on the move, for the arbiter, never an alert.
 */
const noteDisplaced = (tx: Tx, side: Color, at: number): void => {
  const { st } = tx;
  const ply = st.rec.game.length;
  const pos = positionAt(st, ply);
  if (pos.turn === side || ply === 0) return;
  const off = pos.board[side].diff(pos.board.king).diff(st.rec.sensed.occupied).diff(captureReach(pos));
  if (off.isEmpty()) return;
  const squares = [...off].map(makeSquare);
  emit(tx, at, {
    type: 'finding',
    ply,
    code: 'displaced-pieces',
    article: citeTopic(st.profile, 'displacedPieces'),
    color: side,
    grade: 'possible',
    breach: false,
    detail: `${side === 'white' ? 'White' : 'Black'} pressed the clock with nothing on ${englishList(squares)} (a piece knocked over?): the move stands; displaced pieces are set up again on the time of the player who displaced them.`,
    text: [say('displaced.at_press', { color: side, squares })],
  });
};

/** The clock side of a press, after recognition judged the board. */
const afterPress = (tx: Tx, side: Color, at: number, outputs: readonly RecognitionOutput[]): void => {
  // The pieces were set up again after the game (reset.ts): a press completes nothing.
  if (tx.st.rec.reset) return;
  const illegal = outputs.find(o => o.type === 'mismatch' && o.trigger === 'press');
  if (illegal?.type === 'mismatch') {
    if (illegal.orders) onUndecidedPress(tx, side, at, illegal);
    else if (isUnseenPress(tx, side)) onUnseenPlies(tx, side, at, illegal);
    else onIllegalPress(tx, side, at, illegal);
    return;
  }
  const ob = tx.st.obligation;
  // A move taken back under Art. 4 still stands on the board: the press completes nothing.
  if (ob?.color === side && tx.st.rec.game.length === ob.ply - 1) return;
  const last = lastPlyBy(tx, side);
  if (last > tx.st.completed[side]) {
    pressFor(tx, side, at);
    noteDisplaced(tx, side, at);
    // A press for the mover's ply: the record's turn is proven again after a gap.
    patch(tx, { completed: { ...tx.st.completed, [side]: last }, unproven: false });
    return;
  }
  const { clock } = tx.st;
  const running = clock ? clock.phase === 'running' && clock.toMove === side : tx.st.rec.game.turn === side;
  if (!running) return;
  // Moves played on from an undecided board are not in the record yet, and a press replayed from
  // the board's log may be one the record cannot follow: no press without a move.
  if (tx.st.rec.undecided || tx.st.recovering) pressFor(tx, side, at);
  else onPressWithoutMove(tx, side, at);
};

/**
 * The plies a step's outputs leave published, in order: its moves, with each correction's moves
 * in place of the plies from its first on.
 */
const pliesRead = (outputs: readonly RecognitionOutput[]): PublishedMove[] => {
  let plies: PublishedMove[] = [];
  for (const o of outputs) {
    if (o.type === 'move') plies.push(o);
    else if (o.type === 'correction') plies = [...plies.filter(p => p.ply < o.fromPly), ...o.moves];
  }
  return plies;
};

/** One board event: recognition, then its outputs in order, flags checked at each output's time. */
export const boardStep = (tx: Tx, e: BoardEvent): void => {
  if (tx.st.ended) {
    patch(tx, { rec: step(tx.st.rec, e).state });
    return;
  }
  const before = tx.st.rec;
  const r = step(before, e);
  patch(tx, { rec: r.state });
  // The outputs judged: once the supervisor moves the recogniser onto another line (an enforced
  // Art. 4 takeback, a forbidden move seen again), the rest of this step's outputs belong to the
  // line it left (their plies may not exist on the new one) and are dropped; the sensed board, this
  // event included, went over to the new line.
  let judged = r.outputs.length;
  for (const [i, out] of r.outputs.entries()) {
    checkFlags(tx, out.at);
    if (isOver(tx)) return;
    onOutput(tx, out);
    if (isOver(tx)) return;
    if (tx.st.rec !== r.state) {
      judged = i + 1;
      break;
    }
  }
  // Several plies found at once on a re-read board, published as moves or as a correction (a ply
  // seen made before the gap read again with the plies after it): the record is inferred (see
  // state.ts), a finding for the arbiter to check (not an alert: the board shows the position
  // they reach).
  const moved = pliesRead(r.outputs);
  const first = moved[0];
  const reread =
    e.kind === 'snapshot' || (before.catchUp && before.evidence.some(x => x.kind === 'snapshot'));
  if (reread && first && moved.length >= 2) {
    patch(tx, { inferred: 'unconfirmed' });
    emit(tx, first.publishedAt, {
      type: 'finding',
      ply: first.ply,
      code: 'arbiter-decision-needed',
      article: citeTopic(tx.st.profile, 'displacedFoundLater'),
      color: moverOf(tx.st, first.ply),
      grade: 'possible',
      breach: false,
      detail: `Plies ${first.ply}-${first.ply + moved.length - 1} (${moved.map(o => o.san).join(' ')}) were inferred from the board read again after a gap: another order may give the same board. Until the next move is seen made, a board that departs from them is a board mismatch, not an illegal move.`,
      text: [
        say('board.inferred', {
          from_ply: first.ply,
          to_ply: first.ply + moved.length - 1,
          moves: moved.map(o => o.san),
        }),
      ],
    });
  } else if (!reread && first && tx.st.inferred === 'unconfirmed') patch(tx, { inferred: false });
  // The plies read off a re-read board: the position they reach is proven, their number is not.
  if (reread && first) patch(tx, { readOff: { from: first.ply, to: first.ply + moved.length - 1 } });
  checkFlags(tx, e.at);
  if (isOver(tx)) return;
  if (e.kind === 'square') onTouch(tx, e, before);
  // Only on a settled board: a move still in its settle window may already have given the move.
  const settled = !tx.st.rec.dirty && tx.st.rec.status.kind === 'synced';
  if (e.kind === 'adjust' && settled && e.side !== tx.st.rec.game.turn) {
    emit(tx, e.at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(tx.st.profile, 'adjusting'),
      color: e.side,
      detail: `${e.side === 'white' ? 'White' : 'Black'} announced an adjustment without having the move: only the player having the move may adjust (arbiter's discretion).`,
      text: [say('adjust.without_move', { color: e.side })],
      evidence: { events: [e] },
    });
  }
  if (e.kind === 'press') afterPress(tx, e.side, e.at, r.outputs.slice(0, judged));
};
