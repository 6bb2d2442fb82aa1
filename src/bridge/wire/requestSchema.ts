/**
 * The request API's vocabulary, part of the published contract: one TypeBox schema per action
 * (snake_case fields, no unknown fields) and the TypeScript request types derived from them. The
 * same schemas check `<base>/bridge/request/<action>` over MQTT and `POST /api/arbiter/<action>`
 * over HTTP; docs/wire.md lists their fields as `request_<action>`.
 *
 *   type Restore = RequestOf<'restore_position'>;   // { game_id: string; ply: number; transaction?: … }
 *   isRequestAction('set_result');                  // true
 */
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { EDITIONS, GAME_TYPES, SUPERVISIONS } from '../../engine/types.js';

/** A union of string literals from a const array. */
const oneOf = <T extends string>(values: readonly T[], description: string) =>
  Type.Union(
    values.map(v => Type.Literal(v)),
    { description },
  );

/** Ids become topic levels: no "/", "+", "#" or whitespace. `patternHint` words the pattern's error. */
const id = (description: string) =>
  Type.String({
    minLength: 1,
    maxLength: 64,
    pattern: '^[^/+#\\s]+$',
    description,
    patternHint: 'an id without "/", "+", "#" or whitespace',
  });
const gameId = id('Game id, unique across the venue.');
const boardId = id('Board id, unique across the venue.');
const color = oneOf(['white', 'black'] as const, 'A side.');

/** Fields every request may carry. */
const common = {
  /** Echoed in the response, so a caller can match answers to questions. */
  transaction: Type.Optional(
    Type.Union([Type.String({ maxLength: 128 }), Type.Number()], { description: 'Echoed back.' }),
  ),
};

const request = <P extends Record<string, TSchema>>(properties: P, description: string) =>
  Type.Object({ ...properties, ...common }, { additionalProperties: false, description });

/** PGN results an arbiter may set. */
export const RESULTS = ['1-0', '0-1', '1/2-1/2'] as const;
/**
 * Claims a player makes to the arbiter, who records them: a draw by repetition or the fifty-move
 * rule (with the intended move when it is about to happen), the opponent's flag, an illegal move
 * (where only a claim counts), or a breach of Art. 4 on the opponent's last move (touch-move,
 * release), which makes the board's `possible` findings on that move an alert.
 */
export const CLAIMS = ['threefold', 'fifty_moves', 'flag', 'illegal_move', 'art4'] as const;

/** Penalties an arbiter may apply (Art. 12.9 of the Laws lists what is available). */
export const PENALTIES = ['warning', 'add_time_to_opponent', 'deduct_time', 'game_lost'] as const;

