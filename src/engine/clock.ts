/**
 * The chess clock (FIDE Art. 6) as pure arithmetic: an immutable state plus functions that take
 * `now` (monotonic ms) and return the next state. Periods with move counts, Fischer increment,
 * Bronstein and simple delay, sandclock, pause/resume and adjustment by the arbiter, and the exact
 * instant each flag fell. No timers: the bridge decides when to look.
 *
 *   const c = startClock(newClock(parseTimeControl('300+3').unwrap()).unwrap(), 0).unwrap();
 *   const { state, move } = pressClock(c, 'white', 4_200).unwrap(); // move.emtMs 4200, move.clkMs 301_800
 *   remainingMs(state, 10_000); // { white: 301_800, black: 297_200 }
 *
 * Increment timing: FIDE (E18+ glossary, "cumulative mode") adds the increment *before* each move,
 * so the first one is in the initial display (a DGT clock set to 3+2 starts at 0:03:02) and each
 * press credits the mover's next increment. `incrementTiming: 'afterMove'` is the online convention.
 */
import { Result } from '@badrap/result';
import { opposite } from 'chessops/util';
import { endsPeriod, perMoveOf, periodOfMove, type TimeControl, type TimedControl } from './timeControl.js';
import { type ByColor, type Color, dataError } from './types.js';

export type IncrementTiming = 'beforeMove' | 'afterMove';

/** ready: set, not started; running: `toMove`'s time runs; paused: stopped by the arbiter (6.11); stopped: game over. */
export type ClockPhase = 'ready' | 'running' | 'paused' | 'stopped';

export interface ClockState {
  readonly control: TimedControl;
  readonly incrementTiming: IncrementTiming;
  readonly phase: ClockPhase;
  /** Side whose clock runs (or will run when started or resumed). */
  readonly toMove: Color;
  /** Main time left in ms; for `toMove` while running, as of `mark`. */
  readonly bank: ByColor<number>;
  /** Instant up to which `bank`, `delayLeft` and `turnUsed` are settled. */
  readonly mark: number;
  /** Simple-delay time `toMove` still has this turn before the main time runs, as of `mark`. */
  readonly delayLeft: number;
  /** Clock time `toMove` has used this turn (pauses excluded), as of `mark`. */
  readonly turnUsed: number;
  /** Moves completed (clock pressed) by each player: drives the periods. */
  readonly moves: ByColor<number>;
  /** Instant each side's main time reached zero, if it did. */
  readonly flags: ByColor<number | undefined>;
}

export interface ClockOptions {
  /** Side that moves first (default white; Black when a game starts from a position with Black to move). */
  readonly toMove?: Color;
  /** Moves already completed, when a game resumes (then set the times with adjustClock). */
  readonly moves?: ByColor<number>;
  readonly incrementTiming?: IncrementTiming;
}

/** What a completed move took and left: PGN %emt and %clk. */
export interface MoveTime {
  readonly side: Color;
  /** This player's move count including this move. */
  readonly moveCount: number;
  readonly at: number;
  /** Clock time used for the move, pauses excluded (%emt). */
  readonly emtMs: number;
  /** Time left after the press, credits included (%clk): what the display shows. */
  readonly clkMs: number;
  /** Increment or Bronstein give-back credited by this press. */
  readonly creditMs: number;
  /** Next period's time added because this move completed a period. */
  readonly bonusMs: number;
  /** When this side's flag fell, if it has. */
  readonly flaggedAt: number | undefined;
}

export type ClockProblem =
  | { readonly kind: 'untimed'; readonly control: 'unknown' | 'untimed' }
  | { readonly kind: 'wrongPhase'; readonly phase: ClockPhase; readonly expected: readonly ClockPhase[] }
  | { readonly kind: 'notOnMove'; readonly side: Color }
  | { readonly kind: 'timeWentBack'; readonly now: number; readonly mark: number }
  | { readonly kind: 'badValue'; readonly field: string; readonly value: number };

export type ClockError = ClockProblem & Error;

const fail = (p: ClockProblem): Result<never, ClockError> => {
  switch (p.kind) {
    case 'untimed':
      return Result.err(dataError(p, `no clock for a ${p.control} time control`));
    case 'wrongPhase':
      return Result.err(dataError(p, `clock is ${p.phase}, expected ${p.expected.join(' or ')}`));
    case 'notOnMove':
      return Result.err(dataError(p, `${p.side}'s clock is not running`));
    case 'timeWentBack':
      return Result.err(dataError(p, `time went back: ${p.now} < ${p.mark}`));
    case 'badValue':
      return Result.err(dataError(p, `bad ${p.field}: ${p.value}`));
  }
};

const both = <T>(white: T, black: T): ByColor<T> => ({ white, black });
const withSide = <T>(by: ByColor<T>, side: Color, value: T): ByColor<T> =>
  side === 'white' ? { ...by, white: value } : { ...by, black: value };

