/**
 * Following a physical clock (DGT XL/3000 through the board, others later) from its periodic
 * readings: lever presses with their elapsed time (%emt) and shown time (%clk), pauses, flags,
 * resets and arbiter adjustments, drift between the clock and our model of it, and which display
 * (left or right) is White's. A Mealy machine: `applyClockReading(state, reading) → { state, events }`.
 *
 *   let sync = newClockSync({ control: parseTimeControl('180+2').unwrap() });
 *   ({ state: sync, events } = applyClockReading(sync, { at: 0, left: 182_000, right: 182_000, running: 'left' }));
 *   // events: orientation (white = left), started; later a running-side switch yields a press
 *
 * The clock is the authority (Art. 6.10.1): the model is re-based on its displays after every
 * press and every reported drift. Assumptions are listed in docs/clock.md.
 */
import { Result } from '@badrap/result';
import {
  type ClockError,
  type ClockState,
  type IncrementTiming,
  adjustClock,
  newClock,
  pauseClock,
  pressClock,
  remainingMs,
  resumeClock,
  startClock,
} from './clock.js';
import { perMoveOf, type TimeControl } from './timeControl.js';
import type { ByColor, Color } from './types.js';

/** The physical sides of a clock seen from its front (the drivers' ClockSide). */
export type DisplaySide = 'left' | 'right';

/** One reading of a physical clock. Displays show whole seconds, rounded down. */
export interface ClockReading {
  /** Receipt time, monotonic ms. */
  readonly at: number;
  readonly left: number;
  readonly right: number;
  /** The display whose time runs; undefined while the clock is stopped. */
  readonly running: DisplaySide | undefined;
}

export interface ClockSyncConfig {
  /** The event's control: tells which credits a press must show. Without it they are inferred from the displays. */
  readonly control?: TimeControl;
  readonly incrementTiming?: IncrementTiming;
  /** Known orientation; otherwise learned when the clock first runs (the side to move runs first). */
  readonly whiteSide?: DisplaySide;
  /** Side to move when following begins (default white). */
  readonly toMove?: Color;
  /** Moves each side has already completed. */
  readonly moves?: ByColor<number>;
  /** Disagreement between model and clock that is reported as drift (default 2000 ms). */
  readonly driftToleranceMs?: number;
}

export type SyncEvent =
  | { readonly kind: 'orientation'; readonly at: number; readonly whiteSide: DisplaySide }
  | { readonly kind: 'started'; readonly at: number; readonly side: Color }
  | {
      readonly kind: 'press';
      readonly at: number;
      readonly side: Color;
      readonly moveCount: number;
      readonly emtMs: number;
      readonly clkMs: number;
      readonly creditMs: number;
    }
  | { readonly kind: 'paused'; readonly at: number; readonly side: Color }
  | { readonly kind: 'resumed'; readonly at: number; readonly side: Color; readonly swapped: boolean }
  | { readonly kind: 'flag'; readonly at: number; readonly side: Color }
  | { readonly kind: 'reset'; readonly at: number; readonly remaining: ByColor<number> }
  | {
      readonly kind: 'adjusted';
      readonly at: number;
      readonly side: Color;
      readonly fromMs: number;
      readonly toMs: number;
    }
  | {
      readonly kind: 'drift';
      readonly at: number;
      readonly side: Color;
      readonly modelMs: number;
      readonly clockMs: number;
    }
  | {
      readonly kind: 'unexpected';
      readonly at: number;
      readonly reason: 'timeWentBack' | 'wrongSideStarted' | 'stoppedSideRan';
    };

export interface ClockSyncState {
  readonly control: TimeControl | undefined;
  readonly toleranceMs: number;
  /** Our model of the clock, when the control is timed. */
  readonly model: ClockState | undefined;
  readonly whiteSide: DisplaySide | undefined;
  readonly phase: 'waiting' | 'running' | 'paused';
  readonly toMove: Color;
  readonly moves: ByColor<number>;
  readonly flagged: ByColor<boolean>;
  /** Displays before the clock was first started (what a reset returns to). */
  readonly initial: ClockReading | undefined;
  readonly last: ClockReading | undefined;
  /** Since when the running display has shown 0:00:00. */
  readonly zeroSince: number | undefined;
  /** When the running side's turn began and what its display showed then. */
  readonly turn: { readonly at: number; readonly display: number } | undefined;
}

const SECOND = 1000;

export const newClockSync = (config: ClockSyncConfig = {}): ClockSyncState => {
  const toMove = config.toMove ?? 'white';
  const moves = config.moves ?? { white: 0, black: 0 };
  const model =
    config.control === undefined
      ? undefined
      : newClock(config.control, { toMove, moves, incrementTiming: config.incrementTiming }).unwrap(
          m => m,
          () => undefined,
        );
  return {
    control: config.control,
    toleranceMs: config.driftToleranceMs ?? 2000,
    model,
    whiteSide: config.whiteSide,
    phase: 'waiting',
    toMove,
    moves,
    flagged: { white: false, black: false },
    initial: undefined,
    zeroSince: undefined,
    last: undefined,
    turn: undefined,
  };
};

