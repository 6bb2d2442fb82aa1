/**
 * Time controls (FIDE Art. 6.3): periods with move counts, Fischer increment, Bronstein delay and
 * simple (US) delay, sandclock. Reads and writes the PGN `TimeControl` tag and a readable config
 * form; answers which period a move belongs to. Pure data: no clock state here (see clock.ts).
 *
 *   const tc = parseTimeControl('40/5400+30:1800+30').unwrap();
 *   makeReadableTimeControl(tc);                    // '90m/40 + 30m, +30s'
 *   parseReadableTimeControl('15+10').map(makeTimeControl).unwrap(); // '900+10'
 *
 * Forms, units and the meaning of a repeating last period are described in docs/clock.md.
 */
import { Result } from '@badrap/result';
import { dataError } from './types.js';

/** What a player gets with each move of a period: Fischer increment, simple (US) delay, Bronstein delay. */
export type PerMoveKind = 'increment' | 'delay' | 'bronstein';

export interface PerMove {
  readonly kind: PerMoveKind;
  /** Always > 0 (a zero increment or delay is written as no per-move time at all). */
  readonly ms: number;
}

export interface Period {
  /** Moves each player must complete in this period; undefined = the rest of the game (sudden death). */
  readonly moves: number | undefined;
  /** Time added when the period begins, in ms (whole seconds). */
  readonly ms: number;
  readonly perMove: PerMove | undefined;
}

export type TimeControl =
  /** PGN `?` (a lone `*`, written by some exporters, is read the same way). */
  | { readonly kind: 'unknown' }
  /** PGN `-`: no clock. */
  | { readonly kind: 'untimed' }
  /** PGN `*180`: an hourglass; the time one side uses flows to the other. */
  | { readonly kind: 'sandclock'; readonly ms: number }
  /** One or more periods; a last period with a move count repeats (e.g. `40/7200:20/3600`). */
  | { readonly kind: 'periods'; readonly periods: readonly Period[] };

export type TimedControl = Extract<TimeControl, { kind: 'sandclock' | 'periods' }>;

/** Why a time control string was refused: `at` is the 0-based index of `text` in the input. */
export type TimeControlProblem =
  | { readonly kind: 'empty'; readonly at: number; readonly text: string }
  | { readonly kind: 'badPeriod'; readonly at: number; readonly text: string; readonly expected: string }
  | { readonly kind: 'badDuration'; readonly at: number; readonly text: string }
  | { readonly kind: 'badOption'; readonly at: number; readonly text: string }
  | { readonly kind: 'numberTooLarge'; readonly at: number; readonly text: string }
  | { readonly kind: 'zeroMoves'; readonly at: number; readonly text: string }
  | { readonly kind: 'suddenDeathNotLast'; readonly at: number; readonly text: string }
  | { readonly kind: 'noTime'; readonly at: number; readonly text: string }
  | {
      readonly kind: 'optionNotAtPeriodStart';
      readonly at: number;
      readonly text: string;
      readonly move: number;
    }
  | { readonly kind: 'duplicateOption'; readonly at: number; readonly text: string; readonly move: number };

export type TimeControlError = TimeControlProblem & Error;

const MAX_DIGITS = 9; // 999,999,999 s: far beyond any real control, still exact in ms

const fail = (p: TimeControlProblem): Result<never, TimeControlError> => {
  const message = ((): string => {
    switch (p.kind) {
      case 'empty':
        return 'empty time control';
      case 'badPeriod':
        return `expected ${p.expected} at ${p.at}: '${p.text}'`;
      case 'badDuration':
        return `not a duration at ${p.at}: '${p.text}' (write e.g. 90m, 1h30m, 45s)`;
      case 'badOption':
        return `unknown per-move option at ${p.at}: '${p.text}' (write +30s, delay 5s or bronstein 5s, optionally 'from move N')`;
      case 'numberTooLarge':
        return `number too large at ${p.at}: '${p.text}'`;
      case 'zeroMoves':
        return `a period needs at least one move at ${p.at}: '${p.text}'`;
      case 'suddenDeathNotLast':
        return `a period without a move count must be the last one, at ${p.at}: '${p.text}'`;
      case 'noTime':
        return `the control gives no time at all: '${p.text}'`;
      case 'optionNotAtPeriodStart':
        return `move ${p.move} does not start a period, at ${p.at}: '${p.text}'`;
      case 'duplicateOption':
        return `two per-move options from move ${p.move}, at ${p.at}: '${p.text}'`;
    }
  })();
  return Result.err(dataError(p, message));
};