/** The increment or simple delay (by `kind`) of a player's `move`-th move, 0 if that move has another or none. */
const perMoveMs = (control: TimedControl, move: number, kind: 'increment' | 'delay'): number => {
  const pm = control.kind === 'periods' ? perMoveOf(control.periods, move) : undefined;
  return pm?.kind === kind ? pm.ms : 0;
};

/** A clock set for `control`, not started. The initial display includes the first increment (beforeMove timing). */
export const newClock = (
  control: TimeControl,
  options: ClockOptions = {},
): Result<ClockState, ClockError> => {
  if (control.kind === 'unknown' || control.kind === 'untimed')
    return fail({ kind: 'untimed', control: control.kind });
  const timing = options.incrementTiming ?? 'beforeMove';
  const moves = options.moves ?? both(0, 0);
  const toMove = options.toMove ?? 'white';
  const initial = (side: Color): number => {
    if (control.kind === 'sandclock') return control.ms;
    const next = moves[side] + 1;
    const base = control.periods[periodOfMove(control.periods, next)]?.ms ?? 0;
    return base + (timing === 'beforeMove' ? perMoveMs(control, next, 'increment') : 0);
  };
  const bank = both(initial('white'), initial('black'));
  const fresh = {
    phase: 'ready',
    mark: 0,
    delayLeft: 0,
    turnUsed: 0,
    flags: both(undefined, undefined),
  } as const;
  return Result.ok({ ...fresh, control, incrementTiming: timing, toMove, bank, moves });
};

/** The state advanced to `now` (no phase change): time drained, delay consumed, flag recorded at its exact instant. */
const settle = (s: ClockState, now: number): ClockState => {
  if (s.phase !== 'running' || now <= s.mark) return s;
  const dt = now - s.mark;
  const side = s.toMove;
  const fromDelay = Math.min(dt, s.delayLeft);
  const drained = Math.min(dt - fromDelay, s.bank[side]);
  const fell = s.flags[side] === undefined && dt >= s.delayLeft && dt - fromDelay >= s.bank[side];
  let bank = withSide(s.bank, side, s.bank[side] - drained);
  if (s.control.kind === 'sandclock') bank = withSide(bank, opposite(side), bank[opposite(side)] + drained);
  const flags = fell ? withSide(s.flags, side, s.mark + s.delayLeft + s.bank[side]) : s.flags;
  return { ...s, bank, flags, mark: now, delayLeft: s.delayLeft - fromDelay, turnUsed: s.turnUsed + dt };
};

const checkTime = (s: ClockState, now: number): Result<ClockState, ClockError> =>
  s.phase === 'running' && now < s.mark
    ? fail({ kind: 'timeWentBack', now, mark: s.mark })
    : Result.ok(settle(s, now));

const expectPhase = (s: ClockState, ...expected: ClockPhase[]): Result<ClockState, ClockError> =>
  expected.includes(s.phase) ? Result.ok(s) : fail({ kind: 'wrongPhase', phase: s.phase, expected });

/** Starts the clock of the side to move (Art. 6.5 E97/E09, 6.6 E14+: at the scheduled time, present or not). */
export const startClock = (s: ClockState, now: number): Result<ClockState, ClockError> =>
  expectPhase(s, 'ready').map(r => {
    const delayLeft = perMoveMs(r.control, r.moves[r.toMove] + 1, 'delay');
    return { ...r, phase: 'running', mark: now, turnUsed: 0, delayLeft };
  });

/** `side` presses its clock at `now`: the move is completed (6.2.1), credits are added, the opponent's time runs. */
export const pressClock = (
  s0: ClockState,
  side: Color,
  now: number,
): Result<{ state: ClockState; move: MoveTime }, ClockError> => {
  const ready = expectPhase(s0, 'running');
  if (ready.isErr) return Result.err(ready.error);
  if (side !== s0.toMove) return fail({ kind: 'notOnMove', side });
  const settled = checkTime(s0, now);
  if (settled.isErr) return Result.err(settled.error);
  const s = settled.value;
  const n = s.moves[side] + 1;
  const flaggedAt = s.flags[side];
  let creditMs = 0;
  let bonusMs = 0;
  if (s.control.kind === 'periods' && flaggedAt === undefined) {
    const { periods } = s.control;
    const pm = perMoveOf(periods, n);
    if (pm?.kind === 'bronstein') creditMs = Math.min(s.turnUsed, pm.ms);
    else creditMs = perMoveMs(s.control, s.incrementTiming === 'beforeMove' ? n + 1 : n, 'increment');
    if (endsPeriod(periods, n)) bonusMs = periods[periodOfMove(periods, n + 1)]?.ms ?? 0;
  }
  const clkMs = s.bank[side] + creditMs + bonusMs;
  const other = opposite(side);
  const state: ClockState = {
    ...s,
    toMove: other,
    bank: withSide(s.bank, side, clkMs),
    moves: withSide(s.moves, side, n),
    mark: now,
    turnUsed: 0,
    delayLeft: perMoveMs(s.control, s.moves[other] + 1, 'delay'),
  };
  const move: MoveTime = {
    side,
    moveCount: n,
    at: now,
    emtMs: s.turnUsed,
    clkMs,
    creditMs,
    bonusMs,
    flaggedAt,
  };
  return Result.ok({ state, move });
};

