/**
 * Repetition of positions (FIDE Art. 9.2 threefold claim, Art. 9.6 fivefold automatic draw), over
 * the position keys of one game from its start: ply 0 is the start position, which counts as an
 * occurrence; ply n is the position after the n-th half-move.
 *
 *   const keys = positions.map((p) => makePositionKey(p));
 *   threefoldHasAppeared(keys, keys.length - 1);       // may the player to move claim (9.2 b)?
 *   let t = RepetitionTable.fromKeys(keys); t = t.add(nextKey); t.fivefold('anyFive');
 *
 * Two forms: plain functions over an array of keys, and `RepetitionTable`, an immutable table for a
 * live game (one `add` per ply, `truncate` for takebacks, both cheap). Who may claim, when the claim
 * right is lost (9.4) and which edition uses which fivefold mode are the caller's business.
 */
import { Result } from '@badrap/result';
import type { Move, Position } from 'chessops';
import {
  DEFAULT_KEY_RULES,
  type IntendedMoveError,
  type KeyRules,
  type PositionKey,
  keyAfterMove,
  makePositionKey,
} from './positionKey.js';
import { dataError } from './types.js';

/** Occurrences for a threefold claim (9.2; E18 9.2.1, E23 9.2.2). */
export const THREEFOLD = 3;
/** Occurrences for the automatic fivefold draw (E14 9.6.a, E18/E23 9.6.1). */
export const FIVEFOLD = 5;
/** Plies between occurrences in the 'consecutiveAlternate' reading: both sides go and come back. */
export const ALTERNATE_STRIDE = 4;

/**
 * How the fivefold repetition draw is decided.
 *
 * - 'anyFive' (E17, E18, E23 9.6.1): the same position has appeared at least five times in the
 *   game, not necessarily in a row (Arbiters' Manual).
 * - 'consecutiveAlternate' (E14 9.6.a only): "for at least five consecutive alternate moves by each
 *   player". UNVERIFIED reading, the common one ("five times in nine moves"): the same position at
 *   plies p, p+4, p+8, p+12 and p+16, i.e. both players shuffle back and forth without a break.
 *   Longer cycles (a triangulation of 6 plies) do not count under this reading.
 * - 'none' (E97, E09): no automatic draw; only the threefold claim exists.
 */
export type FivefoldMode = 'anyFive' | 'consecutiveAlternate' | 'none';

/** A position and every ply at which it appeared (the evidence for an arbiter), ascending. */
export interface Occurrences {
  readonly key: PositionKey;
  readonly plies: readonly number[];
}

/** Answer to a threefold claim with an intended move (9.2 a): `plies` ends with the intended ply. */
export interface ThreefoldCheck extends Occurrences {
  readonly holds: boolean;
}

/** Why a claim with an intended move could not be checked. */
export type ClaimError =
  | IntendedMoveError
  | (Error & {
      readonly kind: 'positionMismatch';
      readonly ply: number;
      /** Key recorded at that ply. */
      readonly expected: PositionKey;
      /** Key of the position handed in. */
      readonly actual: PositionKey;
    });

/** Does the fivefold rule of `mode` hold at `ply`, given the plies (≤ ply, ascending, incl. ply) of the position there? */
export const fivefoldHolds = (plies: readonly number[], ply: number, mode: FivefoldMode): boolean => {
  switch (mode) {
    case 'none':
      return false;
    case 'anyFive':
      return plies.length >= FIVEFOLD;
    case 'consecutiveAlternate':
      for (let k = 0; k < FIVEFOLD; k++) {
        if (!plies.includes(ply - k * ALTERNATE_STRIDE)) return false;
      }
      return true;
  }
};

const checkPly = (ply: number, size: number): void => {
  if (!Number.isInteger(ply) || ply < 0 || ply >= size) {
    throw new RangeError(`ply ${ply} is outside the positions 0..${size - 1}`);
  }
};

const keyAt = (keys: readonly PositionKey[], ply: number): PositionKey => {
  checkPly(ply, keys.length);
  return keys[ply] as PositionKey;
};

// ---------------------------------------------------------------------------------------------
// Functions over an array of keys (keys[0] = start position).