// ---------------------------------------------------------------------------------------------
// Period arithmetic (moves are counted per player, 1-based)

/** Index of the period that a player's `move`-th move belongs to (a repeating last period keeps its index). */
export const periodOfMove = (periods: readonly Period[], move: number): number => {
  let end = 0;
  for (const [i, p] of periods.entries()) {
    if (p.moves === undefined) return i;
    end += p.moves;
    if (move <= end) return i;
  }
  return periods.length - 1;
};

/** Whether completing the player's `move`-th move completes a period (so the next period's time is due). */
export const endsPeriod = (periods: readonly Period[], move: number): boolean => {
  let end = 0;
  for (const p of periods) {
    if (p.moves === undefined) return false;
    end += p.moves;
    if (move <= end) return move === end;
  }
  const last = periods[periods.length - 1]?.moves;
  return last !== undefined && (move - end) % last === 0;
};

/** First move (1-based) of period `index`. */
export const firstMoveOfPeriod = (periods: readonly Period[], index: number): number =>
  1 + periods.slice(0, index).reduce((n, p) => n + (p.moves ?? 0), 0);

/** The per-move time that applies to a player's `move`-th move. */
export const perMoveOf = (periods: readonly Period[], move: number): PerMove | undefined =>
  periods[periodOfMove(periods, move)]?.perMove;

/** True when `index` is a sudden-death period: all remaining moves must be made in it (E09 6.11.b, Art. 10). */
export const isLastPeriod = (periods: readonly Period[], index: number): boolean =>
  periods[index]?.moves === undefined;

const checkPeriods = (
  periods: readonly Period[],
  ats: readonly number[],
  text: string,
): Result<TimeControl, TimeControlError> => {
  for (const [i, p] of periods.entries()) {
    const at = ats[i] ?? 0;
    if (p.moves === 0) return fail({ kind: 'zeroMoves', at, text });
    if (p.moves === undefined && i < periods.length - 1)
      return fail({ kind: 'suddenDeathNotLast', at, text });
  }
  const first = periods[0];
  if (first === undefined || (first.ms === 0 && first.perMove === undefined))
    return fail({ kind: 'noTime', at: 0, text });
  return Result.ok({ kind: 'periods', periods });
};

// ---------------------------------------------------------------------------------------------
// PGN TimeControl tag: `?`, `-`, `*180`, `40/5400+30:1800+30`, `300+3`; extension: `d5`, `b5`

const PER_MOVE_MARK: Record<string, PerMoveKind> = { '+': 'increment', d: 'delay', b: 'bronstein' };
const MARK_OF: Record<PerMoveKind, string> = { increment: '+', delay: 'd', bronstein: 'b' };

/** Reads digits at `i`: the value and the index after them, or undefined when none or too many. */
const digitsAt = (s: string, i: number): { value: number; end: number } | 'none' | 'tooLarge' => {
  let end = i;
  while (end < s.length && s.charCodeAt(end) >= 48 && s.charCodeAt(end) <= 57) end++;
  if (end === i) return 'none';
  if (end - i > MAX_DIGITS) return 'tooLarge';
  return { value: Number(s.slice(i, end)), end };
};

/** Parses a PGN `TimeControl` value (PGN standard 9.6.1, plus `+N` on move-count periods and the `dN`/`bN` delays). */
export const parseTimeControl = (input: string): Result<TimeControl, TimeControlError> => {
  const lead = input.length - input.trimStart().length;
  const s = input.trim();
  if (s === '') return fail({ kind: 'empty', at: 0, text: input });
  if (s === '?' || s === '*') return Result.ok({ kind: 'unknown' });
  if (s === '-') return Result.ok({ kind: 'untimed' });
  const number = (i: number, expected: string): { value: number; end: number } | TimeControlProblem => {
    const d = digitsAt(s, i);
    if (d === 'none') return { kind: 'badPeriod', at: lead + i, text: s.slice(i), expected };
    if (d === 'tooLarge') return { kind: 'numberTooLarge', at: lead + i, text: s.slice(i) };
    return d;
  };
  if (s.startsWith('*')) {
    const d = number(1, 'the seconds of the sandclock');
    if ('kind' in d) return fail(d);
    if (d.end !== s.length)
      return fail({ kind: 'badPeriod', at: lead + d.end, text: s.slice(d.end), expected: 'the end' });
    if (d.value === 0) return fail({ kind: 'noTime', at: lead, text: s });
    return Result.ok({ kind: 'sandclock', ms: d.value * 1000 });
  }
  const periods: Period[] = [];
  const ats: number[] = [];
  let i = 0;
  for (;;) {
    ats.push(lead + i);
    const first = number(i, 'a number of moves or seconds');
    if ('kind' in first) return fail(first);
    let moves: number | undefined;
    let secs = first.value;
    i = first.end;
    if (s[i] === '/') {
      const sec = number(i + 1, 'the seconds of the period');
      if ('kind' in sec) return fail(sec);
      moves = secs;
      secs = sec.value;
      i = sec.end;
    }
    let perMove: PerMove | undefined;
    const kind = PER_MOVE_MARK[s[i] ?? ''];
    if (kind !== undefined) {
      const amount = number(i + 1, 'the seconds per move');
      if ('kind' in amount) return fail(amount);
      perMove = amount.value > 0 ? { kind, ms: amount.value * 1000 } : undefined;
      i = amount.end;
    }
    periods.push({ moves, ms: secs * 1000, perMove });
    if (i === s.length) break;
    if (s[i] !== ':')
      return fail({ kind: 'badPeriod', at: lead + i, text: s.slice(i), expected: "':' or '+N' or the end" });
    i++;
  }
  return checkPeriods(periods, ats, input);
};

