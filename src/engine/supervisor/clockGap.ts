/**
 * Plies the board does not show, told by the clock (issue 13: downtime never decides a result). A
 * repetition played while the daemon did not see the game (Qg3 Qd5+ Qf3 Qg5+: four plies) leaves
 * the board as it stood, and every press after it agrees with the record; a piece that went and
 * came back before the move the board shows leaves one ply read off where five were made. Only
 * the clock saw them. The first reading after the board is seen again is compared with the last
 * one before the gap:
 *
 *  - With a Fischer increment, the readings count the presses in between: both times together
 *    lose the time elapsed and gain an increment a press, so presses = (Δwhite + Δblack + elapsed)
 *    / increment. Two or more presses beyond the plies recorded meanwhile: plies are missing.
 *  - Without one, only a record the board shows unchanged can be checked: the side it has waiting
 *    had his clock stopped, so a time of his that changed means he pressed meanwhile.
 *
 * Either is one `arbiter-decision-needed` alert (the record may lack plies, or the clock was
 * stopped or set meanwhile). It judges nobody and stops nothing: the position on the board is the
 * one the record reaches either way, so reading goes on.
 *
 *   checkClockOverGap(tx, 31_000, { whiteMs: 5_390_000, blackMs: 5_342_000, running: 'white' });
 */
import { opposite } from 'chessops';
import { citeTopic } from '../editions.js';
import { say } from '../texts.js';
import type { Color } from '../types.js';
import type { Reading, SupervisorState } from './state.js';
import { type Tx, emitOnce } from './tx.js';

/**
 * A waiting side's time changed by at least this much (ms). A stopped clock shows the same time
 * whatever its resolution; a press adds the increment and takes the thinking time, so the smallest
 * change that is not a reading's rounding is a second.
 */
export const CLOCK_GAP_MS = 1000;

/**
 * The smallest increment that counts presses (ms). Two readings in whole seconds, each up to a
 * second old, put up to 4 s of error in the sum of both times: half an increment must exceed it.
 */
export const COUNTING_INCREMENT_MS = 8000;

const NAME = { white: 'White', black: 'Black' } as const;

/** The increment of a game with one period and a Fischer increment (undefined otherwise). */
const fischerIncrement = (st: SupervisorState): number | undefined => {
  const control = st.clock?.control;
  if (control?.kind !== 'periods' || control.periods.length !== 1) return undefined;
  const [period] = control.periods;
  if (period === undefined || period.moves !== undefined || period.perMove?.kind !== 'increment')
    return undefined;
  return period.perMove.ms;
};

/**
 * A clock reading since the board was seen again after a gap (before it is applied). False while
 * the re-read board is not judged yet (plies still to be read off it: they are not in the record
 * yet), true once the clock was compared, or can never be (no reading before the gap, a board
 * mismatch open, the game over): the first settled reading decides, once.
 */
export const checkClockOverGap = (
  tx: Tx,
  at: number,
  after: Pick<Reading, 'whiteMs' | 'blackMs' | 'running'>,
): boolean => {
  const { st } = tx;
  const { gap, rec } = st;
  const before = gap?.reading;
  if (!gap || !before || st.ended || rec.undecided || rec.awaitSetup) return true;
  if (st.resync || st.recovering || rec.dirty || rec.status.kind !== 'synced') return false;
  const increment = fischerIncrement(st);
  if (increment !== undefined && increment >= COUNTING_INCREMENT_MS) {
    const plies = rec.game.length - before.ply;
    const gained = after.whiteMs - before.whiteMs + (after.blackMs - before.blackMs) + (at - before.at);
    const presses = Math.round(gained / increment);
    // Rounded with half an increment of margin either way: two presses more than plies.
    if (gained - plies * increment < 1.5 * increment) return true;
    emitOnce(tx, `clock-gap:${gap.from}`, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(st.profile, 'displacedFoundLater'),
      color: rec.game.turn,
      detail: `The clock counts ${presses} presses since it was last read before the daemon stopped seeing the game, ${presses - plies} more than the plies recorded since (the record ends at ply ${rec.game.length}): moves may have been made meanwhile that the board does not show (a piece gone and back), or the clock was stopped or set. The record may lack plies: the arbiter checks it. No illegal move.`,
      text: [say('board.presses_over_gap', { count: presses, ply: rec.game.length, more: presses - plies })],
    });
    return true;
  }
  // Without an increment: a record the board shows as it stood, the waiting side's clock stopped.
  if (rec.game.length !== gap.ply || st.inferred) return true;
  const toMove: Color = rec.game.turn;
  if (before.ply !== gap.ply || before.running !== toMove) return true;
  if (after.running !== undefined && after.running !== toMove) return true;
  const waiting = opposite(toMove);
  const was = waiting === 'white' ? before.whiteMs : before.blackMs;
  const now = waiting === 'white' ? after.whiteMs : after.blackMs;
  if (Math.abs(now - was) < CLOCK_GAP_MS) return true;
  const seconds = Math.round(Math.abs(now - was) / 1000);
  emitOnce(tx, `clock-gap:${gap.from}`, at, {
    type: 'alert',
    code: 'arbiter-decision-needed',
    article: citeTopic(st.profile, 'displacedFoundLater'),
    color: waiting,
    detail: `${NAME[waiting]}'s clock changed by ${seconds} s while the daemon did not see the game, although the record after ply ${gap.ply} has ${NAME[waiting]} waiting and the board shows that position: moves may have been made meanwhile that bring the board back to it (a repetition), or the clock was set. The record may lack plies: the arbiter checks it. No illegal move.`,
    text: [say('board.clock_over_gap', { color: waiting, ply: gap.ply, count: seconds })],
  });
  return true;
};
