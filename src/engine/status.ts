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
import { type Context, type Position, opposite } from 'chessops';
import { deadPositionIn, hasLegalMove } from './deadPosition.js';
import { type EditionProfile, citeTopic } from './editions.js';
import type { Game } from './game.js';
import { hasMatingMaterial, isBlockadeImpossible } from './material.js';
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
  /**
   * Whether the pawns as they stand rule the blockade proof out (`isBlockadeImpossible`), while no
   * pawn has moved or been captured; undefined when not known. Spares the proof at every ply.
   */
  readonly blockadeImpossible?: boolean | undefined;
}

type DeadVerdict = { readonly verdict: Verdict; readonly method: string };

const unwrapOutcome = (r: { isOk: boolean; unwrap: () => Outcome }): Outcome => r.unwrap();

/**
 * What every rule of one ply asks of the position first, computed once per ply: the move context
 * (checkers, pins) and whether the side to move has a legal move.
 */
interface Facts {
  readonly ctx: Context;
  readonly check: boolean;
  readonly hasMoves: boolean;
}

const factsOf = (pos: Position): Facts => {
  const ctx = pos.ctx();
  return { ctx, check: ctx.checkers.nonEmpty(), hasMoves: hasLegalMove(pos, ctx) };
};

/** Checks a position against the automatic endings in the order of precedence, first match wins:
 *  checkmate (5.1), stalemate (5.2), dead position (5.2.2), fivefold (9.6.1), 75 moves (9.6.2).
 *  Mate takes precedence over 75 moves explicitly (E14 9.6.b, E18/E23 9.6.2); for the others the
 *  order is our reading (docs/editions.md). */
const automaticEnd = (
  pos: Position,
  facts: Facts,
  profile: EditionProfile,
  table: RepetitionTable,
  dead: Verdict,
): Outcome | undefined => {
  const mover = opposite(pos.turn);
  if (!facts.hasMoves && facts.check) return unwrapOutcome(makeOutcome('checkmate', mover, profile));
  if (!facts.hasMoves) return unwrapOutcome(makeOutcome('stalemate', undefined, profile));
  if (dead === 'yes') return unwrapOutcome(makeOutcome('deadPosition', undefined, profile));
  if (profile.draws.fivefold !== 'none' && table.fivefold(profile.draws.fivefold)) {
    return unwrapOutcome(makeOutcome('fivefold', undefined, profile));
  }
  if (profile.draws.seventyFiveMoves && pos.halfmoves >= SEVENTY_FIVE_MOVES) {
    return unwrapOutcome(makeOutcome('seventyFiveMoves', undefined, profile));
  }
  return undefined;
};

const claimsOf = (pos: Position, profile: EditionProfile, plies: readonly number[]): ClaimOption[] => {
  const claims: ClaimOption[] = [];
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
const deadOf = (pos: Position, facts: Facts, blockadeImpossible = false): DeadVerdict =>
  deadPositionIn(
    pos,
    { ctx: facts.ctx, hasMoves: facts.hasMoves, blockadeImpossible },
    { search: pos.board.occupied.size() <= DEAD_SEARCH_MAX_PIECES ? 'auto' : 'never' },
  );

/** The castling rights as text (rook squares): compared from ply to ply, so kept as a string. */
const castlingOf = (pos: Position): string => {
  const rights = pos.castles.castlingRights;
  return rights.isEmpty() ? '' : [...rights].join(',');
};

/**
 * Reuses the previous verdict while nothing irreversible happened. Moves that are neither captures,
 * pawn moves nor losses of castling rights can be played back, so every position reached that way
 * can reach exactly the same positions: a proof that a helpmate exists ('no') or cannot exist
 * ('yes') holds for all of them, and a search that ran out of budget would explore the same space
 * again. Verdicts that depend on the position itself (mate or stalemate on the board, a search not
 * tried) are recomputed; then a pawn structure already known to rule the blockade proof out (no
 * pawn moved or was captured since) spares that proof, with the same verdict.
 */
const deadFor = (
  pos: Position,
  facts: Facts,
  castling: string,
  prev: RulesState,
): { dead: DeadVerdict; blockadeImpossible: boolean | undefined } => {
  // No capture and no pawn move since the previous ply: the same pawns on the same squares.
  const samePawns = pos.halfmoves > 0;
  const known = samePawns ? prev.blockadeImpossible : undefined;
  const reusable = prev.dead.method !== 'terminal' && prev.dead.method !== 'open';
  if (samePawns && castling === prev.castling && reusable)
    return { dead: prev.dead, blockadeImpossible: known };
  const blockadeImpossible = known ?? isBlockadeImpossible(pos);
  return { dead: deadOf(pos, facts, blockadeImpossible), blockadeImpossible };
};

const statusOf = (
  pos: Position,
  facts: Facts,
  state: RulesState,
  ply: number,
  wasEnded: boolean,
  dead: DeadVerdict,
): PlyStatus => {
  const end = wasEnded ? undefined : automaticEnd(pos, facts, state.profile, state.table, dead.verdict);
  const { key, plies } = state.table.occurrencesAt();
  return {
    ply,
    key,
    turn: pos.turn,
    check: facts.check,
    end,
    afterEnd: wasEnded,
    claims: wasEnded || end ? [] : claimsOf(pos, state.profile, plies),
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
  const facts = factsOf(start);
  const blockadeImpossible = isBlockadeImpossible(start);
  const dead = deadOf(start, facts, blockadeImpossible);
  const castling = castlingOf(start);
  const base: RulesState = { profile, table, end: undefined, dead, castling, blockadeImpossible };
  const status = statusOf(start, facts, base, 0, false, dead);
  return { state: { ...base, end: status.end }, status };
};

/** Adds the position after the next ply and returns the new state and that ply's status. */
export const applyPly = (state: RulesState, pos: Position): { state: RulesState; status: PlyStatus } => {
  const table = state.table.add(makePositionKey(pos, keyRules(state.profile)));
  const facts = factsOf(pos);
  const castling = castlingOf(pos);
  const { dead, blockadeImpossible } = deadFor(pos, facts, castling, state);
  const wasEnded = state.end !== undefined;
  const next: RulesState = {
    profile: state.profile,
    table,
    end: state.end,
    dead,
    castling,
    blockadeImpossible,
  };
  const status = statusOf(pos, facts, next, table.lastPly, wasEnded, dead);
  return { state: wasEnded || !status.end ? next : { ...next, end: status.end }, status };
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
