/**
 * The journal's on-disk vocabulary: one JSON object a line (JSON Lines, UTF-8, `\n` after every
 * line). A game file starts with a header (seq 0) and holds records with seq 1, 2, 3, … ; the
 * shared write-ahead log wraps each record with its game id. docs/journal.md shows examples.
 *
 *   const line = makeRecordLine(seq, wall, bodyOf({ type: 'observation', board: 'b1', observation }));
 *   const r = parseRecord(JSON.parse(line)); // Result<JournalRecord, string>
 *   isGameId('city-open-r1-b3'); // true
 */
import { Result } from '@badrap/result';
import { type Static, Type, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Observation } from '../../drivers/observation.js';
import { JournalHeaderLine } from '../wire/journalSchema.js';
import { wireWord } from '../wire/words.js';
import {
  finishToWire,
  headerFromWire,
  headerToWire,
  observationFromWire,
  observationToWire,
} from '../wire/journal.js';
import {
  EDITIONS,
  GAME_TYPES,
  SUPERVISIONS,
  type Edition,
  type GameType,
  type Supervision,
} from '../../engine/types.js';

/**
 * The format written by this build: 2, the wire's snake_case (src/bridge/wire/journalSchema.ts).
 * Readers also take format 1 (camelCase keys, kebab-case words, before the public contract),
 * respelled as they are read: a journal written by an earlier build replays unchanged.
 */
export const JOURNAL_FORMAT = 2;
export const READABLE_FORMATS: readonly number[] = [1, 2];
/** Game files live in `<dir>/games/<game>.jsonl`, write-ahead segments in `<dir>/wal/<n>.wal`. */
export const GAMES_DIR = 'games';
export const WAL_DIR = 'wal';
export const GAME_FILE_SUFFIX = '.jsonl';
export const WAL_SUFFIX = '.wal';

const GAME_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;
/** Game ids become file names: letters, digits, - and _, at most 128. */
export const isGameId = (id: string): boolean => GAME_ID.test(id);

/** Any JSON value (what an operator command may carry). */
export type JsonValue =
  string | number | boolean | null | readonly JsonValue[] | { readonly [k: string]: JsonValue };

export interface JournalPlayer {
  readonly name: string;
  readonly fideId?: number;
  readonly title?: string;
  readonly rating?: number;
  readonly federation?: string;
}

/** The pairing a game is played for (the config's pairing fits as it is). */
export interface JournalPairing {
  readonly round: number;
  /** Board (table) number in the round. */
  readonly board: number;
  readonly white: JournalPlayer;
  readonly black: JournalPlayer;
}

/** What the engine needs to rebuild the game from the start. */
export interface GameSettings {
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
  /** As configured (readable form of docs/clock.md). */
  readonly timeControl: string;
  /** FEN of the position the game starts from. */
  readonly startFen: string;
  /** A Chess960 game (castling by the Chess960 rules); absent: standard chess. */
  readonly chess960?: boolean;
  readonly pairing?: JournalPairing;
  /** Which findings are alerts (engine GameSettings.alertGrade); absent: proven only. */
  readonly alerts?: 'proven' | 'possible';
  /** The supervisor's quiet time in ms (engine GameSettings.quietMs); absent: the default. */
  readonly quietMs?: number;
}

export interface JournalHeader {
  readonly type: 'header';
  readonly format: number;
  readonly seq: 0;
  readonly game: string;
  readonly board: string;
  /** ISO-8601 UTC time the journal was created. */
  readonly createdAt: string;
  readonly settings: GameSettings;
}

/** What callers append; the journal adds `seq` and `wall`. */
export type JournalEntry =
  /** A driver observation of the game's board, as received (`observation.at` is the receipt time). */
  | { readonly type: 'observation'; readonly board: string; readonly observation: Observation }
  /** An operator or arbiter command; `at` is on the same clock as observations. */
  | {
      readonly type: 'command';
      readonly at: number;
      readonly action: string;
      readonly params: JsonValue;
      /** Who sent it: `mqtt:<client>`, `cli`, `console:<user>`, … */
      readonly source?: string;
    }
  /** The last record of a game. */
  | { readonly type: 'finish'; readonly at: number; readonly result: string; readonly reason: string };

