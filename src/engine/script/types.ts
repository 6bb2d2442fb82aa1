/**
 * Board scripts: a plain-text account of what happens at a board (square changes, presses, clock
 * readings, the link, claims, offers, arbiter decisions), with the game events it must produce.
 * This module holds the parsed form; parse.ts reads the text, print.ts writes it back, run.ts
 * runs it through the supervisor. The grammar is in docs/board-scripts.md.
 *
 *   const script = parseScript(text, 's07.cbs').unwrap();
 *   script.header.editions;   // ['E09', 'E14', 'E18', 'E23']
 *   script.inputs[0];         // { line: 6, input: { kind: 'square', at: 0, square: 6, piece: 'empty' } }
 */
import type { SupervisorInput } from '../events.js';
import type { Edition, GameType, Supervision } from '../types.js';

export interface ScriptHeader {
  /** The script runs once per edition listed. */
  readonly editions: readonly Edition[];
  readonly gameType: GameType;
  readonly supervision: Supervision;
  readonly timeControl: string | undefined;
  /** Start position (FEN); undefined: the standard position. */
  readonly start: string | undefined;
  /** SAN moves played from the start before the first event. */
  readonly moves: readonly string[];
  readonly mode: 'advise' | 'enforce';
  /** The recogniser's settle window (ms); undefined: its default. */
  readonly settleMs: number | undefined;
  readonly occupancy: boolean;
  /** A Chess960 game (`@chess960`): castling by the Chess960 rules, from `start` or position 518. */
  readonly chess960: boolean;
  readonly game: string | undefined;
  /** Clock events are compared too ('all'), or left out of the comparison ('noclock', default). */
  readonly expect: 'all' | 'noclock';
  /** Which findings are alerts (GameSettings.alertGrade): 'proven' (default) or 'possible'. */
  readonly alerts: 'proven' | 'possible';
}

/** One input with the line it came from. */
export interface ScriptInput {
  readonly line: number;
  readonly input: SupervisorInput;
}

/** An expected event: its digest's first tokens, an optional text the detail must contain. */
export interface ExpectedEvent {
  readonly line: number;
  /** Editions it applies to (undefined: every edition the script runs for). */
  readonly editions: readonly Edition[] | undefined;
  readonly tokens: readonly string[];
  readonly detail: string | undefined;
}

export interface BoardScript {
  readonly file: string;
  readonly header: ScriptHeader;
  readonly inputs: readonly ScriptInput[];
  readonly expected: readonly ExpectedEvent[];
}

/** A script that cannot be read: the file, the line (1-based) and what is wrong. */
export interface ScriptErrorDetail {
  readonly kind: 'scriptError';
  readonly file: string;
  readonly line: number;
  readonly reason: string;
}
export type ScriptError = ScriptErrorDetail & Error;