/** Applies a model operation; a refused one leaves the model as it was (the clock stays the authority). */
const step = (
  m: ClockState | undefined,
  f: (m: ClockState) => Result<ClockState, ClockError>,
): ClockState | undefined =>
  m === undefined
    ? undefined
    : f(m).unwrap(
        x => x,
        () => m,
      );

const setTimes = (
  m: ClockState | undefined,
  at: number,
  set: Partial<ByColor<number>>,
): ClockState | undefined => step(m, x => adjustClock(x, at, { set }));

const byColor = (side: Color, ms: number): Partial<ByColor<number>> =>
  side === 'white' ? { white: ms } : { black: ms };

const clamp = (x: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, x));

export const applyClockReading = (
  s0: ClockSyncState,
  r: ClockReading,
): { state: ClockSyncState; events: SyncEvent[] } => {
  const events: SyncEvent[] = [];
  if (s0.last !== undefined && r.at < s0.last.at)
    return { state: s0, events: [{ kind: 'unexpected', at: r.at, reason: 'timeWentBack' }] };
  let s: ClockSyncState = s0.phase === 'waiting' && r.running === undefined ? { ...s0, initial: r } : s0;
  if (s.whiteSide === undefined) {
    if (r.running === undefined) return { state: { ...s, last: r }, events };
    const whiteSide = s.toMove === 'white' ? r.running : r.running === 'left' ? 'right' : 'left';
    events.push({ kind: 'orientation', at: r.at, whiteSide });
    s = { ...s, whiteSide };
  }
  const white = s.whiteSide;
  const show = (x: ClockReading, c: Color): number =>
    (c === 'white') === (white === 'left') ? x.left : x.right;
  const runs = (x: ClockReading): Color | undefined =>
    x.running === undefined ? undefined : x.running === white ? 'white' : 'black';
  const last = s.last ?? r;
  const cur = runs(r);
  const displays: ByColor<number> = { white: show(r, 'white'), black: show(r, 'black') };
  const drift = (side: Color, modelMs: number, clockMs: number): boolean => {
    if (Math.abs(modelMs - clockMs) <= s.toleranceMs) return false;
    events.push({ kind: 'drift', at: r.at, side, modelMs, clockMs });
    return true;
  };
  const flag = (side: Color): void => {
    if (s.flagged[side] || displays[side] > 0) return;
    events.push({ kind: 'flag', at: r.at, side });
    s = { ...s, flagged: { ...s.flagged, [side]: true } };
  };

  // A reset: both displays back to the initial setting once moves were made.
  const initial = s.initial;
  const atInitial = (x: ClockReading): boolean =>
    initial !== undefined &&
    Math.abs(x.left - initial.left) <= SECOND &&
    Math.abs(x.right - initial.right) <= SECOND;
  if (s.phase !== 'waiting' && s.moves.white + s.moves.black > 0 && atInitial(r) && !atInitial(last)) {
    events.push({ kind: 'reset', at: r.at, remaining: displays });
    const toMove = cur ?? s.toMove;
    const model = step(setTimes(s.model, r.at, displays), m => adjustClock(m, r.at, { toMove }));
    const phase = cur === undefined ? 'paused' : 'running';
    const synced = step(model, m =>
      phase === 'paused' && m.phase === 'running'
        ? pauseClock(m, r.at)
        : phase === 'running' && m.phase === 'paused'
          ? resumeClock(m, r.at)
          : Result.ok(m),
    );
    const flagged = { white: false, black: false };
    return {
      state: {
        ...s,
        model: synced,
        phase,
        toMove,
        flagged,
        last: r,
        turn: { at: r.at, display: displays[toMove] },
      },
      events,
    };
  }

  // Displays that moved without a press: the arbiter set them, or a stopped side ran (missed presses).
  const runningBefore = s.phase === 'running' ? s.toMove : undefined;
  const switching = runningBefore !== undefined && cur !== undefined && cur !== runningBefore;
  for (const side of s.phase === 'waiting' || switching ? [] : (['white', 'black'] as const)) {
    const before = show(last, side);
    const now = displays[side];
    if (now > before + SECOND) {
      events.push({ kind: 'adjusted', at: r.at, side, fromMs: before, toMs: now });
      s = {
        ...s,
        model: setTimes(s.model, r.at, byColor(side, now)),
        flagged: { ...s.flagged, [side]: false },
      };
      if (side === s.toMove && s.turn !== undefined)
        s = { ...s, turn: { ...s.turn, display: s.turn.display + now - before } };
    } else if (now < before - SECOND && side !== runningBefore && side !== cur) {
      events.push({ kind: 'unexpected', at: r.at, reason: 'stoppedSideRan' });
      s = { ...s, model: setTimes(s.model, r.at, byColor(side, now)) };
    }
  }

  switch (s.phase) {
    case 'waiting': {
      if (cur === undefined) break;
      if (cur !== s.toMove) events.push({ kind: 'unexpected', at: r.at, reason: 'wrongSideStarted' });
      const before = show(last, cur);
      const startAt = clamp(r.at - (before - displays[cur]), last.at, r.at);
      const set = { white: show(last, 'white'), black: show(last, 'black') };
      if (s.model !== undefined) {
        drift('white', s.model.bank.white, set.white);
        drift('black', s.model.bank.black, set.black);
      }
      const model = step(setTimes(s.model, startAt, set), m =>
        adjustClock(m, startAt, { toMove: cur }).chain(x => startClock(x, startAt)),
      );
      events.push({ kind: 'started', at: startAt, side: cur });
      s = {
        ...s,
        model,
        phase: 'running',
        toMove: cur,
        initial: s.initial ?? (s.moves.white + s.moves.black === 0 ? last : undefined),
        turn: { at: startAt, display: before },
      };
      flag(cur);
      break;
    }
    case 'running': {
      const mover = s.toMove;
      if (cur === undefined) {
        if (displays[mover] === 0) flag(mover);
        else events.push({ kind: 'paused', at: r.at, side: mover });
        s = { ...s, phase: 'paused', model: step(s.model, m => pauseClock(m, r.at)) };
        break;
      }
      if (cur === mover) {
        // A running display at 0:00:00 may still hold a fraction of a second: a flag once it stays there.
        const zeroSince = displays[mover] > 0 ? undefined : (s.zeroSince ?? r.at);
        s = { ...s, zeroSince };
        if (zeroSince !== undefined && r.at - zeroSince >= SECOND) flag(mover);
        if (s.model !== undefined && drift(mover, remainingMs(s.model, r.at)[mover], displays[mover])) {
          s = { ...s, model: setTimes(s.model, r.at, byColor(mover, displays[mover])) };
        }
        break;
      }
      s = press(s, last, r, mover, cur, displays, events, drift);
      flag(cur);
      break;
    }
    case 'paused': {
      if (cur === undefined) break;
      const swapped = cur !== s.toMove;
      events.push({ kind: 'resumed', at: r.at, side: cur, swapped });
      const model = step(s.model, m =>
        resumeClock(m, r.at).chain(x => (swapped ? adjustClock(x, r.at, { toMove: cur }) : Result.ok(x))),
      );
      s = {
        ...s,
        model,
        phase: 'running',
        toMove: cur,
        turn: swapped || s.turn === undefined ? { at: r.at, display: displays[cur] } : s.turn,
      };
      break;
    }
  }
  const same = cur !== undefined && cur === runningBefore;
  return { state: { ...s, last: r, zeroSince: same ? s.zeroSince : undefined }, events };
};

