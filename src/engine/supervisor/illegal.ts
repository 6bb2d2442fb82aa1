/**
 * Illegal moves (Art. 7): a board that is no position is held until a press or the quiet time
 * (held.ts); a clock press with such a board completes an illegal move, which is
 * penalised per the edition's profile (minutes to the opponent, the losing count, the draw when
 * the opponent cannot mate) after the position before it is reinstated, clocks included. Pressing
 * without moving (E17+ 7.5.3 / 7.8.1) is counted the same way. In claim-only regimes (E09 rapid
 * and blitz with reduced supervision, E97 rapid and blitz) nothing happens until the opponent
 * claims, before he makes his move. A board re-read after a gap, or not yet set up after an
 * arbiter's restore, is never judged: a press on it passes the clock and counts nothing.
 *
 *   onIllegalPress(tx, 'white', 950, mismatchOutput);   // alert illegal-move 7.5.1, clock +2 min to Black
 */
import { makeSquare, opposite } from 'chessops';
import { type EditionProfile, citeTopic, illegalMoveSanction } from '../editions.js';
import type { AlertCode, GameEventBody } from '../events.js';
import { canCheckmate } from '../helpmate.js';
import { makeOutcome } from '../outcome.js';
import { isLastPeriod } from '../timeControl.js';
import type { RecognitionOutput } from '../recognition/outputs.js';
import type { ArticleRef, Color } from '../types.js';
import { addTime, adjust, emitClock, pressFor } from './clockFeed.js';
import { endWith } from './ending.js';
import { classifyBoard } from './irregular.js';
import { completeUnfinishedPromotion } from './promotion.js';
import { attemptEvents, sensedFen } from './boardFacts.js';
import { positionAt } from './state.js';
import { holdAlert, mismatchAlert } from './held.js';
import { type Tx, emit, patch } from './tx.js';
import { type Sentence, say } from '../texts.js';

type MismatchOutput = Extract<RecognitionOutput, { type: 'mismatch' }>;

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };

const tipFen = (tx: Tx): string => tx.st.rec.game.fenAt(tx.st.rec.game.length);

export const onResolved = (tx: Tx, _out: Extract<RecognitionOutput, { type: 'resolved' }>): void => {
  patch(tx, { illegalShown: false, resync: false, epoch: tx.st.epoch + 1 });
};

/** Is the offender in a sudden-death period (E97 10.3 applies the scale in a quickplay finish only)? */
const inQuickplayFinish = (tx: Tx, side: Color): boolean => {
  const { clock } = tx.st;
  if (clock?.control.kind !== 'periods') return clock !== undefined;
  const moves = clock.moves[side];
  let end = 0;
  for (const [i, p] of clock.control.periods.entries()) {
    if (p.moves === undefined || moves < end + p.moves) return isLastPeriod(clock.control.periods, i);
    end += p.moves;
  }
  return false;
};

/** The sanction for `side`'s completed illegal move, counted now: time to the opponent, or the result. */
export const sanction = (tx: Tx, side: Color, at: number): void => {
  const count = tx.st.illegal[side] + 1;
  patch(tx, {
    illegal: { ...tx.st.illegal, [side]: count },
    lastIllegal: { by: side, ply: tx.st.rec.game.length },
  });
  const profile: EditionProfile = tx.st.profile;
  const s = illegalMoveSanction(profile, count, { inQuickplayFinish: inQuickplayFinish(tx, side) });
  const opponent = opposite(side);
  switch (s.kind) {
    case 'restoreOnly':
      return;
    case 'addTime':
      addTime(tx, at, opponent, s.minutes * 60_000, false);
      return;
    case 'loss': {
      const pos = positionAt(tx.st, tx.st.rec.game.length);
      const verdict = s.drawIfOpponentCannotMate ? canCheckmate(pos, opponent) : 'yes';
      if (verdict === 'no') {
        endWith(tx, at, makeOutcome('illegalMovesVsCannotMate', undefined, profile, side).unwrap());
        return;
      }
      if (verdict === 'unknown') {
        emit(tx, at, {
          type: 'alert',
          code: 'arbiter-decision-needed',
          article: s.article,
          color: side,
          detail: `Whether ${NAME[opponent]} can still checkmate is undecided: the arbiter confirms the loss or rules a draw.`,
          text: [say('illegal.cannot_mate_undecided', { opponent })],
        });
      }
      endWith(tx, at, makeOutcome('illegalMoves', opponent, profile).unwrap());
      return;
    }
  }
};

