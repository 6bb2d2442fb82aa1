/**
 * Binds the pairings of a round to the electronic boards in the hall: a pairing that names a board
 * serial goes to the board reporting that serial; the others go to the board configured with their
 * board number. Serial bindings win over number bindings; nothing is guessed beyond that, and every
 * pairing or board left over is reported.
 *
 *   const { bindings, problems } = bindPairings(pairings, 3, [{ id: 'usb0', serial: '23012', number: 1 }]);
 *   bindings[0]; // { board: { id: 'usb0', ... }, pairing: { round: 3, board: 1, ... }, by: 'number' }
 */
import type { Pairing } from './types.js';

/** A board as the daemon knows it. */
export interface BoardRef {
  /** The daemon's id for the board (its port or configured name). */
  readonly id: string;
  /** Serial number the board reports (DGT boards report one on request). */
  readonly serial?: string;
  /** Board number the venue configuration gives it. */
  readonly number?: number;
}

export interface BoardBinding {
  readonly board: BoardRef;
  readonly pairing: Pairing;
  readonly by: 'serial' | 'number';
}

export type BindProblem =
  | { readonly kind: 'unboundPairing'; readonly pairing: Pairing; readonly reason: string }
  | { readonly kind: 'idleBoard'; readonly board: BoardRef }
  | {
      readonly kind: 'duplicateBoard';
      readonly board: BoardRef;
      readonly other: BoardRef;
      readonly field: 'serial' | 'number';
    };

export interface BindResult {
  /** In board order. */
  readonly bindings: readonly BoardBinding[];
  readonly problems: readonly BindProblem[];
}

/** Serials compare trimmed and case-insensitively (labels and reports differ in case). */
const serialKey = (s: string): string => s.trim().toLowerCase();

/** Index of boards by a key; a second board with the same key is reported and left out. */
const indexBoards = <K>(
  boards: readonly BoardRef[],
  keyOf: (b: BoardRef) => K | undefined,
  field: 'serial' | 'number',
  problems: BindProblem[],
): Map<K, BoardRef> => {
  const index = new Map<K, BoardRef>();
  for (const board of boards) {
    const key = keyOf(board);
    if (key === undefined) continue;
    const other = index.get(key);
    if (other) problems.push({ kind: 'duplicateBoard', board, other, field });
    else index.set(key, board);
  }
  return index;
};

/** Binds round `round` of `pairings` to `boards`. */
export const bindPairings = (
  pairings: readonly Pairing[],
  round: number,
  boards: readonly BoardRef[],
): BindResult => {
  const problems: BindProblem[] = [];
  const bySerial = indexBoards(
    boards,
    b => (b.serial === undefined ? undefined : serialKey(b.serial)),
    'serial',
    problems,
  );
  const byNumber = indexBoards(boards, b => b.number, 'number', problems);
  const games = pairings.filter(p => p.round === round).sort((a, b) => a.board - b.board);
  const used = new Map<string, Pairing>();
  const bindings: BoardBinding[] = [];
  const bind = (board: BoardRef, pairing: Pairing, by: 'serial' | 'number'): void => {
    used.set(board.id, pairing);
    bindings.push({ board, pairing, by });
  };
  for (const pairing of games) {
    if (pairing.boardSerial === undefined) continue;
    const board = bySerial.get(serialKey(pairing.boardSerial));
    if (!board) {
      problems.push({
        kind: 'unboundPairing',
        pairing,
        reason: `no connected board reports serial ${pairing.boardSerial}`,
      });
    } else bind(board, pairing, 'serial');
  }
  for (const pairing of games) {
    if (pairing.boardSerial !== undefined) continue;
    const board = byNumber.get(pairing.board);
    const taken = board ? used.get(board.id) : undefined;
    if (!board) {
      problems.push({
        kind: 'unboundPairing',
        pairing,
        reason: `no board is configured as number ${pairing.board}`,
      });
    } else if (taken) {
      const reason = `board ${board.id} (number ${pairing.board}) is bound by serial to board ${taken.board}`;
      problems.push({ kind: 'unboundPairing', pairing, reason });
    } else bind(board, pairing, 'number');
  }
  for (const board of boards) if (!used.has(board.id)) problems.push({ kind: 'idleBoard', board });
  bindings.sort((a, b) => a.pairing.board - b.pairing.board);
  return { bindings, problems };
};
