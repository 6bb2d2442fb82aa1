/**
 * The wire's vocabulary: one spelling for every key and every enumerated value that leaves the
 * daemon (MQTT, HTTP, the journal, `replay --json`, the web pages). Both are snake_case: the case of
 * MQTT APIs people already script against (zigbee2mqtt, Home Assistant), and a value can be used
 * as a key or an identifier in any consumer's language without quoting. The engine keeps its own
 * names (camelCase outcome kinds, kebab-case alert codes); they reach the wire only through here.
 *
 *   wireWord('seventyFiveMoves');   // 'seventy_five_moves'
 *   wireWord('board-mismatch');     // 'board_mismatch'
 *   endReason('illegalMoves');      // { reason: 'illegal_moves', text: 'illegal moves', termination: 'rules infraction' }
 */
import { ALERT_CODES, type AlertCode } from '../../engine/events.js';
import { type OutcomeKind, type PgnTermination, pgnTerminationOf } from '../../engine/outcome.js';

/** Clock times on the wire are whole milliseconds (the engine's are measured, fractional). */
export const wholeMs = (ms: number): number => Math.round(ms);

/** An engine name (camelCase or kebab-case) in the wire's spelling. */
export const wireWord = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();

/**
 * Alert codes on the wire: the engine's codes, `claim` (a claim waiting for the arbiter), and the
 * daemon's `journal_damaged` (a restart found a game's journal damaged: docs/journal.md).
 */
export const WIRE_ALERT_CODES: readonly string[] = [...ALERT_CODES.map(wireWord), 'claim', 'journal_damaged'];

/** An engine alert code on the wire. */
export const alertCode = (code: AlertCode | 'claim'): string => wireWord(code);

/** How a game ended, in the three forms consumers need. */
export interface EndReason {
  /** The wire value of `reason` (`checkmate`, `seventy_five_moves`, `gesture`…). */
  readonly reason: string;
  /** In words, for a display (`checkmate`, `time forfeit`, `seventy-five-move rule`). */
  readonly text: string;
  /** The PGN `Termination` tag (PGN standard §9.8.1). */
  readonly termination: PgnTermination;
}

/**
 * Every ending the daemon publishes, in words for a display: the outcome kinds of the engine,
 * `gesture` (the players set the kings in the centre, the result the board shows) and `arbiter` (a
 * result the arbiter set with words of his own). The PGN Termination value is the engine's
 * (outcome.ts) for an outcome kind: `normal` for an ending on the board, `time forfeit` for a
 * flag, `rules infraction` for a loss by the Laws, `abandoned` for a player who did not come.
 */
const END_TEXT: { readonly [K in OutcomeKind | 'gesture' | 'arbiter']: string } = {
  checkmate: 'checkmate',
  resignation: 'resignation',
  flag: 'time forfeit',
  illegalMoves: 'illegal moves',
  defaultTime: 'default time',
  forfeit: 'forfeit',
  stalemate: 'stalemate',
  deadPosition: 'dead position',
  threefold: 'threefold repetition',
  fiftyMoves: 'fifty-move rule',
  fivefold: 'fivefold repetition',
  seventyFiveMoves: 'seventy-five-move rule',
  agreement: 'agreement',
  flagVsCannotMate: 'time forfeit, opponent cannot mate',
  bothFlags: 'both flags fell',
  illegalMovesVsCannotMate: 'illegal moves, opponent cannot mate',
  resignationVsCannotMate: 'resignation, opponent cannot mate',
  illegalPosition: 'illegal position',
  quickplayFinish: 'quickplay finish, arbiter decision',
  bothLose: 'both players lose',
  gesture: 'result shown on the board',
  arbiter: 'arbiter decision',
};

/** Every `reason` value of an `end` event, as the schema lists them. */
export const WIRE_END_REASONS: readonly string[] = Object.keys(END_TEXT).map(wireWord);

const terminationOf = (key: EndKey): PgnTermination =>
  key === 'gesture' ? 'normal' : key === 'arbiter' ? 'adjudication' : pgnTerminationOf(key);

type EndKey = keyof typeof END_TEXT;
const BY_WORD: ReadonlyMap<string, EndKey> = new Map(
  (Object.keys(END_TEXT) as EndKey[]).filter(k => k !== 'arbiter').map(k => [wireWord(k), k]),
);

/**
 * An `end` event's reason on the wire: the engine's outcome kind, `gesture`, or what an arbiter
 * gave with a result (an outcome in either spelling, `fifty_moves` or `fiftyMoves`, or words of his
 * own). Words of his own are no value of the wire: they are `arbiter`, the words in `endDetail`.
 */
export const endReason = (reason: string): EndReason => {
  const key = BY_WORD.get(wireWord(reason)) ?? 'arbiter';
  return { reason: wireWord(key), text: END_TEXT[key], termination: terminationOf(key) };
};

/** The arbiter's own words for an ending that is none of the known reasons, else undefined. */
export const endDetail = (reason: string): string | undefined =>
  BY_WORD.has(wireWord(reason)) ? undefined : reason;