/** The clock after a reinstatement: the offender's press is undone (its increment and move count). */
const undoPress = (tx: Tx, side: Color, at: number, creditMs: number): void => {
  const { clock } = tx.st;
  if (!clock) return;
  const moves = Math.max(0, clock.moves[side] - (clock.toMove === side ? 0 : 1));
  adjust(
    tx,
    at,
    {
      add: side === 'white' ? { white: -creditMs } : { black: -creditMs },
      moves: side === 'white' ? { white: moves } : { black: moves },
      toMove: side,
    },
    false,
  );
};

const illegalAlert = (
  tx: Tx,
  at: number,
  side: Color,
  code: AlertCode,
  article: ArticleRef,
  detail: string,
  text: Sentence,
  out?: MismatchOutput,
): void => {
  const body: GameEventBody = {
    type: 'alert',
    code,
    article,
    color: side,
    detail,
    text: [text],
    evidence: {
      fenBefore: tipFen(tx),
      boardFen: sensedFen(tx.st.rec.sensed),
      events: attemptEvents(tx.st.rec),
      ...(out ? { squares: out.squares.map(makeSquare) } : {}),
    },
  };
  emit(tx, at, body);
};

/** A press with a board that is no legal position: an illegal move completed (or the opponent's matter). */
export const onIllegalPress = (tx: Tx, side: Color, at: number, out: MismatchOutput): void => {
  const { st } = tx;
  const { profile } = st;
  // The press judges the board now: nothing is held for the quiet time any more.
  if (st.irregular && !st.irregular.alert) patch(tx, { irregular: undefined });
  if (st.resync || st.recovering || st.inferred || out.reason === 'beyondReach') {
    // The board was re-read (link back, a restart, an arbiter's restore) and does not show the
    // game yet: nothing on it is judged (no illegal move, no penalty, no result) until it does.
    // Nor is a board beyond the search's reach after presses were missed (more plies may have
    // been made than it follows). The arbiter has the mismatch; the clock passes on as for a move.
    holdAlert(tx, out, () => mismatchAlert(tx, out, at));
    if (st.inferred) patch(tx, { inferred: 'contradicted' });
    // The game went on meanwhile (a lost link, a restart): the clock passes on as for a move; while
    // the board is being set up to a restored position, presses move nothing.
    if (!st.rec.awaitSetup) pressFor(tx, side, at);
    return;
  }
  if (st.rec.game.turn !== side) {
    // The presser's move stands; the board went wrong afterwards (a king captured, pieces moved).
    const irr = classifyBoard(positionAt(st, st.rec.game.length), positionAt(st, 0), st.rec.sensed);
    if (irr?.kind === 'kingMissing') {
      if (!tx.st.alerted.has(`mismatch:${out.ply}:${st.epoch}:king-capture`)) {
        illegalAlert(
          tx,
          at,
          side,
          'king-capture',
          citeTopic(profile, 'kingCapture', 'illegalMove'),
          `${NAME[side]} captured the king after an irregularity.`,
          say('illegal.king_captured', { color: side }),
          out,
        );
      }
      if (profile.illegalMoves.kingCaptureAfterIllegal === 'askArbiter') {
        emit(tx, at, {
          type: 'alert',
          code: 'arbiter-decision-needed',
          article: citeTopic(profile, 'illegalMove'),
          color: side,
          detail:
            'A king was captured after an illegal move: the arbiter decides which irregularity is penalised.',
          text: [say('illegal.king_captured_after_illegal', {})],
        });
      }
    }
    return;
  }
  const irr = classifyBoard(positionAt(st, st.rec.game.length), positionAt(st, 0), st.rec.sensed);
  const promotion = out.pending?.kind === 'promotion';
  const code: AlertCode = irr?.kind === 'kingMissing' ? 'king-capture' : 'illegal-move';
  const article = promotion
    ? citeTopic(profile, 'unfinishedPromotion', 'illegalMove')
    : code === 'king-capture'
      ? citeTopic(profile, 'kingCapture', 'illegalMove')
      : citeTopic(profile, 'illegalMove');
  // E09 A.4.c: in claim-only regimes the arbiter still steps in for an unfinished promotion.
  const intervenes = promotion && profile.irregularities.illegalPosition === 'arbiterIntervenesIfPossible';
  if (profile.illegalMoves.detection === 'claimOnly' && !intervenes) {
    const m = pressFor(tx, side, at);
    patch(tx, {
      claimable: {
        offender: side,
        ply: st.rec.game.length,
        at,
        creditMs: m ? m.creditMs + m.bonusMs : 0,
        code,
        article,
        liftedFrom: undefined,
        closed: false,
      },
    });
    illegalAlert(
      tx,
      at,
      side,
      code,
      citeTopic(profile, 'illegalMoveRegime', 'illegalMove'),
      `${NAME[side]} completed an illegal move; it counts only if ${NAME[opposite(side)]} claims before making his move.`,
      say('illegal.claim_only', { color: side, opponent: opposite(side) }),
      out,
    );
    return;
  }
  illegalAlert(
    tx,
    at,
    side,
    code,
    article,
    `${NAME[side]} completed an illegal move: the position before it is reinstated.`,
    say('illegal.reinstated', { color: side }),
    out,
  );
  const pending = out.pending;
  if (pending?.kind === 'promotion' && profile.illegalMoves.unfinishedPromotion === 'queen') {
    const m = pressFor(tx, side, at, false);
    completeUnfinishedPromotion(tx, pending, at);
    if (m) patch(tx, { completed: { ...tx.st.completed, [side]: tx.st.rec.game.length } });
    sanction(tx, side, at);
    if (!tx.st.ended) emitClock(tx, at);
    return;
  }
  const m = pressFor(tx, side, at, false);
  if (m) undoPress(tx, side, at, m.creditMs + m.bonusMs);
  sanction(tx, side, at);
  if (!tx.st.ended) emitClock(tx, at);
};

