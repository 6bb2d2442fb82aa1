/**
 * The daemon's own documents on MQTT (docs/mqtt.md): a board's state, the bridge's state, info and
 * health, and the response envelope of every request (the same over HTTP).
 *
 *   checkWire('board_state', JSON.parse(payload));
 */
import { Type } from '@sinclair/typebox';
import { At, closed, nullable, oneOf } from './primitives.js';
import { REFUSAL_PARAMS } from './refusals.js';

/** What a board's state says of it, the same over MQTT and HTTP (the position aside). */
const boardFields = {
  board: Type.String(),
  number: nullable(Type.Integer({ minimum: 1, description: 'The board (table) number in the hall.' })),
  link: oneOf(['connected', 'lost', 'resynchronising'], 'The link to the board.'),
  status: oneOf(
    ['connected', 'idle', 'lost', 'not_responding'],
    'How the board stands: connected (its game under way), idle (up, no game under way), lost (the link is down), not_responding (opened, no answer for watch.notRespondingSeconds).',
  ),
  problems: Type.Array(
    oneOf(
      ['board_missing', 'clock_paused', 'board_mismatch'],
      'board_missing: lost or not responding; clock_paused: stopped for watch.clockPausedSeconds while its game is under way; board_mismatch: its game raised board_mismatch and the board has not shown the game’s position since.',
    ),
    { description: 'What the operator is alerted to, empty when nothing.' },
  ),
  game: nullable(Type.String({ description: 'The game bound to the board.' })),
  serial: Type.Optional(Type.String()),
  vendor: nullable(Type.String({ description: 'As the board reported itself.' })),
  model: nullable(Type.String()),
  firmware: nullable(Type.String()),
  battery: nullable(
    Type.Object(
      {
        percent: nullable(Type.Number({ minimum: 0, maximum: 100 })),
        charging: nullable(Type.Boolean()),
      },
      closed,
    ),
  ),
  clock: nullable(
    Type.Object(
      {
        present: Type.Boolean({ description: 'A clock is attached and reporting.' }),
        running: nullable(oneOf(['left', 'right'], 'The side whose time runs; null: stopped.')),
        stopped_since: nullable(Type.Integer({ description: 'When it stopped, ms since the epoch.' })),
        battery_low: Type.Boolean(),
      },
      closed,
    ),
  ),
  last_seen: nullable(
    Type.Integer({ description: 'When the board last said anything, ms since the epoch.' }),
  ),
};

/** `boards/<board>/state`: retained. */
export const BoardState = Type.Object(
  {
    ...boardFields,
    placement: Type.Optional(Type.String({ description: 'The board part of a FEN, as the board sees it.' })),
    at: At,
  },
  closed,
);

/**
 * `GET /api/boards`: every configured board's state without its position (the API is public and
 * the position would show moves before the broadcast delay lets them out).
 */
export const ApiBoards = Type.Object(
  {
    at: At,
    boards: Type.Array(Type.Object({ ...boardFields, at: At }, closed)),
  },
  { ...closed, description: 'HTTP GET /api/boards: the status of every configured board.' },
);

/** `bridge/state`: retained; the Last Will sets it to offline. */
export const BridgeState = Type.Object({ state: oneOf(['online', 'offline'], 'The daemon.') }, closed);

/** `bridge/info`: retained. */
export const BridgeInfo = Type.Object(
  {
    version: Type.String(),
    client_id: Type.String(),
    started_at: Type.String({ description: 'ISO 8601.' }),
    boards: Type.Array(Type.String()),
    games: Type.Array(Type.String()),
  },
  closed,
);

/** `bridge/health`: periodic. */
export const BridgeHealth = Type.Object(
  {
    at: Type.String({ description: 'ISO 8601.' }),
    uptime_s: Type.Integer(),
    mqtt: Type.Object(
      {
        connected: Type.Boolean(),
        reconnects: Type.Integer(),
        published: Type.Integer(),
        queued: Type.Integer(),
        acked: Type.Integer(),
        dropped: Type.Integer(),
      },
      closed,
    ),
    boards: Type.Optional(
      Type.Record(
        Type.String(),
        Type.Object(
          {
            link: oneOf(['connected', 'lost', 'resynchronising'], 'The link to the board.'),
            game: nullable(Type.String()),
            observations: Type.Integer(),
            protocol_errors: Type.Integer(),
            link_losses: Type.Integer(),
          },
          closed,
        ),
      ),
    ),
  },
  closed,
);

/** `bridge/response/<action>` and every HTTP request's answer. */
export const ResponseEnvelope = Type.Object(
  {
    status: oneOf(['ok', 'error'], 'Whether the request was done.'),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The action’s answer.' }),
    error: Type.Optional(Type.String({ description: 'Why not, naming the field.' })),
    code: Type.Optional(
      oneOf(
        Object.keys(REFUSAL_PARAMS),
        'Why not, as a code the pages render in the reader’s language (docs/i18n.md).',
      ),
    ),
    params: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]), {
        description: 'The refusal’s parameters (field names, the game, the board).',
      }),
    ),
    transaction: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  },
  closed,
);