/** The arbiter pauses the clocks (6.11.1); the turn, its used time and any delay left are kept. */
export const pauseClock = (s: ClockState, now: number): Result<ClockState, ClockError> =>
  expectPhase(s, 'running')
    .chain(r => checkTime(r, now))
    .map(r => ({ ...r, phase: 'paused' }));

export const resumeClock = (s: ClockState, now: number): Result<ClockState, ClockError> =>
  expectPhase(s, 'paused')
    .chain(r => (now < r.mark ? fail({ kind: 'timeWentBack', now, mark: r.mark }) : Result.ok(r)))
    .map(r => ({ ...r, phase: 'running', mark: now }));

/** The game is over: the clock stops for good (displays keep the final times). */
export const stopClock = (s: ClockState, now: number): Result<ClockState, ClockError> =>
  expectPhase(s, 'ready', 'running', 'paused')
    .chain(r => checkTime(r, now))
    .map(r => ({ ...r, phase: 'stopped' }));

export interface ClockAdjustment {
  /** Set a side's main time (6.10.2, 7.1). */
  readonly set?: Partial<ByColor<number>>;
  /** Add (or, negative, remove) time: penalties (7.5.5), an increment earned by an illegal move. */
  readonly add?: Partial<ByColor<number>>;
  /** Correct the move counters (6.10.2). */
  readonly moves?: Partial<ByColor<number>>;
  /** Hand the move to this side (position reinstated): its turn starts afresh. */
  readonly toMove?: Color;
}

/** An arbiter's correction at `now`. A side given time again loses its flag; a side set to zero flags now. */
export const adjustClock = (
  s0: ClockState,
  now: number,
  adj: ClockAdjustment,
): Result<ClockState, ClockError> => {
  const settled = checkTime(s0, now);
  if (settled.isErr) return Result.err(settled.error);
  let s = settled.value;
  for (const side of ['white', 'black'] as const) {
    const set = adj.set?.[side];
    const add = adj.add?.[side];
    const moves = adj.moves?.[side];
    const values = { set, add, moves };
    for (const [field, v] of Object.entries(values)) {
      if (v !== undefined && (!Number.isSafeInteger(v) || (field !== 'add' && v < 0)))
        return fail({ kind: 'badValue', field: `${field}.${side}`, value: v });
    }
    if (set === undefined && add === undefined && moves === undefined) continue;
    const ms = Math.max(0, (set ?? s.bank[side]) + (add ?? 0));
    const flag = ms > 0 ? undefined : (s.flags[side] ?? now);
    s = {
      ...s,
      bank: withSide(s.bank, side, ms),
      flags: withSide(s.flags, side, flag),
      moves: withSide(s.moves, side, moves ?? s.moves[side]),
    };
  }
  if (adj.toMove !== undefined && adj.toMove !== s.toMove) {
    const delayLeft = perMoveMs(s.control, s.moves[adj.toMove] + 1, 'delay');
    s = { ...s, toMove: adj.toMove, mark: now, turnUsed: 0, delayLeft };
  }
  return Result.ok(s);
};

/** Main time each side has at `now` (a simple delay still running is not included: see readClock). */
export const remainingMs = (s: ClockState, now: number): ByColor<number> => settle(s, now).bank;

export interface FlagStatus {
  /** The side whose time reached zero first, and when. */
  readonly first: { readonly side: Color; readonly at: number } | undefined;
  /** Both flags are down. */
  readonly both: boolean;
  readonly at: ByColor<number | undefined>;
}

/** Which flags have fallen by `now`, in order, at their exact instants. */
export const flagStatus = (s: ClockState, now: number): FlagStatus => {
  const at = settle(s, now).flags;
  const sides = (['white', 'black'] as const).filter(c => at[c] !== undefined);
  const first = sides.sort((a, b) => (at[a] ?? 0) - (at[b] ?? 0))[0];
  return {
    first: first === undefined ? undefined : { side: first, at: at[first] ?? 0 },
    both: sides.length === 2,
    at,
  };
};