const seconds = (ms: number): string => String(Math.round(ms / 1000));

/** Writes the PGN `TimeControl` value; parseTimeControl(makeTimeControl(x)) equals x. */
export const makeTimeControl = (tc: TimeControl): string => {
  switch (tc.kind) {
    case 'unknown':
      return '?';
    case 'untimed':
      return '-';
    case 'sandclock':
      return `*${seconds(tc.ms)}`;
    case 'periods':
      return tc.periods
        .map(p => {
          const head = p.moves === undefined ? seconds(p.ms) : `${p.moves}/${seconds(p.ms)}`;
          return p.perMove === undefined ? head : `${head}${MARK_OF[p.perMove.kind]}${seconds(p.perMove.ms)}`;
        })
        .join(':');
  }
};

// ---------------------------------------------------------------------------------------------
// Readable form: `15+10`, `90m/40 + 30m, +30s`, `120m/40 + 60m/20 + 15m, +30s from move 61`,
// `5m, delay 3s`, `90m, bronstein 10s`, `sandclock 3m`, `untimed`, `unknown`

const DURATION = /^(?:(\d{1,6})h)?(?:(\d{1,6})m)?(?:(\d{1,6})s)?$/;

/** A duration such as `90m`, `1h30m`, `45s`; a bare number is in `bare` units (minutes for periods, seconds per move). */
const durationMs = (text: string, bare: 'minutes' | 'seconds'): number | undefined => {
  const t = text.replace(/\s+/g, '');
  if (/^\d{1,6}$/.test(t)) return Number(t) * (bare === 'minutes' ? 60_000 : 1000);
  const m = DURATION.exec(t);
  if (m === null || t === '') return undefined;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
};

/** Splits `text` on `sep`, keeping each piece's offset (untrimmed pieces, trimmed text). */
const pieces = (text: string, sep: string, offset: number): { text: string; at: number }[] => {
  const out: { text: string; at: number }[] = [];
  let at = 0;
  for (const raw of text.split(sep)) {
    const lead = raw.length - raw.trimStart().length;
    out.push({ text: raw.trim(), at: offset + at + lead });
    at += raw.length + sep.length;
  }
  return out;
};

const OPTION = /^(\+|delay\s+|bronstein\s+)\s*([0-9hms ]+?)(?:\s+from\s+move\s+(\d{1,6}))?$/;

