/**
 * Runs a board script through the supervisor, once per edition it names, and compares the events
 * with the expected lines for that edition: one expected line per event, in order (clock events
 * left out unless the script says `@expect all`); each expected line's tokens must begin the
 * event's digest, and its quoted text must occur in the event's detail.
 *
 *   const runs = runScript(parseScript(text, 's01.cbs').unwrap());
 *   runs[0].failures;   // [] when the events are as expected
 */
import { DEFAULT_QUIET_MS, type GameEvent, type GameSettings } from '../events.js';
import { chess960Game } from '../chess960.js';
import { Game } from '../game.js';
import { runSupervision, startSupervision } from '../supervisor/index.js';
import type { Edition } from '../types.js';
import { makeDigest } from './print.js';
import type { BoardScript, ExpectedEvent } from './types.js';

export interface ScriptRun {
  readonly file: string;
  readonly edition: Edition;
  readonly events: readonly GameEvent[];
  /** Digests of the events compared (clock events out unless `@expect all`). */
  readonly digests: readonly string[];
  /** What did not match, one line each naming the script line. */
  readonly failures: readonly string[];
}

/**
 * Quiet time after the last event of a script (an implicit `tick`): longer than the supervisor's
 * quiet time, so that what waits for a quiet board (a mate nobody pressed for, a board left wrong)
 * is decided before the script ends.
 */
export const QUIET_END_MS = DEFAULT_QUIET_MS + 1000;

const gameOf = (s: BoardScript): Game => {
  const start = s.header.start;
  let game = s.header.chess960
    ? chess960Game(start === undefined ? {} : { fen: start }).unwrap()
    : start === undefined
      ? Game.standard()
      : Game.fromFen(start).unwrap();
  for (const san of s.header.moves) game = game.playSan(san).unwrap();
  return game;
};

/** The settings a script runs with under `edition`. */
export const settingsOf = (s: BoardScript, edition: Edition): GameSettings => ({
  game: s.header.game ?? s.file,
  edition,
  gameType: s.header.gameType,
  supervision: s.header.supervision,
  ...(s.header.start !== undefined ? { startFen: s.header.start } : {}),
  ...(s.header.timeControl !== undefined ? { timeControl: s.header.timeControl } : {}),
  art4Mode: s.header.mode,
  occupancyOnly: s.header.occupancy,
  ...(s.header.chess960 ? { chess960: true } : {}),
  ...(s.header.alerts === 'possible' ? { alertGrade: 'possible' as const } : {}),
});

const matches = (e: ExpectedEvent, digest: string, event: GameEvent): boolean => {
  const tokens = digest.split(' ');
  if (!e.tokens.every((t, i) => tokens[i] === t)) return false;
  if (e.detail === undefined) return true;
  return event.type === 'alert' || event.type === 'claim' ? (event.detail ?? '').includes(e.detail) : false;
};

/** Runs the script under one edition. Throws only for a script whose @start or @moves is illegal (a TypeError). */
export const runScriptFor = (s: BoardScript, edition: Edition): ScriptRun => {
  let game: Game;
  try {
    game = gameOf(s);
  } catch (e) {
    throw new TypeError(`${s.file}: bad @start or @moves: ${(e as Error).message}`);
  }
  const { state } = startSupervision(settingsOf(s, edition), {
    game,
    recognition: s.header.settleMs !== undefined ? { settleMs: s.header.settleMs } : {},
  });
  const inputs = s.inputs.map(i => i.input);
  const last = inputs[inputs.length - 1]?.at ?? 0;
  // The board is left quiet at the end: moves still in their settle window are judged.
  const { events } = runSupervision(state, [...inputs, { kind: 'tick', at: last + QUIET_END_MS }]);
  const compared = events.filter(e => s.header.expect === 'all' || e.type !== 'clock');
  const digests = compared.map(e => makeDigest(e));
  const expected = s.expected.filter(e => !e.editions || e.editions.includes(edition));
  const failures: string[] = [];
  const n = Math.max(expected.length, compared.length);
  for (let i = 0; i < n; i++) {
    const want = expected[i];
    const got = compared[i];
    const digest = digests[i];
    if (want && got && digest !== undefined && matches(want, digest, got)) continue;
    const wantText = want
      ? `line ${want.line}: expected "${want.tokens.join(' ')}${want.detail !== undefined ? ` "${want.detail}"` : ''}"`
      : 'no more events expected';
    failures.push(
      `${s.file} [${edition}] ${wantText}, got ${digest !== undefined ? `"${digest}"` : 'nothing'}`,
    );
    break;
  }
  return { file: s.file, edition, events, digests, failures };
};

/** Runs the script under every edition it names. */
export const runScript = (s: BoardScript): ScriptRun[] => s.header.editions.map(e => runScriptFor(s, e));
