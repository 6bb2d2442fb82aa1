/**
 * Game status under the Laws: after each ply, whether the game ended by itself (checkmate,
 * stalemate, dead position, fivefold repetition, 75 moves) and which claims the player to move
 * could make (threefold repetition that has appeared, fifty moves completed). Every decision carries
 * the article of the edition in force, from the edition profile.
 *
 *   const statuses = evaluateGame(game, getProfile('E23', 'standard'));
 *   const end = statuses.find(s => s.end)?.end;   // { kind: 'fivefold', article: { edition: 'E23', article: '9.6.1' } }
 *
 * For a live game use the reducer form: `let s = startRules(startPos, profile); s = applyPly(s, pos).state`.
 */
import { type Position, opposite } from 'chessops';
import { isDeadPosition } from './deadPosition.js';
import { type EditionProfile, citeTopic } from './editions.js';
import type { Game } from './game.js';
import { hasMatingMaterial } from './material.js';
import { FIFTY_MOVES, SEVENTY_FIVE_MOVES } from './moveCount.js';
import { type Outcome, makeOutcome } from './outcome.js';
import { type PositionKey, makePositionKey } from './positionKey.js';
import { RepetitionTable } from './repetition.js';
import type { ArticleRef, ByColor, Color, Verdict } from './types.js';

/** A claim the player having the move could make now (Art. 9.2 b, 9.3 b). */
export type ClaimOption =
  | {
      readonly kind: 'threefold';
      readonly by: Color;
      /** Plies at which the position appeared, the current one last. */
      readonly plies: readonly number[];
      readonly article: ArticleRef;
    }
  | {
      readonly kind: 'fiftyMoves';
      readonly by: Color;
      readonly halfmoves: number;
      readonly article: ArticleRef;
    };

/** What the Laws say about the position after one ply. */
export interface PlyStatus {
  /** Plies played (0 = the start position). */
  readonly ply: number;
  readonly key: PositionKey;
  readonly turn: Color;
  readonly check: boolean;
  /** The game ended automatically at this ply (only on the first ply that ends it). */
  readonly end: Outcome | undefined;
  /** This ply was played after the game had already ended (a record that goes on). */
  readonly afterEnd: boolean;
  /** Claims the player to move could make now; empty once the game has ended. */
  readonly claims: readonly ClaimOption[];
  /** How many times this position has appeared, this ply included. */
  readonly occurrences: number;
  /** Half-moves since the last capture or pawn move (FIDE 9.3, 9.6.2 count). */
  readonly halfmoves: number;
  /** Whether each side still has material to mate with, by fast rules (Art. 6.9 uses the full test). */
  readonly matingMaterial: ByColor<Verdict>;
  /** Dead position verdict (5.2.2) and how it was reached. */
  readonly dead: { readonly verdict: Verdict; readonly method: string };
}

/** The rules state of a game in progress: everything `applyPly` needs from the past. */
export interface RulesState {
  readonly profile: EditionProfile;
  readonly table: RepetitionTable;
  /** The outcome if the game has ended automatically. */
  readonly end: Outcome | undefined;
  /** The last dead-position verdict and the castling rights it was computed under (see `deadFor`). */
  readonly dead: DeadVerdict;
  readonly castling: string;
}

type DeadVerdict = { readonly verdict: Verdict; readonly method: string };

const unwrapOutcome = (r: { isOk: boolean; unwrap: () => Outcome }): Outcome => r.unwrap();

/** Checks a position against the automatic endings in the order of precedence, first match wins:
 *  checkmate (5.1), stalemate (5.2), dead position (5.2.2), fivefold (9.6.1), 75 moves (9.6.2).
 *  Mate takes precedence over 75 moves explicitly (E14 9.6.b, E18/E23 9.6.2); for the others the
 *  order is our reading (docs/editions.md). */
const automaticEnd = (
  pos: Position,
  profile: EditionProfile,
  table: RepetitionTable,
  dead: Verdict,
): Outcome | undefined => {
  const mover = opposite(pos.turn);
  if (pos.isCheckmate()) return unwrapOutcome(makeOutcome('checkmate', mover, profile));
  if (pos.isStalemate()) return unwrapOutcome(makeOutcome('stalemate', undefined, profile));
  if (dead === 'yes') return unwrapOutcome(makeOutcome('deadPosition', undefined, profile));
  if (profile.draws.fivefold !== 'none' && table.fivefold(profile.draws.fivefold)) {
    return unwrapOutcome(makeOutcome('fivefold', undefined, profile));
  }
  if (profile.draws.seventyFiveMoves && pos.halfmoves >= SEVENTY_FIVE_MOVES) {
    return unwrapOutcome(makeOutcome('seventyFiveMoves', undefined, profile));
  }
  return undefined;
};