/** A press with no move made since the player's last completed one. */
export const onPressWithoutMove = (tx: Tx, side: Color, at: number): void => {
  const { profile } = tx.st;
  if (profile.illegalMoves.pressWithoutMoveCounts) {
    emit(tx, at, {
      type: 'alert',
      code: 'press-without-move',
      article: citeTopic(profile, 'pressWithoutMove', 'illegalMove'),
      color: side,
      detail: `${NAME[side]} pressed the clock without making a move: penalised as an illegal move; his clock is restarted.`,
      text: [say('press.illegal', { color: side })],
    });
    sanction(tx, side, at);
    if (!tx.st.ended) emitClock(tx, at);
    return;
  }
  emit(tx, at, {
    type: 'alert',
    code: 'press-without-move',
    article: citeTopic(profile, 'penalties'),
    color: side,
    detail: `${NAME[side]} pressed the clock without making a move: improper handling of the clock, at the arbiter's discretion.`,
    text: [say('press.discretion', { color: side })],
  });
};

/** The opponent claims the illegal move in a claim-only regime. Returns false when there is nothing to claim. */
export const claimIllegal = (tx: Tx, by: Color, at: number): boolean => {
  const c = tx.st.claimable;
  const article = citeTopic(tx.st.profile, 'illegalMoveRegime', 'illegalMove');
  if (!c || c.offender === by) return false;
  if (c.closed || tx.st.rec.game.length !== c.ply) {
    patch(tx, { claimable: undefined });
    emit(tx, at, {
      type: 'claim',
      by,
      claim: 'illegalMove',
      status: 'invalid',
      article,
      detail: 'Too late: the claimant has made his move, the illegal move stands.',
      text: [say('claim.too_late', {})],
    });
    return true;
  }
  patch(tx, { claimable: undefined });
  emit(tx, at, { type: 'claim', by, claim: 'illegalMove', status: 'valid', article });
  undoPress(tx, c.offender, at, c.creditMs);
  sanction(tx, c.offender, at);
  if (!tx.st.ended) emitClock(tx, at);
  return true;
};
