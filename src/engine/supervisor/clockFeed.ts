/**
 * The clock as the supervisor runs it (Art. 6): the clock model of clock.ts started at the first
 * input, fed by presses, corrected by a physical clock's readings and by the arbiter; flags
 * detected at their exact instant and decided by flag.ts with the helpmate verdict (6.9).
 *
 *   startIfNeeded(tx, at);                 // White's (or the side to move's) time runs
 *   const credit = pressFor(tx, 'white', at); // the move is completed; undefined if not his clock
 *   checkFlags(tx, at);                    // a fallen flag ends the game (or alerts the arbiter)
 */
import { opposite } from 'chessops';
import {
  type MoveTime,
  adjustClock,
  flagStatus,
  newClock,
  pauseClock,
  pressClock,
  readClock,
  resumeClock,
  startClock,
} from '../clock.js';
import type { ClockAdjustment } from '../clock.js';
import { decideFlag } from '../flag.js';
import { canCheckmate } from '../helpmate.js';
import { makeOutcome } from '../outcome.js';
import { isLastPeriod, parseTimeControl } from '../timeControl.js';
import { type Color, cite } from '../types.js';
import { commitEndBefore } from './commit.js';
import { endWith } from './ending.js';
import { type SupervisorState, positionAt } from './state.js';
import { type Tx, emit, emitOnce, patch } from './tx.js';
import { say } from '../texts.js';

/** The clock model for the settings' time control (undefined: no time control given). */
export const makeClockModel = (
  timeControl: string | undefined,
  toMove: Color,
  moves: { readonly white: number; readonly black: number },
): SupervisorState['clock'] => {
  if (timeControl === undefined) return undefined;
  const parsed = parseTimeControl(timeControl);
  if (parsed.isErr) throw new TypeError(`GameSettings.timeControl: ${parsed.error.message}`);
  const clock = newClock(parsed.value, { toMove, moves });
  if (clock.isErr) return undefined;
  return clock.value;
};

/**
 * A board without a clock (GameSettings.clock false) that has not shown one since (a press or a
 * reading): the model's times there are a guess, never published, never a flag.
 */
const noClockShown = (st: SupervisorState): boolean =>
  st.settings.clock === false && !st.pressSeen && st.reading === undefined;

/** Remaining times now, from the model or the last reading; none where noClockShown. */
export const clocksAt = (
  st: SupervisorState,
  at: number,
): { readonly whiteMs: number; readonly blackMs: number } | undefined => {
  if (noClockShown(st)) return undefined;
  if (st.clock) {
    const r = readClock(st.clock, Math.max(at, st.clock.mark)).remaining;
    return { whiteMs: r.white, blackMs: r.black };
  }
  return st.reading ? { whiteMs: st.reading.whiteMs, blackMs: st.reading.blackMs } : undefined;
};

/** Publishes the clock as it stands at `at`. */
export const emitClock = (tx: Tx, at: number): void => {
  const { clock, reading } = tx.st;
  if (clock) {
    const r = readClock(clock, Math.max(at, clock.mark));
    emit(tx, at, {
      type: 'clock',
      whiteMs: r.remaining.white,
      blackMs: r.remaining.black,
      running: r.running,
    });
  } else if (reading) {
    emit(tx, at, {
      type: 'clock',
      whiteMs: reading.whiteMs,
      blackMs: reading.blackMs,
      running: reading.running,
    });
  }
};

/** Starts the model at the first input (Art. 6.6 / 6.5: the clock of the side to move starts). */
export const startIfNeeded = (tx: Tx, at: number): void => {
  if (tx.st.started) return;
  patch(tx, { started: true });
  const { clock } = tx.st;
  if (!clock || clock.phase !== 'ready') return;
  const started = startClock(clock, at);
  if (started.isOk) {
    patch(tx, { clock: started.value });
    emitClock(tx, at);
  }
};

/** `side` presses: completes his move on the model. Returns what the press credited, or undefined. */
export const pressFor = (tx: Tx, side: Color, at: number, announce = true): MoveTime | undefined => {
  const { clock } = tx.st;
  if (!clock || clock.phase !== 'running' || clock.toMove !== side) return undefined;
  const pressed = pressClock(clock, side, Math.max(at, clock.mark));
  if (pressed.isErr) return undefined;
  patch(tx, { clock: pressed.value.state });
  if (announce) emitClock(tx, at);
  return pressed.value.move;
};

/** An arbiter's (or a penalty's) change to the model; publishes the clock. */
export const adjust = (tx: Tx, at: number, adj: ClockAdjustment, announce = true): void => {
  const { clock } = tx.st;
  if (!clock) return;
  const done = adjustClock(clock, Math.max(at, clock.mark), adj);
  if (done.isErr) return;
  patch(tx, { clock: done.value });
  if (announce) emitClock(tx, at);
};

