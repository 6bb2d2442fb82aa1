/**
 * The daemon's own documents on MQTT (docs/mqtt.md): a board's state, the bridge's state, info and
 * health, and the response envelope of every request (the same over HTTP).
 *
 *   checkWire('board_state', JSON.parse(payload));
 */
import { Type } from '@sinclair/typebox';
import { At, closed, nullable, oneOf } from './primitives.js';

/** `boards/<board>/state`: retained. */
export const BoardState = Type.Object(
  {
    board: Type.String(),
    link: oneOf(['connected', 'lost', 'resynchronising'], 'The link to the board.'),
    game: nullable(Type.String({ description: 'The game bound to the board.' })),
    serial: Type.Optional(Type.String()),
    placement: Type.Optional(Type.String({ description: 'The board part of a FEN, as the board sees it.' })),
    at: At,
  },
  closed,
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
    transaction: Type.Optional(Type.Union([Type.String(), Type.Number()])),
  },
  closed,
);