/** Plies ≤ `ply` at which the position of `ply` appeared (ascending, `ply` included). */
export const occurrencePlies = (keys: readonly PositionKey[], ply: number): number[] => {
  const key = keyAt(keys, ply);
  const plies: number[] = [];
  for (let i = 0; i <= ply; i++) if (keys[i] === key) plies.push(i);
  return plies;
};

/** Every distinct position of the game with the plies at which it appeared, in order of first appearance. */
export const occurrencesByKey = (keys: readonly PositionKey[]): Map<PositionKey, number[]> => {
  const map = new Map<PositionKey, number[]>();
  keys.forEach((key, ply) => {
    const plies = map.get(key);
    if (plies) plies.push(ply);
    else map.set(key, [ply]);
  });
  return map;
};

/** The position at `ply` has appeared at least three times (claim 9.2 b by the player to move there). */
export const threefoldHasAppeared = (keys: readonly PositionKey[], ply: number): boolean =>
  occurrencePlies(keys, ply).length >= THREEFOLD;

/**
 * Would the intended move (written down, not played) make its position appear for at least the third
 * time (claim 9.2 a)? `pos` is the position at `ply`, where the claimant has the move; later keys are
 * ignored. An illegal intended move, or a `pos` that is not the position at `ply`, is an error.
 */
export const threefoldAboutToAppear = (
  keys: readonly PositionKey[],
  ply: number,
  pos: Position,
  move: Move,
  rules: KeyRules = DEFAULT_KEY_RULES,
): Result<ThreefoldCheck, ClaimError> => {
  const expected = keyAt(keys, ply);
  const actual = makePositionKey(pos, rules);
  if (actual !== expected) {
    return Result.err(positionMismatch(ply, expected, actual));
  }
  return keyAfterMove(pos, move, rules).map(key => {
    const plies: number[] = [];
    for (let i = 0; i <= ply; i++) if (keys[i] === key) plies.push(i);
    plies.push(ply + 1);
    return { key, plies, holds: plies.length >= THREEFOLD };
  });
};

/** Has the game been drawn by fivefold repetition at `ply` (the position there reached the rule of `mode`)? */
export const fivefold = (keys: readonly PositionKey[], ply: number, mode: FivefoldMode): boolean =>
  fivefoldHolds(occurrencePlies(keys, ply), ply, mode);

/** The first ply at which a threefold claim (9.2 b) became possible, if any. */
export const firstThreefold = (keys: readonly PositionKey[]): number | undefined =>
  firstPly(keys, plies => plies.length >= THREEFOLD);

/** The first ply at which the fivefold rule of `mode` ended the game, if any. */
export const firstFivefold = (keys: readonly PositionKey[], mode: FivefoldMode): number | undefined =>
  firstPly(keys, (plies, ply) => fivefoldHolds(plies, ply, mode));

const firstPly = (
  keys: readonly PositionKey[],
  holds: (plies: readonly number[], ply: number) => boolean,
): number | undefined => {
  const seen = new Map<PositionKey, number[]>();
  for (let ply = 0; ply < keys.length; ply++) {
    const key = keys[ply] as PositionKey;
    const plies = seen.get(key) ?? [];
    plies.push(ply);
    seen.set(key, plies);
    if (holds(plies, ply)) return ply;
  }
  return undefined;
};

const positionMismatch = (ply: number, expected: PositionKey, actual: PositionKey): ClaimError =>
  dataError(
    { kind: 'positionMismatch' as const, ply, expected, actual },
    `the position given (${actual}) is not the position at ply ${ply} (${expected})`,
  );

// ---------------------------------------------------------------------------------------------
// Incremental form for a live game.

/** Backing arrays shared by the tables of one game; they only ever grow, each table sees its prefix. */
interface Store {
  readonly keys: PositionKey[];
  /** Plies of each key, ascending. */
  readonly plies: Map<PositionKey, number[]>;
}

const appendToStore = (store: Store, key: PositionKey): void => {
  const ply = store.keys.length;
  store.keys.push(key);
  const plies = store.plies.get(key);
  if (plies) plies.push(ply);
  else store.plies.set(key, [ply]);
};