/** Adds `ms` to `side`'s time (a penalty in the opponent's favour, 7.5.5 / 9.5). */
export const addTime = (tx: Tx, at: number, side: Color, ms: number, announce = true): void => {
  if (ms === 0) return;
  adjust(tx, at, { add: side === 'white' ? { white: ms } : { black: ms } }, announce);
};

export const pauseOrResume = (tx: Tx, at: number, pause: boolean): void => {
  const { clock } = tx.st;
  if (!clock) return;
  const t = Math.max(at, clock.mark);
  const done = pause ? pauseClock(clock, t) : resumeClock(clock, t);
  if (done.isErr) return;
  patch(tx, { clock: done.value });
  emitClock(tx, at);
};

/** A physical clock's reading: the model follows it (or it is kept as the clock when no model runs). */
export const applyReading = (
  tx: Tx,
  at: number,
  whiteMs: number,
  blackMs: number,
  running: Color | undefined,
): void => {
  const before = tx.st.reading;
  patch(tx, { reading: { whiteMs, blackMs, running, at, ply: tx.st.rec.game.length } });
  const { clock } = tx.st;
  if (clock && clock.phase !== 'stopped' && clock.phase !== 'ready') {
    const t = Math.max(at, clock.mark);
    const set = adjustClock(clock, t, {
      set: { white: Math.max(0, Math.round(whiteMs)), black: Math.max(0, Math.round(blackMs)) },
      ...(running ? { toMove: running } : {}),
    });
    if (set.isOk) {
      let next = set.value;
      const toggled =
        running === undefined && next.phase === 'running'
          ? pauseClock(next, t)
          : running !== undefined && next.phase === 'paused'
            ? resumeClock(next, t)
            : undefined;
      if (toggled?.isOk) next = toggled.value;
      patch(tx, { clock: next });
    }
  }
  if (!before || before.running !== running) emitClock(tx, at);
};

/** Whether the flagged side is in a sudden-death period (for both flags down, E09 6.11). */
const lastPeriodOf = (st: SupervisorState, side: Color, at: number): boolean => {
  const { clock } = st;
  if (clock?.control.kind !== 'periods') return true;
  return isLastPeriod(clock.control.periods, readClock(clock, Math.max(at, clock.mark)).period[side]);
};

/**
 * Why a flag fallen at `at` is not the daemon's to decide (undefined: it saw it fall, with the game
 * in view). A flag counts once it is observed (6.8), and what happened before that stands: a mate,
 * or a resignation or agreement the board cannot show. After a lost link or a restart the daemon
 * did not see when the flag fell nor what came before it, and the clock model missed the presses:
 * the clock's zero is a reading for the arbiter, never a result decided alone.
 */
/** Why a flag at 0:00 was not seen to fall, as the key of its sentence; undefined when it was. */
type UnseenFlag =
  | 'flag.unseen_link_down'
  | 'flag.unseen_log'
  | 'flag.unseen_mismatch'
  | 'flag.unseen_gap'
  | 'flag.unseen_reset';

const unseenFlag = (st: SupervisorState, at: number): UnseenFlag | undefined => {
  if (st.rec.reset) return 'flag.unseen_reset';
  if (st.linkLost) return 'flag.unseen_link_down';
  if (st.recovering) return 'flag.unseen_log';
  if (st.rec.undecided || st.inferred === 'contradicted') return 'flag.unseen_mismatch';
  const { gap } = st;
  if (gap && (gap.boardAt === undefined || at < gap.boardAt || gap.clockAt === undefined))
    return 'flag.unseen_gap';
  return undefined;
};

/** The English of each reason, as the catalog writes it. */
const UNSEEN_WHY: { readonly [K in UnseenFlag]: string } = {
  'flag.unseen_link_down': 'the link to the board is down',
  'flag.unseen_log': "it fell in the board's log replayed after a gap (its times are not known)",
  'flag.unseen_mismatch': 'the board does not show the game yet (a board mismatch is open)',
  'flag.unseen_gap':
    'it fell while the daemon did not see the game (a lost link or a restart), or is the first reading since',
  'flag.unseen_reset':
    'the pieces had been set up in the starting position again before it fell (the game was over on the board)',
};

