/**
 * What a new game is started with, in the three forms the daemon needs: the journal's header
 * settings (what a restart reads back), the engine's `GameSettings`, and the view's `GameInfo`
 * (pairing, event). Also which pairing a board plays next, and game ids for pairings.
 *
 *   const settings = journalSettingsOf(config.laws, pairing);        // header of a new game
 *   engineSettingsOf('r1-b3', settings);                            // for startSupervision
 *   nextPairing(config.pairings, { serial: '31001' }, finished)?.round; // 2 once r1-b… is finished
 */
import { Result } from '@badrap/result';
import { INITIAL_FEN as DEFAULT_POSITION_FEN } from 'chessops/fen';
import { DEFAULT_QUIET_MS, type GameSettings as EngineSettings } from '../../engine/events.js';
import {
  makeReadableTimeControl,
  makeTimeControl,
  parseReadableTimeControl,
  parseTimeControl,
} from '../../engine/timeControl.js';
import type { Config, LawsConfig, PairingConfig } from '../config/index.js';
import type { GameSettings, JournalHeader, JournalPairing, JournalPlayer } from '../journal/index.js';
import type { GameInfo } from './gameView.js';

/** The game id of a pairing: round and board number, unique across the venue when pairings are. */
export const pairingGameId = (p: { readonly round: number; readonly board: number }): string =>
  `r${p.round}-b${p.board}`;

const journalPlayerOf = (p: PairingConfig['white']): JournalPlayer => ({
  name: p.name,
  ...(p.fideId === undefined ? {} : { fideId: p.fideId }),
  ...(p.title === undefined ? {} : { title: p.title }),
  ...(p.rating === undefined ? {} : { rating: p.rating }),
  ...(p.federation === undefined ? {} : { federation: p.federation }),
});

const journalPairingOf = (p: PairingConfig): JournalPairing => ({
  round: p.round,
  board: p.board,
  white: journalPlayerOf(p.white),
  black: journalPlayerOf(p.black),
});

/** A time control in the readable form, from the readable or the PGN form. */
export const readableTimeControl = (text: string): Result<string, Error> => {
  const readable = parseReadableTimeControl(text);
  if (readable.isOk) return Result.ok(makeReadableTimeControl(readable.value));
  const pgn = parseTimeControl(text);
  if (pgn.isOk) return Result.ok(makeReadableTimeControl(pgn.value));
  return Result.err(new Error(`time_control: ${readable.error.message}`));
};

/** The journal settings of a game under the configured Laws (and a pairing, if any). */
export const journalSettingsOf = (
  laws: LawsConfig,
  pairing?: PairingConfig,
  overrides: Partial<Omit<GameSettings, 'pairing'>> & { readonly pairing?: JournalPairing } = {},
): GameSettings => ({
  edition: laws.edition,
  gameType: laws.gameType,
  supervision: laws.supervision,
  timeControl: laws.timeControl,
  startFen: DEFAULT_POSITION_FEN,
  ...(laws.alerts === 'proven' ? {} : { alerts: laws.alerts }),
  ...(laws.quietSeconds === DEFAULT_QUIET_MS / 1000 ? {} : { quietMs: Math.round(laws.quietSeconds * 1000) }),
  ...(pairing === undefined ? {} : { pairing: journalPairingOf(pairing) }),
  ...overrides,
});

/** The engine's settings for a game from its journal settings. */
export const engineSettingsOf = (game: string, s: GameSettings): EngineSettings => {
  const tc = parseReadableTimeControl(s.timeControl);
  const timed = tc.isOk && (tc.value.kind === 'periods' || tc.value.kind === 'sandclock');
  return {
    game,
    edition: s.edition,
    gameType: s.gameType,
    supervision: s.supervision,
    ...(s.startFen === DEFAULT_POSITION_FEN ? {} : { startFen: s.startFen }),
    ...(s.chess960 === true ? { chess960: true } : {}),
    ...(timed ? { timeControl: makeTimeControl(tc.value) } : {}),
    ...(s.alerts === undefined ? {} : { alertGrade: s.alerts }),
    ...(s.quietMs === undefined ? {} : { quietMs: s.quietMs }),
  };
};

/** What the view shows about a game besides its moves. */
export const gameInfoOf = (header: JournalHeader, board: string | undefined, config: Config): GameInfo => {
  const { pairing, timeControl, startFen, chess960 } = header.settings;
  const tc = parseReadableTimeControl(timeControl);
  const player = (p: JournalPairing['white']) => ({
    name: p.name,
    ...(p.fideId === undefined ? {} : { fideId: String(p.fideId) }),
    ...(p.title === undefined ? {} : { title: p.title }),
    ...(p.rating === undefined ? {} : { rating: p.rating }),
    ...(p.federation === undefined ? {} : { federation: p.federation }),
  });
  return {
    game: header.game,
    board,
    event: config.tournament.name,
    ...(config.tournament.site === '' ? {} : { site: config.tournament.site }),
    ...(tc.isOk ? { timeControl: makeTimeControl(tc.value) } : {}),
    ...(startFen === DEFAULT_POSITION_FEN ? {} : { startFen }),
    ...(chess960 === true ? { chess960: true } : {}),
    ...(pairing === undefined
      ? {}
      : {
          round: pairing.round,
          ...(pairing.board > 0 ? { boardNumber: pairing.board } : {}),
          white: player(pairing.white),
          black: player(pairing.black),
        }),
  };
};

/**
 * The first pairing of a board (lowest round first) whose game is not finished: a pairing that
 * names a serial is played on the board reporting it; one that names none, on the board
 * configured with its board number.
 */
export const nextPairing = (
  pairings: readonly PairingConfig[],
  board: { readonly serial?: string | undefined; readonly number?: number | undefined },
  finished: ReadonlySet<string>,
): PairingConfig | undefined =>
  [...pairings]
    .filter(
      p =>
        (p.serial === undefined
          ? board.number !== undefined && p.board === board.number
          : p.serial === board.serial) && !finished.has(pairingGameId(p)),
    )
    .sort((a, b) => a.round - b.round)[0];