/** Number of entries of the ascending `plies` that are ≤ `ply`. */
const countUpTo = (plies: readonly number[], ply: number): number => {
  let lo = 0;
  let hi = plies.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((plies[mid] as number) <= ply) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/**
 * The positions of one game so far, with their occurrences. Immutable: `add` and `truncate` return a
 * new table and leave this one as it was. Tables of the same game share their storage, so `add` at
 * the end of the game is O(1) amortised and `truncate` is O(1); adding a different position after a
 * takeback copies the kept part once.
 *
 *   let t = RepetitionTable.empty().add(startKey); // ply 0
 *   t = t.add(k1).add(k2);                         // plies 1, 2
 *   t = t.truncate(1);                             // takeback: the position after ply 1 is current
 */
export class RepetitionTable {
  private constructor(
    private readonly store: Store,
    /** Number of positions in the table (the start position included). */
    readonly size: number,
  ) {}

  static empty(): RepetitionTable {
    return new RepetitionTable({ keys: [], plies: new Map() }, 0);
  }

  /** A table of the given keys, the first being the start position. */
  static fromKeys(keys: Iterable<PositionKey>): RepetitionTable {
    const store: Store = { keys: [], plies: new Map() };
    for (const key of keys) appendToStore(store, key);
    return new RepetitionTable(store, store.keys.length);
  }

  /** The ply of the current position (-1 for an empty table). */
  get lastPly(): number {
    return this.size - 1;
  }

  keyAt(ply: number): PositionKey {
    checkPly(ply, this.size);
    return this.store.keys[ply] as PositionKey;
  }

  /** The keys, ply 0 first (a copy). */
  keys(): PositionKey[] {
    return this.store.keys.slice(0, this.size);
  }

  /** The table with one more position: the one after the next half-move. */
  add(key: PositionKey): RepetitionTable {
    const { keys } = this.store;
    if (keys.length === this.size) {
      appendToStore(this.store, key);
      return new RepetitionTable(this.store, this.size + 1);
    }
    // A later table of this game already holds a position at this ply (we are after a takeback).
    if (keys[this.size] === key) return new RepetitionTable(this.store, this.size + 1);
    const forked = RepetitionTable.fromKeys(keys.slice(0, this.size));
    appendToStore(forked.store, key);
    return new RepetitionTable(forked.store, this.size + 1);
  }

  /** The table as it stood after `ply` (a takeback to that ply, or an arbiter's restored position). */
  truncate(ply: number): RepetitionTable {
    checkPly(ply, this.size);
    return new RepetitionTable(this.store, ply + 1);
  }

  /** Plies ≤ `upTo` (default: the current ply) at which `key` appeared, ascending. */
  occurrencesOf(key: PositionKey, upTo: number = this.lastPly): number[] {
    const plies = this.store.plies.get(key);
    if (!plies) return [];
    return plies.slice(0, countUpTo(plies, Math.min(upTo, this.lastPly)));
  }

  /** The position at `ply` (default: the current one) and the plies ≤ `ply` at which it appeared. */
  occurrencesAt(ply: number = this.lastPly): Occurrences {
    const key = this.keyAt(ply);
    return { key, plies: this.occurrencesOf(key, ply) };
  }

  /** The plies at which `key` would have appeared if it were the next position (for 9.2 a). */
  occurrencesIfAdded(key: PositionKey): number[] {
    return [...this.occurrencesOf(key), this.size];
  }

  /** The position at `ply` (default: current) has appeared at least three times (9.2 b). */
  threefoldHasAppeared(ply: number = this.lastPly): boolean {
    return this.occurrencesAt(ply).plies.length >= THREEFOLD;
  }

  /** The next position being `key` would make it appear at least three times (9.2 a). */
  threefoldAboutToAppear(key: PositionKey): boolean {
    return this.occurrencesIfAdded(key).length >= THREEFOLD;
  }

  /** The fivefold rule of `mode` holds at `ply` (default: current). */
  fivefold(mode: FivefoldMode, ply: number = this.lastPly): boolean {
    return fivefoldHolds(this.occurrencesAt(ply).plies, ply, mode);
  }

  /** Every distinct position so far with the plies at which it appeared. */
  occurrencesByKey(): Map<PositionKey, number[]> {
    return occurrencesByKey(this.keys());
  }
}
