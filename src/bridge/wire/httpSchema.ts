/**
 * The HTTP API's documents on the wire (docs/wire.md, docs/broadcast.md): the tournament, its
 * rounds, a round's games, a game with its moves, and `/healthz`. http/apiJson.ts writes them.
 *
 *   const game: ApiGame = makeApiGame(state, view);
 */
import { type Static, Type } from '@sinclair/typebox';
import { closed, nullable, oneOf, PgnTermination, Ply } from './primitives.js';
import { WIRE_END_REASONS } from './words.js';

const ApiPlayerSchema = Type.Object(
  {
    name: Type.String({ description: '`Lastname, Firstname`, as in PGN.' }),
    fide_id: nullable(Type.String()),
    title: nullable(Type.String()),
    rating: nullable(Type.Integer()),
    federation: nullable(Type.String()),
  },
  closed,
);
export type ApiPlayer = Static<typeof ApiPlayerSchema>;

export const ApiRoundSchema = Type.Object(
  {
    round: Type.Integer({ minimum: 1 }),
    date: nullable(Type.String({ description: 'YYYY-MM-DD.' })),
    delay_ms: Type.Integer({ minimum: 0, description: 'The broadcast delay of the round.' }),
    games: Type.Integer({ minimum: 0 }),
    live: Type.Integer({ minimum: 0, description: 'Games without a result shown yet.' }),
  },
  closed,
);
export type ApiRound = Static<typeof ApiRoundSchema>;

export const ApiMoveSchema = Type.Object(
  {
    ply: Ply,
    san: Type.String(),
    uci: Type.String(),
    fen: Type.String({ description: 'The position after the move.' }),
    clock_ms: nullable(Type.Integer({ description: 'The mover’s remaining time after the move.' })),
  },
  closed,
);
export type ApiMove = Static<typeof ApiMoveSchema>;

const ApiGameFields = {
  round: Type.Integer({ minimum: 1 }),
  board: Type.Integer({ minimum: 1, description: 'Board number in the pairings.' }),
  white: ApiPlayerSchema,
  black: ApiPlayerSchema,
  result: oneOf(['1-0', '0-1', '1/2-1/2', '*'], 'The result shown (under the broadcast delay).'),
  reason: nullable(oneOf(WIRE_END_REASONS, 'Why the game ended, when the daemon knows.')),
  reason_text: nullable(Type.String()),
  termination: nullable(PgnTermination),
  plies: Type.Integer({ minimum: 0, description: 'Plies shown.' }),
  fen: Type.String({ description: 'The position shown.' }),
  last_move: nullable(Type.Object({ ply: Ply, san: Type.String(), uci: Type.String() }, closed)),
  clocks: Type.Object(
    { white_ms: nullable(Type.Integer()), black_ms: nullable(Type.Integer()) },
    { ...closed, description: 'The last clock reading of each side among the moves shown.' },
  ),
  time_control: Type.String({ description: 'PGN TimeControl (`?` unknown).' }),
  board_serial: nullable(Type.String()),
  delayed: Type.Boolean({ description: 'The broadcast delay is holding moves or the result back.' }),
};
const ApiGameSchema = Type.Object(ApiGameFields, closed);
export type ApiGame = Static<typeof ApiGameSchema>;

/** HTTP `/api/tournament`. */
export const ApiTournamentSchema = Type.Object(
  {
    name: Type.String(),
    site: nullable(Type.String()),
    time_control: nullable(Type.String()),
    rounds: Type.Array(ApiRoundSchema),
  },
  { ...closed, description: 'HTTP /api/tournament: the tournament and its rounds.' },
);
export type ApiTournament = Static<typeof ApiTournamentSchema>;

/** The HTTP documents, by their name on the wire. */
export const HTTP_SCHEMAS = {
  api_tournament: ApiTournamentSchema,
  api_rounds: Type.Array(ApiRoundSchema, { description: 'HTTP /api/rounds: every round.' }),
  api_round: Type.Object(
    {
      round: Type.Integer({ minimum: 1 }),
      date: nullable(Type.String()),
      delay_ms: Type.Integer({ minimum: 0 }),
      games: Type.Array(ApiGameSchema),
    },
    { ...closed, description: 'HTTP /api/rounds/N: a round and its games.' },
  ),
  api_game: Type.Object(
    { ...ApiGameFields, moves: Type.Array(ApiMoveSchema) },
    { ...closed, description: 'HTTP /api/rounds/N/games/K: one game with its moves.' },
  ),
  api_moves: Type.Array(ApiMoveSchema, { description: 'HTTP /api/rounds/N/games/K/moves?from=P.' }),
  healthz: Type.Object(
    {
      status: oneOf(
        ['ok', 'degraded', 'fail'],
        'ok (200); degraded (200: it serves, and `degraded` says what is missing); fail (503: no broker).',
      ),
      uptime_s: Type.Integer({ minimum: 0 }),
      ok: Type.Boolean(),
      degraded: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'What is wrong while it serves: a configured board not connected, the publisher behind, the journal failing to write.',
        }),
      ),
      mqtt: Type.Optional(Type.Boolean({ description: 'The daemon is connected to its broker.' })),
      games: Type.Optional(Type.Integer({ minimum: 0, description: 'Games open.' })),
    },
    { ...closed, description: 'HTTP /healthz: for a load balancer or systemd.' },
  ),
} as const;