const claimsOf = (pos: Position, profile: EditionProfile, table: RepetitionTable): ClaimOption[] => {
  const claims: ClaimOption[] = [];
  const { plies } = table.occurrencesAt();
  if (plies.length >= 3) {
    claims.push({ kind: 'threefold', by: pos.turn, plies, article: citeTopic(profile, 'threefold') });
  }
  if (pos.halfmoves >= FIFTY_MOVES) {
    claims.push({
      kind: 'fiftyMoves',
      by: pos.turn,
      halfmoves: pos.halfmoves,
      article: citeTopic(profile, 'fiftyMoves'),
    });
  }
  return claims;
};

/** Pieces on the board (kings included) up to which the dead-position test may also search. */
export const DEAD_SEARCH_MAX_PIECES = 10;

/**
 * The dead-position verdict after a ply. Static proofs (material, pawn blockade) are cheap; the
 * bounded search over reachable positions only runs in sparse positions, where forced sequences to
 * a dead position occur. 'unknown' is never treated as dead.
 */
const deadOf = (pos: Position): DeadVerdict =>
  isDeadPosition(pos, { search: pos.board.occupied.size() <= DEAD_SEARCH_MAX_PIECES ? 'auto' : 'never' });

const castlingOf = (pos: Position): string => [...pos.castles.castlingRights].join(',');

/**
 * Reuses the previous verdict while nothing irreversible happened. Moves that are neither captures,
 * pawn moves nor losses of castling rights can be played back, so every position reached that way
 * can reach exactly the same positions: a proof that a helpmate exists ('no') or cannot exist
 * ('yes') holds for all of them, and a search that ran out of budget would explore the same space
 * again. Verdicts that depend on the position itself (mate or stalemate on the board, a search not
 * tried) are recomputed.
 */
const deadFor = (pos: Position, prev: RulesState): DeadVerdict => {
  const reversible = pos.halfmoves > 0 && castlingOf(pos) === prev.castling;
  const reusable = prev.dead.method !== 'terminal' && prev.dead.method !== 'open';
  return reversible && reusable ? prev.dead : deadOf(pos);
};

const statusOf = (
  pos: Position,
  state: RulesState,
  ply: number,
  wasEnded: boolean,
  dead: DeadVerdict,
): PlyStatus => {
  const end = wasEnded ? undefined : automaticEnd(pos, state.profile, state.table, dead.verdict);
  const { key, plies } = state.table.occurrencesAt();
  return {
    ply,
    key,
    turn: pos.turn,
    check: pos.isCheck(),
    end,
    afterEnd: wasEnded,
    claims: wasEnded || end ? [] : claimsOf(pos, state.profile, state.table),
    occurrences: plies.length,
    halfmoves: pos.halfmoves,
    matingMaterial: { white: hasMatingMaterial(pos, 'white'), black: hasMatingMaterial(pos, 'black') },
    dead,
  };
};

const keyRules = (profile: EditionProfile) => ({ castling: profile.draws.castlingKey });

/** The rules state at the start of a game, with the status of the start position. */
export const startRules = (
  start: Position,
  profile: EditionProfile,
): { state: RulesState; status: PlyStatus } => {
  const table = RepetitionTable.empty().add(makePositionKey(start, keyRules(profile)));
  const dead = deadOf(start);
  const base: RulesState = { profile, table, end: undefined, dead, castling: castlingOf(start) };
  const status = statusOf(start, base, 0, false, dead);
  return { state: { ...base, end: status.end }, status };
};

/** Adds the position after the next ply and returns the new state and that ply's status. */
export const applyPly = (state: RulesState, pos: Position): { state: RulesState; status: PlyStatus } => {
  const table = state.table.add(makePositionKey(pos, keyRules(state.profile)));
  const dead = deadFor(pos, state);
  const next: RulesState = { ...state, table, dead, castling: castlingOf(pos) };
  const status = statusOf(pos, next, table.lastPly, state.end !== undefined, dead);
  return { state: { ...next, end: state.end ?? status.end }, status };
};

/** The status after every ply of a recorded game, the start position first. */
export const evaluateGame = (game: Game, profile: EditionProfile): PlyStatus[] => {
  const positions = game.positionsView();
  const first = positions[0];
  if (!first) return [];
  let { state, status } = startRules(first, profile);
  const out = [status];
  for (let ply = 1; ply < positions.length; ply++) {
    ({ state, status } = applyPly(state, positions[ply] as Position));
    out.push(status);
  }
  return out;
};