/** The running side switched from `mover` to `next`: `mover` pressed. */
const press = (
  s: ClockSyncState,
  last: ClockReading,
  r: ClockReading,
  mover: Color,
  next: Color,
  displays: ByColor<number>,
  events: SyncEvent[],
  drift: (side: Color, modelMs: number, clockMs: number) => boolean,
): ClockSyncState => {
  const white = s.whiteSide;
  const show = (x: ClockReading, c: Color): number =>
    (c === 'white') === (white === 'left') ? x.left : x.right;
  const nextBefore = show(last, next);
  // The opponent's display has run since the press (0 inside a delay: the press is then close to the reading).
  const at = clamp(r.at - (nextBefore - displays[next]), last.at, r.at);
  const turn = s.turn ?? { at: last.at, display: show(last, mover) };
  const moveCount = s.moves[mover] + 1;
  const shown = displays[mover];
  let model = s.model;
  let credit: number;
  let bonus = 0;
  if (model !== undefined) {
    if (model.toMove !== mover) model = step(model, m => adjustClock(m, at, { toMove: mover }));
    const pressed =
      model === undefined
        ? undefined
        : pressClock(model, mover, at).unwrap(
            x => x,
            () => undefined,
          );
    credit = pressed?.move.creditMs ?? 0;
    bonus = pressed?.move.bonusMs ?? 0;
    if (pressed !== undefined) {
      drift(mover, pressed.move.clkMs, shown);
      model = pressed.state;
    }
  } else {
    // No control: the credit is how far the display jumped at the press, in whole seconds.
    const atPress = show(last, mover) - (at - last.at);
    credit = Math.max(0, Math.round((shown - atPress) / SECOND) * SECOND);
  }
  const pm = s.control?.kind === 'periods' ? perMoveOf(s.control.periods, moveCount) : undefined;
  const wall = Math.max(0, at - turn.at);
  let emtMs: number;
  if (pm?.kind === 'delay' || pm?.kind === 'bronstein') {
    const spent = turn.display - (shown - bonus);
    emtMs = spent > 0 ? spent + pm.ms : Math.min(wall, pm.ms);
  } else {
    emtMs = Math.max(0, turn.display - (shown - credit - bonus));
  }
  events.push({ kind: 'press', at, side: mover, moveCount, emtMs, clkMs: shown, creditMs: credit + bonus });
  return {
    ...s,
    model: setTimes(model, at, byColor(mover, shown)),
    toMove: next,
    moves: { ...s.moves, [mover]: moveCount },
    turn: { at, display: nextBefore },
  };
};