export type JournalRecord = JournalEntry & {
  /** Journal sequence number: 1, 2, 3, … in file order. */
  readonly seq: number;
  /** Wall-clock time (ms since 1970) when the record was journaled, for people reading it. */
  readonly wall: number;
};

// ---------------------------------------------------------------------------------------------
// Validation of what is read back (shape only: observations are the drivers' vocabulary).

const Literals = (values: readonly string[]): TSchema => Type.Union(values.map(v => Type.Literal(v)));
const Player = Type.Object({
  name: Type.String(),
  fideId: Type.Optional(Type.Number()),
  title: Type.Optional(Type.String()),
  rating: Type.Optional(Type.Number()),
  federation: Type.Optional(Type.String()),
});

/** The header of format 1 (camelCase). */
const HeaderSchemaV1 = Type.Object({
  type: Type.Literal('header'),
  format: Type.Number(),
  seq: Type.Literal(0),
  game: Type.String({ pattern: GAME_ID.source }),
  board: Type.String(),
  createdAt: Type.String(),
  settings: Type.Object({
    edition: Literals(EDITIONS),
    gameType: Literals(GAME_TYPES),
    supervision: Literals(SUPERVISIONS),
    timeControl: Type.String(),
    startFen: Type.String(),
    chess960: Type.Optional(Type.Boolean()),
    alerts: Type.Optional(Literals(['proven', 'possible'])),
    quietMs: Type.Optional(Type.Number({ minimum: 0 })),
    pairing: Type.Optional(
      Type.Object({ round: Type.Number(), board: Type.Number(), white: Player, black: Player }),
    ),
  }),
});

const Stamp = { seq: Type.Integer({ minimum: 1 }), wall: Type.Number() };

const RecordSchema = Type.Union([
  Type.Object({
    ...Stamp,
    type: Type.Literal('observation'),
    board: Type.String(),
    observation: Type.Object({ type: Type.String(), at: Type.Number() }),
  }),
  Type.Object({
    ...Stamp,
    type: Type.Literal('command'),
    at: Type.Number(),
    action: Type.String(),
    params: Type.Unknown(),
    source: Type.Optional(Type.String()),
  }),
  Type.Object({
    ...Stamp,
    type: Type.Literal('finish'),
    at: Type.Number(),
    result: Type.String(),
    reason: Type.String(),
    detail: Type.Optional(Type.String()),
  }),
]);

const firstError = (schema: TSchema, value: unknown): string => {
  const e = Value.Errors(schema, value).First();
  return e === undefined ? 'invalid' : `${e.path === '' ? 'record' : e.path}: ${e.message.toLowerCase()}`;
};

/** A problem found in the daemon's names, said in the file's (`settings/gameType` → `settings/game_type`). */
const wirePath = (problem: string): string => {
  const colon = problem.indexOf(':');
  return colon < 0 ? problem : problem.slice(0, colon).replace(/[A-Za-z]+/g, wireWord) + problem.slice(colon);
};

/** Failure reasons here are plain text; the reader adds file and line. */
export class FormatError extends Error {
  override readonly name = 'FormatError';
}

export const parseHeader = (value: unknown): Result<JournalHeader, FormatError> => {
  const format = typeof value === 'object' && value !== null && 'format' in value ? value.format : undefined;
  if (format === 2) {
    // Checked in the daemon's names with the lenient schema of format 1, so a field a later build
    // adds does not stop this one replaying; the strict schema (wire/journalSchema.ts) is the
    // contract the tests hold what this build writes to.
    const decoded = headerFromWire(value);
    if (!Value.Check(HeaderSchemaV1, decoded))
      return Result.err(new FormatError(wirePath(firstError(HeaderSchemaV1, decoded))));
    return Result.ok(decoded as JournalHeader);
  }
  if (format === 1) {
    if (!Value.Check(HeaderSchemaV1, value))
      return Result.err(new FormatError(firstError(HeaderSchemaV1, value)));
    return Result.ok(value as JournalHeader);
  }
  if (typeof format !== 'number') return Result.err(new FormatError(firstError(JournalHeaderLine, value)));
  return Result.err(
    new FormatError(`format ${format}: this chessbridge reads formats ${READABLE_FORMATS.join(' and ')}`),
  );
};

