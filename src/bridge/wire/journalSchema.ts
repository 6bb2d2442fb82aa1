/**
 * The journal's records as they are on disk (format 2): the header of a game file, its records,
 * and the observations of the drivers inside them, in the wire's spelling (snake_case keys and
 * enumerated values). The journal writes them through journal.ts, which turns the daemon's own
 * names (camelCase fields, kebab-case kinds) into these and back.
 *
 *   checkWire('journal_record', JSON.parse(line));   // [] or ['/observation/left/flag_fallen: …']
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { EDITIONS } from '../../engine/types.js';
import { closed, Color, oneOf, Result } from './primitives.js';

const words = (values: readonly string[], description: string) => oneOf(values, description);
const Square = Type.Integer({
  minimum: 0,
  maximum: 63,
  description: 'Square number: 0 = a1, 7 = h1, … 63 = h8.',
});
const ReceivedAt = Type.Number({
  description:
    'When the daemon received it, in milliseconds on its monotonic clock (the time the engine runs on).',
});
const Role = words(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'], 'A piece.');
const ResultMark = words(['1-0', '0-1', '1/2-1/2'], 'A result.');
const Side = words(['left', 'right'], 'A side of the clock, seen from its front.');

const SquareContent = Type.Union(
  [
    Type.Object({ kind: Type.Literal('empty') }, closed),
    Type.Object({ kind: Type.Literal('piece'), color: Color, role: Role }, closed),
    Type.Object({ kind: Type.Literal('occupied') }, closed),
    Type.Object({ kind: Type.Literal('result_piece'), result: ResultMark }, closed),
  ],
  { description: 'What a square holds as the sensors see it (`occupied`: something, identity unknown).' },
);

const ClockFace = Type.Object(
  {
    ms: Type.Number({ description: 'Time shown, in milliseconds.' }),
    flag_fallen: Type.Boolean({ description: 'The flag has fallen and the clock is blocked at zero.' }),
    flag_shown: Type.Boolean({ description: 'A flag is shown on the display.' }),
    time_per_move: Type.Boolean({ description: 'The increment or delay indicator is on.' }),
  },
  closed,
);

const Id = Type.Integer({ description: 'The message id.' });
const ProtocolReason = Type.Union(
  [
    Type.Object({ kind: Type.Literal('garbage') }, closed),
    Type.Object(
      {
        kind: Type.Literal('interrupted'),
        id: Id,
        declared: Type.Optional(Type.Integer()),
        received: Type.Integer(),
      },
      closed,
    ),
    Type.Object(
      { kind: Type.Literal('bad_length'), id: Id, declared: Type.Integer(), expected: Type.String() },
      closed,
    ),
    Type.Object(
      { kind: Type.Literal('overflow'), id: Id, declared: Type.Integer(), cap: Type.Integer() },
      closed,
    ),
    Type.Object({ kind: Type.Literal('unknown_message'), id: Id }, closed),
    Type.Object({ kind: Type.Literal('unsupported_message'), id: Id, name: Type.String() }, closed),
    Type.Object(
      {
        kind: Type.Literal('checksum'),
        expected: Type.Integer(),
        actual: Type.Integer(),
        address: Type.Optional(Type.Integer()),
      },
      closed,
    ),
    Type.Object({ kind: Type.Literal('bad_field'), field: Type.String(), value: Type.Number() }, closed),
    Type.Object({ kind: Type.Literal('reserved_bits'), field: Type.String(), value: Type.Number() }, closed),
    Type.Object({ kind: Type.Literal('incomplete'), received: Type.Integer() }, closed),
  ],
  { description: 'Why bytes were discarded or only partly understood.' },
);

const ClockAckEvent = Type.Union(
  [
    Type.Object({ kind: Type.Literal('reply'), command: Type.Integer() }, closed),
    Type.Object({ kind: Type.Literal('version'), main: Type.Integer(), sub: Type.Integer() }, closed),
    Type.Object({ kind: Type.Literal('ready') }, closed),
    Type.Object(
      {
        kind: Type.Literal('button'),
        button: Type.Optional(words(['back', 'plus', 'run', 'minus', 'ok'], 'The button pressed.')),
        held: Type.Integer({ description: 'The buttons held, as the clock sends them (a bit mask).' }),
      },
      closed,
    ),
    Type.Object({ kind: Type.Literal('mode_23') }, closed),
    Type.Object({ kind: Type.Literal('not_mode_23') }, closed),
    Type.Object({ kind: Type.Literal('auto'), code: Type.Integer() }, closed),
    Type.Object({ kind: Type.Literal('empty') }, closed),
  ],
  { description: 'What the clock answered or reported.' },
);

const LOG_TAGS = [
  'power_up',
  'eof',
  'four_rows',
  'empty_board',
  'downloaded',
  'begin_pos',
  'begin_pos_rotated',
  'start_tag',
  'watchdog',
  'clock_state',
  'bus_address',
  'nop',
  'nop2',
];
const LogRecord = Type.Union(
  [
    Type.Object(
      {
        kind: Type.Literal('piece'),
        square: Square,
        content: SquareContent,
        quick: Type.Boolean({ description: 'A quick change (the board’s own flag).' }),
      },
      closed,
    ),
    Type.Object({ kind: Type.Literal('time'), side: Side, ms: Type.Number() }, closed),
    Type.Object({ kind: Type.Literal('tag'), tag: words(LOG_TAGS, 'A mark in the log.') }, closed),
    Type.Object({ kind: Type.Literal('unknown'), byte: Type.Integer() }, closed),
  ],
  { description: 'One record of a board’s move log or change list.' },
);

const Observation = <T extends string>(type: T, description: string, fields: Record<string, TSchema>) =>
  Type.Object({ type: Type.Literal(type), at: ReceivedAt, ...fields }, { ...closed, description });

/** Every observation a driver makes, as journaled. */
export const JournalObservation = Type.Union(
  [
    Observation('snapshot', 'The whole board, read at once.', {
      squares: Type.Array(SquareContent, {
        minItems: 64,
        maxItems: 64,
        description: 'By square number (0 = a1 … 63 = h8), the board’s orientation applied.',
      }),
    }),
    Observation('square', 'One square changed.', { square: Square, content: SquareContent }),
    Observation('clock', 'A clock reading.', {
      connected: Type.Boolean({ description: 'False when no clock is attached (the times mean nothing).' }),
      left: ClockFace,
      right: ClockFace,
      running: Type.Optional(Side),
      lever: Side,
      time_unknown: Type.Optional(
        Type.Union([Side, Type.Literal('both')], {
          description:
            'A reading made from the board’s log, not read from the clock: the faces whose time it does not know.',
        }),
      ),
      battery_low: Type.Boolean(),
      status: Type.Integer({ description: 'The status byte as the board sent it.' }),
    }),
    Observation('identity', 'What the board says it is.', {
      vendor: Type.String(),
      model: Type.Optional(Type.String()),
      serial: Type.Optional(Type.String()),
      long_serial: Type.Optional(Type.String()),
      firmware: Type.Optional(Type.String()),
      hardware: Type.Optional(Type.String()),
      bus_address: Type.Optional(Type.Integer()),
      trademark: Type.Optional(Type.String()),
    }),
    Observation('battery', 'The board’s battery.', {
      percent: Type.Optional(Type.Number()),
      charging: Type.Optional(Type.Boolean()),
      minutes_left: Type.Optional(Type.Number()),
      raw: Type.Array(Type.Integer(), { description: 'The payload as received.' }),
    }),
    Observation('link', 'The connection to the board.', {
      state: words(['connected', 'lost', 'resynchronising'], 'The link’s state.'),
      detail: Type.Optional(Type.String()),
      restart: Type.Optional(
        Type.Boolean({
          description: 'Written by the daemon at a restart: it stopped watching at the previous record.',
        }),
      ),
    }),
    Observation('protocol_error', 'Bytes from the board that were discarded.', {
      reason: ProtocolReason,
      hex: Type.String({ description: 'The bytes, hex pairs separated by spaces (at most 48).' }),
      count: Type.Integer({ description: 'How many bytes in all.' }),
    }),
    Observation('clock_ack', 'A clock’s answer to a command, or a clock event.', {
      ack: Type.Array(Type.Integer(), { minItems: 4, maxItems: 4 }),
      ok: Type.Boolean(),
      event: ClockAckEvent,
    }),
    Observation('eeprom_log', 'A board’s move log read at a connection, or a bus change list.', {
      source: words(['dump', 'bus_update', 'bus_from_start'], 'Where the records come from.'),
      records: Type.Array(LogRecord),
    }),
    Observation('bus_reply', 'A bus board saying it is there.', {
      reply: words(['ping', 'start_game_written'], 'Which reply.'),
    }),
  ],
  { description: 'A driver observation.' },
);