/** Decides the flag of `side` fallen at `at` (once). `claimed`: the opponent claims it (claim-only regimes). */
export const decideFlagOf = (
  tx: Tx,
  side: Color,
  at: number,
  both: boolean,
  claimed = false,
  orderKnown = true,
): void => {
  if (tx.st.ended) return;
  // A move made before the flag that ends the game stands (S60), pressed or not.
  if (commitEndBefore(tx, at)) return;
  const st = tx.st;
  const unseen = claimed ? undefined : unseenFlag(st, at);
  if (unseen !== undefined) {
    patch(tx, { flagDone: { ...st.flagDone, [side]: true } });
    const name = side === 'white' ? 'White' : 'Black';
    emitOnce(tx, `flag-unseen:${side}`, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: cite(st.profile.edition, st.profile.flag.articles.flag),
      color: side,
      detail: `${name}'s clock shows no time left, but ${UNSEEN_WHY[unseen]}: whether the game had ended before, and the result, are the arbiter's to establish (6.8, 6.9). No result from the daemon.`,
      text: [say(unseen, { color: side })],
    });
    return;
  }
  const { profile } = st;
  const pos = positionAt(st, st.rec.game.length);
  const winner = opposite(side);
  const decision = decideFlag({
    flaggedSide: side,
    bothFlags: both,
    orderKnown,
    lastPeriod: lastPeriodOf(st, side, at),
    gameAlreadyOver: false,
    opponentCanMate: canCheckmate(pos, winner),
    claimed,
    rules: profile.flag,
  });
  if (!claimed || decision.kind !== 'awaitingClaim') {
    patch(tx, { flagDone: { ...st.flagDone, [side]: true } });
  }
  const article = cite(profile.edition, decision.article);
  switch (decision.kind) {
    case 'win':
      endWith(tx, at, makeOutcome('flag', decision.winner, profile).unwrap());
      return;
    case 'draw':
      endWith(
        tx,
        at,
        decision.reason === 'bothFlags'
          ? makeOutcome('bothFlags', undefined, profile).unwrap()
          : makeOutcome('flagVsCannotMate', undefined, profile, side).unwrap(),
      );
      return;
    case 'continue':
      emitOnce(tx, `flag:${side}:${at}`, at, {
        type: 'alert',
        code: 'flag',
        article,
        color: side,
        detail: 'Both flags have fallen in an earlier period: the game continues.',
        text: [say('flag.both_earlier', {})],
      });
      return;
    case 'nothing':
      return;
    case 'awaitingClaim':
      emitOnce(tx, `flag:${side}:${at}`, at, {
        type: 'alert',
        code: 'flag',
        article,
        color: side,
        detail: `${side === 'white' ? 'White' : 'Black'}'s flag has fallen; it counts only if ${decision.claimant === 'white' ? 'White' : 'Black'} claims it (not to be announced to the players).`,
        text: [say('flag.awaiting_claim', { color: side, claimant: decision.claimant })],
      });
      return;
    case 'arbiter':
      emitOnce(tx, `flag-arbiter:${side}:${at}`, at, {
        type: 'alert',
        code: 'arbiter-decision-needed',
        article,
        color: side,
        detail: `${side === 'white' ? 'White' : 'Black'}'s flag has fallen; whether ${decision.winnerIfMate === 'white' ? 'White' : 'Black'} can still checkmate is undecided: the arbiter rules.`,
        text: [say('flag.cannot_mate_undecided', { color: side, opponent: decision.winnerIfMate })],
      });
      return;
  }
};

/** Decides every flag that fell up to `upTo`, in the order they fell. */
export const checkFlags = (tx: Tx, upTo: number): void => {
  const st = tx.st;
  if (st.ended) return;
  // A flag from a guess would be a result the board never showed.
  if (noClockShown(st)) return;
  if (st.clock) {
    const c = st.clock;
    if (c.phase !== 'running') return;
    // Fast path (every board event comes here): the running side still has time, no flag is down.
    const left = c.bank[c.toMove] + c.delayLeft - (upTo - c.mark);
    if (left > 0 && c.flags.white === undefined && c.flags.black === undefined) return;
    const fs = flagStatus(c, Math.max(upTo, c.mark));
    const fallen = (['white', 'black'] as const)
      .filter(c => fs.at[c] !== undefined && !st.flagDone[c])
      .sort((a, b) => (fs.at[a] ?? 0) - (fs.at[b] ?? 0));
    for (const side of fallen) {
      const at = fs.at[side] ?? upTo;
      const otherAt = fs.at[opposite(side)];
      decideFlagOf(tx, side, at, otherAt !== undefined && otherAt <= at);
    }
    return;
  }
  const r = st.reading;
  if (!r?.running || r.at > upTo) return;
  const left = r.running === 'white' ? r.whiteMs : r.blackMs;
  if (left > 0 || st.flagDone[r.running]) return;
  const otherLeft = r.running === 'white' ? r.blackMs : r.whiteMs;
  // Both at zero in the first reading that shows a flag: the clock does not say which fell first.
  decideFlagOf(
    tx,
    r.running,
    r.at,
    otherLeft <= 0,
    false,
    !(otherLeft <= 0 && !st.flagDone[opposite(r.running)]),
  );
};