/** A record as read (format 1 or 2) in the daemon's names. */
const recordFromWire = (value: Static<typeof RecordSchema>): JournalRecord => {
  switch (value.type) {
    case 'observation':
      return { ...value, observation: observationFromWire(value.observation) as Observation };
    case 'command':
      return value as JournalRecord;
    case 'finish': {
      const { detail, ...rest } = value;
      return detail === undefined ? rest : { ...rest, reason: detail };
    }
  }
};

export const parseRecord = (value: unknown): Result<JournalRecord, FormatError> =>
  Value.Check(RecordSchema, value)
    ? Result.ok(recordFromWire(value))
    : Result.err(new FormatError(firstError(RecordSchema, value)));

/** A write-ahead line: `{"game":"…","record":{…}}`. */
export const parseWalLine = (
  value: unknown,
): Result<{ game: string; record: JournalRecord }, FormatError> => {
  if (typeof value !== 'object' || value === null || !('game' in value) || !('record' in value))
    return Result.err(new FormatError('not a write-ahead record'));
  const { game, record } = value;
  if (typeof game !== 'string') return Result.err(new FormatError('game: expected string'));
  return parseRecord(record).map(r => ({ game, record: r }));
};

// ---------------------------------------------------------------------------------------------
// Writing. An entry is serialised once, when appended (so a value JSON cannot hold fails in the
// caller's hands), and the stamp is spliced in front when its seq is known.

/** An entry in the journal's spelling (format 2). */
const entryToWire = (entry: JournalEntry): unknown => {
  switch (entry.type) {
    case 'observation':
      return { ...entry, observation: observationToWire(entry.observation) };
    case 'command':
      return entry;
    case 'finish':
      return { ...entry, ...finishToWire(entry.reason) };
  }
};

/** JSON of an entry; throws TypeError for values JSON cannot hold (cycles, BigInt). */
export const bodyOf = (entry: JournalEntry): string => {
  const body = JSON.stringify(entryToWire(entry));
  if (!body.startsWith('{"')) throw new TypeError('journal entry must be a non-empty object');
  return body;
};

/** One game-file line (with its `\n`): the stamp, then the entry's fields. */
export const makeRecordLine = (seq: number, wall: number, body: string): string =>
  `{"seq":${seq},"wall":${wall},${body.slice(1)}\n`;

/** One write-ahead line (with its `\n`) wrapping a game-file line. */
export const makeWalLine = (game: string, recordLine: string): string =>
  `{"game":${JSON.stringify(game)},"record":${recordLine.slice(0, -1)}}\n`;

const playerOf = (p: JournalPlayer): JournalPlayer => ({
  name: p.name,
  ...(p.fideId === undefined ? {} : { fideId: p.fideId }),
  ...(p.title === undefined ? {} : { title: p.title }),
  ...(p.rating === undefined ? {} : { rating: p.rating }),
  ...(p.federation === undefined ? {} : { federation: p.federation }),
});

/** The header line: the fields the header lists (a configured pairing carries more, e.g. its serial). */
export const makeHeaderLine = (header: JournalHeader): string => {
  const { pairing } = header.settings;
  const settings: GameSettings = {
    ...header.settings,
    ...(pairing === undefined
      ? {}
      : {
          pairing: {
            round: pairing.round,
            board: pairing.board,
            white: playerOf(pairing.white),
            black: playerOf(pairing.black),
          },
        }),
  };
  return `${JSON.stringify(headerToWire({ ...header, format: JOURNAL_FORMAT, settings }))}\n`;
};