const Player = Type.Object(
  { name: Type.String(), fide_id: Type.Optional(Type.Integer({ description: 'FIDE id.' })) },
  closed,
);

export const JournalHeaderLine = Type.Object(
  {
    type: Type.Literal('header'),
    format: Type.Literal(2, { description: 'The journal format (1: before the wire spelling; still read).' }),
    seq: Type.Literal(0),
    game: Type.String({ description: 'Game id (letters, digits, - and _; the file’s name).' }),
    board: Type.String({ description: 'The board that played it.' }),
    created_at: Type.String({ description: 'When the journal was created (ISO 8601, UTC).' }),
    settings: Type.Object(
      {
        edition: words(EDITIONS, 'The edition of the Laws.'),
        game_type: words(['standard', 'rapid', 'blitz'], 'The game type.'),
        supervision: words(['full', 'reduced'], 'The supervision regime (rapid and blitz).'),
        time_control: Type.String({ description: 'As configured (docs/clock.md).' }),
        start_fen: Type.String({ description: 'The position the game starts from.' }),
        alerts: Type.Optional(words(['proven', 'possible'], 'Which findings are alerts.')),
        quiet_ms: Type.Optional(Type.Number({ minimum: 0, description: 'The supervisor’s quiet time.' })),
        pairing: Type.Optional(
          Type.Object(
            {
              round: Type.Integer(),
              board: Type.Integer({ description: 'The table number in the round.' }),
              white: Player,
              black: Player,
            },
            closed,
          ),
        ),
      },
      closed,
    ),
  },
  { ...closed, description: 'The first line of a game file: what a restart needs to start the game again.' },
);