/** Every request schema, keyed by action (the last level of `bridge/request/<action>`). */
export const REQUEST_SCHEMAS = {
  start_game: request(
    {
      game_id: gameId,
      board_id: Type.Optional(boardId),
      white: Type.Optional(
        Type.String({ maxLength: 128, description: 'White player, as the PGN names them.' }),
      ),
      black: Type.Optional(Type.String({ maxLength: 128, description: 'Black player.' })),
      round: Type.Optional(
        Type.String({ maxLength: 32, description: 'Round, as the PGN writes it (`3`, `3.1`).' }),
      ),
      time_control: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 64,
          description: 'Time control, e.g. `90+30` or `40/5400:1800+30`.',
        }),
      ),
      edition: Type.Optional(oneOf(EDITIONS, 'Edition of the Laws.')),
      game_type: Type.Optional(oneOf(GAME_TYPES, 'Game type.')),
      fen: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 100,
          description: 'Start position (FEN); default the initial position.',
        }),
      ),
    },
    'Start a game, optionally on a board and with its settings.',
  ),
  stop_game: request(
    {
      game_id: gameId,
      reason: Type.Optional(Type.String({ maxLength: 256, description: 'Why, for the log.' })),
    },
    'Stop following a game (no result is set).',
  ),
  bind_board: request(
    {
      board_id: boardId,
      game_id: gameId,
      round: Type.Optional(Type.String({ maxLength: 32, description: 'Round of the pairing.' })),
      white: Type.Optional(Type.String({ maxLength: 128, description: 'White player.' })),
      black: Type.Optional(Type.String({ maxLength: 128, description: 'Black player.' })),
    },
    'Bind a board to a pairing (the game played on it).',
  ),
  set_time_control: request(
    {
      game_id: gameId,
      time_control: Type.String({ minLength: 1, maxLength: 64, description: 'e.g. 40/5400:1800+30' }),
    },
    'Set the time control of a game.',
  ),
  set_edition: request(
    {
      game_id: gameId,
      edition: oneOf(EDITIONS, 'Edition of the Laws.'),
      game_type: Type.Optional(oneOf(GAME_TYPES, 'Game type.')),
      supervision: Type.Optional(oneOf(SUPERVISIONS, 'Supervision regime (rapid and blitz).')),
    },
    'Set the edition of the Laws (and game type) a game is played under.',
  ),
  accept_claim: request(
    { game_id: gameId, claim_seq: Type.Integer({ minimum: 1, description: 'seq of the claim event' }) },
    'Arbiter accepts a claim.',
  ),
  reject_claim: request(
    {
      game_id: gameId,
      claim_seq: Type.Integer({ minimum: 1, description: 'seq of the claim event' }),
      reason: Type.Optional(Type.String({ maxLength: 256, description: 'Why, for the players.' })),
    },
    'Arbiter rejects a claim.',
  ),
  apply_penalty: request(
    {
      game_id: gameId,
      color,
      penalty: oneOf(PENALTIES, 'Kind of penalty.'),
      seconds: Type.Optional(
        Type.Integer({
          minimum: 1,
          maximum: 3600,
          description: 'Time added or deducted, for the time penalties.',
        }),
      ),
      article: Type.Optional(
        Type.String({ maxLength: 16, description: 'Article of the Laws applied (`12.9`).' }),
      ),
      note: Type.Optional(Type.String({ maxLength: 256, description: "The arbiter's words." })),
    },
    'Arbiter applies a penalty to one side.',
  ),
  restore_position: request(
    {
      game_id: gameId,
      ply: Type.Integer({ minimum: 0, description: 'restore the position after this ply' }),
    },
    'Arbiter restores the position after ply N (later moves are replaced, never branched).',
  ),
  adjust_clocks: request(
    {
      game_id: gameId,
      white_ms: Type.Integer({ minimum: 0, description: "White's time left, ms." }),
      black_ms: Type.Integer({ minimum: 0, description: "Black's time left, ms." }),
    },
    'Arbiter sets both clocks.',
  ),
  set_result: request(
    {
      game_id: gameId,
      result: oneOf(RESULTS, 'PGN result.'),
      reason: Type.Optional(
        Type.String({ maxLength: 256, description: "The arbiter's words (the end's detail)." }),
      ),
      article: Type.Optional(Type.String({ maxLength: 16, description: 'Article of the Laws applied.' })),
    },
    'Arbiter sets the result.',
  ),
  set_moves: request(
    {
      game_id: gameId,
      after_ply: Type.Integer({ minimum: 0, description: 'the moves replace the plies after this one' }),
      moves: Type.Array(Type.String({ minLength: 1, maxLength: 16 }), {
        minItems: 1,
        maxItems: 64,
        description: 'the moves played, in SAN',
      }),
    },
    'Arbiter records the moves played after a ply (an order of an undecided catch-up, say): they replace the published plies from after_ply + 1.',
  ),
  claim: request(
    {
      game_id: gameId,
      color: color,
      claim: oneOf(CLAIMS, 'What is claimed.'),
      intended: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 16,
          description: 'the move written down (SAN), for 9.2 / 9.3',
        }),
      ),
    },
    'The arbiter records a claim made by the player of `color` (decided by the supervisor, or left to the arbiter).',
  ),
  resync_board: request({ board_id: boardId }, 'Ask a board for a full dump and match it to its game again.'),
  clock_text: request(
    {
      board_id: boardId,
      text: Type.String({ maxLength: 32, description: 'Text to show (the clock shows what it can).' }),
      duration_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 60_000, description: 'How long, ms.' })),
      beep: Type.Optional(Type.Boolean({ description: 'Beep as it shows.' })),
    },
    'Show text on the clock attached to a board.',
  ),
  upload_pairings: request(
    {
      format: oneOf(['trf', 'csv'] as const, 'FIDE TRF (Swiss-Manager, Vega) or CSV (docs/broadcast.md).'),
      text: Type.String({
        minLength: 1,
        maxLength: 1_000_000,
        description: 'The file’s text, as the pairing program exported it.',
      }),
    },
    'Replace the pairings read from the pairings file with these (the config’s own pairings stay); a file that does not read changes nothing.',
  ),
  rebind_board: request(
    {
      board_id: boardId,
      number: Type.Integer({
        minimum: 1,
        maximum: 9999,
        description: 'The pairing (table) number the board plays from now on.',
      }),
    },
    'Let a board play the pairings of another table number (a spare board for a broken one); the board that had the number gives it up.',
  ),
  round_control: request(
    {
      round: Type.Integer({ minimum: 1, maximum: 999, description: 'The round.' }),
      action: oneOf(
        ['start', 'pause', 'finish'] as const,
        'start: its games begin as boards are set up; pause: no new game of it begins; finish: it is over, no game of it begins any more.',
      ),
    },
    'Start, pause or finish a round (once one is, rounds never started wait).',
  ),
} as const;

export type RequestAction = keyof typeof REQUEST_SCHEMAS;
export const REQUEST_ACTIONS = Object.keys(REQUEST_SCHEMAS) as readonly RequestAction[];
export const isRequestAction = (action: string): action is RequestAction =>
  Object.prototype.hasOwnProperty.call(REQUEST_SCHEMAS, action);

/** The validated request of an action. */
export type RequestOf<A extends RequestAction> = Static<(typeof REQUEST_SCHEMAS)[A]>;