/** Parses the readable config form (grammar in docs/clock.md). Case-insensitive. */
export const parseReadableTimeControl = (input: string): Result<TimeControl, TimeControlError> => {
  const s = input.toLowerCase();
  const t = s.trim();
  if (t === '') return fail({ kind: 'empty', at: 0, text: input });
  if (t === 'unknown') return Result.ok({ kind: 'unknown' });
  if (t === 'untimed') return Result.ok({ kind: 'untimed' });
  const lead = s.length - s.trimStart().length;
  const sand = /^sandclock\s+(.+)$/.exec(t);
  if (sand?.[1] !== undefined) {
    const ms = durationMs(sand[1], 'minutes');
    const at = lead + t.length - sand[1].length;
    if (ms === undefined) return fail({ kind: 'badDuration', at, text: sand[1] });
    return ms > 0 ? Result.ok({ kind: 'sandclock', ms }) : fail({ kind: 'noTime', at, text: input });
  }
  const short = /^(\d{1,6})\s*\+\s*(\d{1,6})$/.exec(t);
  if (short !== null) {
    const perMs = Number(short[2]) * 1000;
    const period: Period = {
      moves: undefined,
      ms: Number(short[1]) * 60_000,
      perMove: perMs > 0 ? { kind: 'increment', ms: perMs } : undefined,
    };
    return checkPeriods([period], [lead], input);
  }
  const [head, ...opts] = pieces(s, ',', 0);
  if (head === undefined) return fail({ kind: 'empty', at: 0, text: input });
  const periods: Period[] = [];
  const ats: number[] = [];
  for (const part of pieces(head.text, '+', head.at)) {
    const m = /^([^/]*?)\s*(?:\/\s*(\d{1,6}))?$/.exec(part.text);
    const ms = m?.[1] === undefined ? undefined : durationMs(m[1], 'minutes');
    if (ms === undefined) return fail({ kind: 'badDuration', at: part.at, text: part.text });
    periods.push({ moves: m?.[2] === undefined ? undefined : Number(m[2]), ms, perMove: undefined });
    ats.push(part.at);
  }
  const starts = periods.map((_, i) => firstMoveOfPeriod(periods, i));
  const chosen = new Map<number, PerMove | undefined>();
  for (const opt of opts) {
    const m = OPTION.exec(opt.text);
    const ms = m?.[2] === undefined ? undefined : durationMs(m[2], 'seconds');
    if (m === null || ms === undefined) return fail({ kind: 'badOption', at: opt.at, text: opt.text });
    const kind: PerMoveKind = m[1]?.startsWith('delay')
      ? 'delay'
      : m[1]?.startsWith('bronstein')
        ? 'bronstein'
        : 'increment';
    const move = m[3] === undefined ? 1 : Number(m[3]);
    const index = starts.indexOf(move);
    if (index < 0) return fail({ kind: 'optionNotAtPeriodStart', at: opt.at, text: opt.text, move });
    if (chosen.has(index)) return fail({ kind: 'duplicateOption', at: opt.at, text: opt.text, move });
    chosen.set(index, ms > 0 ? { kind, ms } : undefined);
  }
  let current: PerMove | undefined;
  const withOptions = periods.map((p, i) => {
    if (chosen.has(i)) current = chosen.get(i);
    return { ...p, perMove: current };
  });
  return checkPeriods(withOptions, ats, input);
};

/** `90m`, `2h`, `1m30s`, `45s`. */
const makeDuration = (ms: number): string => {
  const total = Math.round(ms / 1000);
  if (total > 0 && total % 3600 === 0) return `${total / 3600}h`;
  if (total % 60 === 0) return `${total / 60}m`;
  return total > 60 ? `${Math.floor(total / 60)}m${total % 60}s` : `${total}s`;
};

const makeOption = (pm: PerMove | undefined): string => {
  if (pm === undefined) return '+0s';
  switch (pm.kind) {
    case 'increment':
      return `+${makeDuration(pm.ms)}`;
    case 'delay':
      return `delay ${makeDuration(pm.ms)}`;
    case 'bronstein':
      return `bronstein ${makeDuration(pm.ms)}`;
  }
};

/** Writes the readable form; parseReadableTimeControl(makeReadableTimeControl(x)) equals x. */
export const makeReadableTimeControl = (tc: TimeControl): string => {
  switch (tc.kind) {
    case 'unknown':
    case 'untimed':
      return tc.kind;
    case 'sandclock':
      return `sandclock ${makeDuration(tc.ms)}`;
    case 'periods': {
      const [only] = tc.periods;
      if (
        tc.periods.length === 1 &&
        only?.moves === undefined &&
        only?.perMove?.kind === 'increment' &&
        only.ms % 60_000 === 0
      ) {
        return `${only.ms / 60_000}+${seconds(only.perMove.ms)}`;
      }
      const head = tc.periods
        .map(p => (p.moves === undefined ? makeDuration(p.ms) : `${makeDuration(p.ms)}/${p.moves}`))
        .join(' + ');
      const opts: string[] = [];
      let current: PerMove | undefined;
      tc.periods.forEach((p, i) => {
        if (p.perMove?.kind === current?.kind && p.perMove?.ms === current?.ms) return;
        current = p.perMove;
        const from = firstMoveOfPeriod(tc.periods, i);
        opts.push(from === 1 ? makeOption(p.perMove) : `${makeOption(p.perMove)} from move ${from}`);
      });
      return [head, ...opts].join(', ');
    }
  }
};