const Stamp = {
  seq: Type.Integer({ minimum: 1, description: 'Journal sequence number: 1, 2, 3, … without gaps.' }),
  wall: Type.Number({ description: 'When it was journaled, ms since the Unix epoch (for people).' }),
};

export const JournalRecordLine = Type.Union(
  [
    Type.Object(
      {
        ...Stamp,
        type: Type.Literal('observation'),
        board: Type.String({ description: 'The board it came from.' }),
        observation: JournalObservation,
      },
      { ...closed, description: 'What a board’s driver observed, as received.' },
    ),
    Type.Object(
      {
        ...Stamp,
        type: Type.Literal('command'),
        at: ReceivedAt,
        action: Type.String({
          description:
            'The request’s action (docs/mqtt.md), or the daemon’s `board_setup` or `journal_damage` (docs/journal.md).',
        }),
        params: Type.Unknown({ description: 'The request’s fields, as validated.' }),
        source: Type.Optional(
          Type.String({
            description:
              "Who sent it: the transport (`mqtt`, `http`, `livechess`) with the verified role and user, and the client id or address when known (`mqtt role=arbiter user=anna client=anna-phone address=192.168.1.20`); `cli` or `daemon` for the daemon's own records.",
          }),
        ),
      },
      { ...closed, description: 'An operator’s or arbiter’s command.' },
    ),
    Type.Object(
      {
        ...Stamp,
        type: Type.Literal('finish'),
        at: ReceivedAt,
        result: Result,
        reason: Type.String({
          description: 'Why it ended: an end reason of the events (`checkmate`, `arbiter`…).',
        }),
        detail: Type.Optional(
          Type.String({ description: 'The arbiter’s own words, when the reason is `arbiter`.' }),
        ),
      },
      { ...closed, description: 'The last record of a game.' },
    ),
  ],
  {
    description:
      'A line of a game file after the header (a write-ahead line wraps one: `{"game":…,"record":…}`).',
  },
);