/** Everything a display needs at `now`. */
export interface ClockReadout {
  readonly remaining: ByColor<number>;
  /** Simple delay left for the side to move. */
  readonly delayLeftMs: number;
  /** Clock time used in the current turn. */
  readonly turnMs: number;
  readonly running: Color | undefined;
  readonly toMove: Color;
  readonly moves: ByColor<number>;
  /** Index of the period each side is in (the period of its next move). */
  readonly period: ByColor<number>;
  readonly flags: FlagStatus;
}

export const readClock = (s0: ClockState, now: number): ClockReadout => {
  const s = settle(s0, now);
  const period = (c: Color): number =>
    s.control.kind === 'periods' ? periodOfMove(s.control.periods, s.moves[c] + 1) : 0;
  return {
    remaining: s.bank,
    delayLeftMs: s.delayLeft,
    turnMs: s.turnUsed,
    running: s.phase === 'running' ? s.toMove : undefined,
    toMove: s.toMove,
    moves: s.moves,
    period: both(period('white'), period('black')),
    flags: flagStatus(s, now),
  };
};

// ---------------------------------------------------------------------------------------------
// Recorded clocks (PGN %clk) → elapsed times (%emt), checked against the control

/** One ply of a replayed record: undefined emt when the record cannot tell (missing, time gained, inside a delay). */
export interface ReplayedPly {
  readonly ply: number;
  readonly side: Color;
  readonly moveCount: number;
  readonly emtMs: number | undefined;
  readonly clkMs: number | undefined;
}

export type ClockIssue =
  /** No clock recorded for this ply. */
  | { readonly kind: 'missing'; readonly ply: number; readonly side: Color }
  /** The record shows more time than the control can give after this move (arbiter adjustment or a bad record). */
  | {
      readonly kind: 'gained';
      readonly ply: number;
      readonly side: Color;
      readonly gainedMs: number;
      readonly clkMs: number;
      readonly maxMs: number;
    }
  /** The side moved again after its recorded time reached zero. */
  | { readonly kind: 'movedAfterZero'; readonly ply: number; readonly side: Color };

export interface ClockReplay {
  readonly plies: readonly ReplayedPly[];
  readonly issues: readonly ClockIssue[];
}

export interface ReplayOptions extends ClockOptions {
  /** Allowed excess over the control, for records rounded to whole seconds (default 1000). */
  readonly toleranceMs?: number;
}

/**
 * Derives each move's elapsed time from the remaining times recorded after each ply (`clks[i]` in
 * ms, undefined if absent), by running the clock model; records the control cannot explain are
 * listed as issues and the model then follows the record. Never throws on odd data.
 */
export const replayRecordedClocks = (
  control: TimeControl,
  clks: readonly (number | undefined)[],
  options: ReplayOptions = {},
): Result<ClockReplay, ClockError> => {
  const tolerance = options.toleranceMs ?? 1000;
  const created = newClock(control, options).chain(c => startClock(c, 0));
  if (created.isErr) return Result.err(created.error);
  let s = created.value;
  let t = 0;
  const plies: ReplayedPly[] = [];
  const issues: ClockIssue[] = [];
  const zeroed = new Set<Color>();
  for (const [i, rec] of clks.entries()) {
    const side = s.toMove;
    const ply = i + 1;
    if (zeroed.has(side)) {
      issues.push({ kind: 'movedAfterZero', ply, side });
      zeroed.delete(side);
    }
    const before = s.bank[side];
    const instant = pressClock(s, side, t);
    if (instant.isErr) return Result.err(instant.error);
    const maxMs = instant.value.move.clkMs;
    let emt: number | undefined;
    if (rec === undefined) issues.push({ kind: 'missing', ply, side });
    else if (rec - maxMs > tolerance)
      issues.push({ kind: 'gained', ply, side, gainedMs: rec - maxMs, clkMs: rec, maxMs });
    else if (rec === 0) emt = before + perMoveMs(s.control, s.moves[side] + 1, 'delay');
    else {
      const short = Math.max(0, maxMs - rec);
      const pm = s.control.kind === 'periods' ? perMoveOf(s.control.periods, s.moves[side] + 1) : undefined;
      const delayed = pm?.kind === 'delay' || pm?.kind === 'bronstein';
      emt = delayed ? (short > 0 ? short + pm.ms : undefined) : short;
    }
    const pressed = pressClock(s, side, t + (emt ?? 0));
    if (pressed.isErr) return Result.err(pressed.error);
    s = pressed.value.state;
    t += emt ?? 0;
    if (rec !== undefined && rec !== s.bank[side]) {
      const fixed = adjustClock(s, t, { set: side === 'white' ? { white: rec } : { black: rec } });
      if (fixed.isErr) return Result.err(fixed.error);
      s = fixed.value;
    }
    if (rec === 0) zeroed.add(side);
    plies.push({ ply, side, moveCount: s.moves[side], emtMs: emt, clkMs: rec });
  }
  return Result.ok({ plies, issues });
};
