/**
 * The public contract: a TypeBox schema for every message that leaves the daemon, the TypeScript
 * types derived from them, and the JSON Schema document `chessbridge schema` prints (and
 * docs/schema/wire.schema.json holds). Keys and enumerated values are snake_case (words.ts); an
 * optional piece of information is `null`, not absent, unless a field says otherwise; no message
 * carries a key its schema does not list.
 *
 *   const problems = checkWire('event', JSON.parse(payload));   // [] or ['/clocks/white_ms: expected a number, got "x"']
 *   type Move = Static<typeof MoveEvent>;
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Value, type ValueError } from '@sinclair/typebox/value';
import {
  ApiBoards,
  BoardState,
  BridgeHealth,
  BridgeInfo,
  BridgeState,
  ResponseEnvelope,
} from './bridgeSchema.js';
import { HTTP_SCHEMAS } from './httpSchema.js';
import { JournalHeaderLine, JournalObservation, JournalRecordLine } from './journalSchema.js';
import { REQUEST_ACTIONS, REQUEST_SCHEMAS, type RequestAction } from './requestSchema.js';
import {
  AlertCode,
  At,
  closed,
  Color,
  Grade,
  Ms,
  nullable,
  oneOf,
  PgnTermination,
  Ply,
  Result,
} from './primitives.js';
import { WIRE_END_REASONS } from './words.js';
import { Text } from './textSchema.js';

export {
  ApiBoards,
  BoardState,
  BridgeHealth,
  BridgeInfo,
  BridgeState,
  ResponseEnvelope,
} from './bridgeSchema.js';
export type { ApiGame, ApiMove, ApiPlayer, ApiRound, ApiTournament } from './httpSchema.js';

export const Clocks = Type.Object(
  {
    white_ms: Ms,
    black_ms: Ms,
    running: nullable(Color),
    at: At,
  },
  { ...closed, description: 'Both clocks at one instant; the running side counts down from `at`.' },
);

const Article = {
  article: Type.String({ description: 'The article of the Laws (`7.5.1`).' }),
  edition: Type.String({ description: 'The edition of the Laws (`E23`).' }),
};

const Head = <T extends string>(type: T) => ({
  game: Type.String({ description: 'Game id.' }),
  seq: Type.Integer({ minimum: 1, description: 'Strictly increasing per game: drop seq <= last seen.' }),
  at: At,
  type: Type.Literal(type),
});

export const MovePly = Type.Object(
  {
    ply: Ply,
    san: Type.String(),
    uci: Type.String({ description: '`e2e4`, `e7e8q`; castling as the king’s move (`e1g1`).' }),
    fen: Type.String({ description: 'The position after the move.' }),
    clocks: nullable(Clocks),
    elapsed_ms: nullable(Ms),
  },
  closed,
);

const Evidence = Type.Object(
  {
    fen_before: Type.Optional(Type.String({ description: 'The last legal position.' })),
    placement: Type.Optional(Type.String({ description: 'What the board shows: the board part of a FEN.' })),
    move: Type.Optional(Type.String({ description: 'The move attempted (`e1e3`).' })),
    squares: Type.Optional(Type.Array(Type.String(), { description: 'Squares to point at.' })),
    orders: Type.Optional(
      Type.Array(Type.Array(Type.String()), { description: 'Move orders (SAN) that all reach the board.' }),
    ),
    orders_after_ply: Type.Optional(Type.Integer({ description: 'The ply the orders are played after.' })),
    events: Type.Optional(
      Type.Integer({ description: 'How many board events support it (the journal has them).' }),
    ),
  },
  closed,
);

export const MoveEvent = Type.Object(
  { ...Head('move'), ...MovePly.properties },
  { ...closed, description: 'One ply played.' },
);

export const CorrectionEvent = Type.Object(
  {
    ...Head('correction'),
    from_ply: Ply,
    moves: Type.Array(MovePly, { description: 'The plies from `from_ply` on (empty: removed).' }),
    reason: oneOf(['revision', 'takeback', 'gesture', 'illegal_move', 'arbiter'], 'Why the record changed.'),
  },
  { ...closed, description: 'The plies from `from_ply` are replaced.' },
);

export const ClockEvent = Type.Object(
  { ...Head('clock'), clocks: Clocks },
  { ...closed, description: 'Clocks started, stopped, adjusted, or a reading.' },
);

export const AlertEvent = Type.Object(
  {
    ...Head('alert'),
    code: AlertCode,
    ...Article,
    color: nullable(Color),
    grade: nullable(Grade),
    ply: nullable(Ply),
    claimed: Type.Boolean({ description: 'Raised on a player’s claim.' }),
    detail: Type.String({ description: 'One sentence for the arbiter.' }),
    text: Type.Optional(Text),
    evidence: nullable(Evidence),
  },
  { ...closed, description: 'Something for the arbiter.' },
);

export const AlertWithdrawnEvent = Type.Object(
  {
    ...Head('alert_withdrawn'),
    alert: Type.Integer({ minimum: 1, description: 'The seq of the alert withdrawn.' }),
    code: AlertCode,
    reason: oneOf(
      ['resolved', 'replaced'],
      'resolved: the board shows the game again; replaced: its ply was taken back.',
    ),
  },
  { ...closed, description: 'An alert proved wrong or out of date.' },
);

export const FindingEvent = Type.Object(
  {
    ...Head('finding'),
    ply: Ply,
    code: AlertCode,
    ...Article,
    color: Color,
    grade: Grade,
    breach: Type.Boolean({ description: 'A breach of the Laws (false: information).' }),
    detail: Type.String(),
    text: Type.Optional(Text),
    evidence: nullable(Evidence),
  },
  { ...closed, description: 'What the supervisor found on a move that is not an alert.' },
);

export const ClaimEvent = Type.Object(
  {
    ...Head('claim'),
    by: Color,
    claim: oneOf(['threefold', 'fifty_moves', 'flag', 'illegal_move', 'art4'], 'What is claimed.'),
    status: oneOf(['available', 'pending', 'valid', 'invalid'], 'Where the claim stands.'),
    ...Article,
    detail: nullable(Type.String()),
    text: Type.Optional(Text),
  },
  closed,
);

export const OfferEvent = Type.Object(
  {
    ...Head('offer'),
    by: Color,
    status: oneOf(['made', 'accepted', 'declined', 'lapsed'], 'Where the draw offer stands.'),
    article: nullable(Article.article),
    edition: nullable(Article.edition),
  },
  closed,
);

export const EndEvent = Type.Object(
  {
    ...Head('end'),
    result: Result,
    reason: oneOf(WIRE_END_REASONS, 'Why the game ended.'),
    reason_text: Type.String({ description: 'Why, in words for a display (`time forfeit`).' }),
    termination: PgnTermination,
    winner: nullable(Color),
    ...Article,
    detail: nullable(Type.String({ description: 'The arbiter’s own words, for an `arbiter` ending.' })),
  },
  { ...closed, description: 'The game has a result.' },
);

export const EventMessage = Type.Union(
  [
    MoveEvent,
    CorrectionEvent,
    ClockEvent,
    AlertEvent,
    AlertWithdrawnEvent,
    FindingEvent,
    ClaimEvent,
    OfferEvent,
    EndEvent,
  ],
  { description: '`games/<game>/events`: the game’s event stream (QoS 1).' },
);
export type EventMessage = Static<typeof EventMessage>;

/** Every event type, as its `type` value. */
export const EVENT_TYPES = EventMessage.anyOf.map(s => s.properties.type.const);

const Player = Type.Object(
  {
    name: Type.String({ description: '`Lastname, Firstname`, as in PGN.' }),
    title: nullable(Type.String({ description: 'FIDE title (GM, IM, WGM…).' })),
    rating: nullable(Type.Integer()),
    federation: nullable(Type.String({ description: 'Three-letter federation code.' })),
  },
  closed,
);

/** `games/<game>`: the retained snapshot of a game (docs/web.md). */
export const GameSnapshot = Type.Object(
  {
    game: Type.String(),
    seq: Type.Integer({ minimum: 0, description: 'The last event folded into it.' }),
    at: At,
    board: nullable(Type.String({ description: 'The board playing the game.' })),
    board_number: nullable(Type.Integer({ description: 'Board number in the round’s pairings.' })),
    round: nullable(Type.String()),
    event: nullable(Type.String()),
    white: nullable(Player),
    black: nullable(Player),
    variant: oneOf(['standard', 'chess960'], 'The rules of the game: Chess960 castles by its own rules.'),
    start_fen: Type.String({ description: 'The position the game started from (X-FEN for Chess960).' }),
    fen: Type.String({ description: 'The current position.' }),
    moves: Type.Array(Type.String(), { description: 'SAN of every ply from the start.' }),
    last_move: nullable(Type.Object({ ply: Ply, san: Type.String(), uci: Type.String() }, closed)),
    clocks: nullable(Clocks),
    result: oneOf(['1-0', '0-1', '1/2-1/2', '*'], 'The result (both players losing shows as *).'),
    reason: nullable(oneOf(WIRE_END_REASONS, 'Why the game ended, as the end event’s reason.')),
    reason_text: nullable(Type.String({ description: 'The same in words.' })),
    termination: nullable(PgnTermination),
    status: oneOf(['not_started', 'playing', 'paused', 'finished'], 'Where the game stands.'),
  },
  { ...closed, description: '`games/<game>`: retained snapshot of a game.' },
);

const AlertEvidence = Type.Object(
  {
    ...Evidence.properties,
    restore_ply: Type.Optional(Type.Integer({ description: 'The ply “restore” should bring back.' })),
    claim_seq: Type.Optional(
      Type.Integer({ description: 'The claim event’s seq (accept_claim, reject_claim).' }),
    ),
    color: Type.Optional(Color),
    detail: Type.Optional(Type.String()),
  },
  closed,
);

/** `alerts`: what the arbiter console shows, for every board. */
export const AlertMessage = Type.Object(
  {
    id: Type.String({ description: 'Unique id (`<game>-<seq>`).' }),
    at: At,
    game: Type.String(),
    seq: Type.Integer({ minimum: 1 }),
    ply: Ply,
    board: Type.Optional(Type.String()),
    code: AlertCode,
    message: Type.String(),
    text: Type.Optional(Text),
    article: Type.Optional(Article.article),
    edition: Type.Optional(Article.edition),
    grade: Type.Optional(Grade),
    claimed: Type.Optional(Type.Literal(true)),
    evidence: Type.Optional(AlertEvidence),
    withdraws: Type.Optional(Type.String({ description: 'The id of the alert withdrawn.' })),
    reason: Type.Optional(oneOf(['resolved', 'replaced'], 'Why it was withdrawn.')),
    finding: Type.Optional(Type.Literal(true)),
    breach: Type.Optional(Type.Boolean()),
  },
  { ...closed, description: '`alerts`: an alert, a withdrawal, a finding or a pending claim.' },
);

export type WireAlert = Static<typeof AlertMessage>;
export type WireAlertEvidence = Static<typeof AlertEvidence>;
export type WireClocks = Static<typeof Clocks>;

const ReplayGame = Type.Object(
  {
    type: Type.Literal('replay_game'),
    game: Type.String({ description: '`<file>#<number>`: the game of the PGN file replayed.' }),
    white: Type.String(),
    black: Type.String(),
    event: Type.String(),
    fen: Type.String({ description: 'The start position.' }),
    recorded_result: Type.String({ description: 'The result the PGN records.' }),
  },
  { ...closed, description: 'A PGN game replayed: its header, before its events.' },
);

const ReplaySummary = Type.Object(
  {
    type: Type.Literal('replay_summary'),
    game: Type.String(),
    plies: Type.Integer({ minimum: 0 }),
    result: Type.String({ description: 'The result the rules decided (`*`: no end on the board).' }),
    recorded_result: Type.String(),
    ended_at_ply: nullable(
      Type.Integer({ description: 'The ply the rules ended the game at; later plies are after the end.' }),
    ),
  },
  { ...closed, description: 'A PGN game replayed: what the rules made of it, after its events.' },
);

const ReplayError = Type.Object(
  {
    type: Type.Literal('replay_error'),
    game: Type.String(),
    kind: Type.String({ description: 'What was wrong (`illegal_move`, `bad_fen`…).' }),
    message: Type.String({ description: 'Where and what, for a person.' }),
  },
  { ...closed, description: 'A PGN game that could not be replayed.' },
);

/** A line of `chessbridge replay --json`: a game event, or a PGN game's header, summary or error. */
export const ReplayLine = Type.Union([...EventMessage.anyOf, ReplayGame, ReplaySummary, ReplayError], {
  description: '`chessbridge replay --json`: one document a line.',
});
export type ReplayLine = Static<typeof ReplayLine>;

/** Each request action's schema as a document of the wire: `request_<action>`. */
const REQUEST_DOCUMENTS = Object.fromEntries(
  REQUEST_ACTIONS.map(a => [`request_${a}`, REQUEST_SCHEMAS[a]]),
) as {
  readonly [A in RequestAction as `request_${A}`]: (typeof REQUEST_SCHEMAS)[A];
};

/** The schema of each named document of the wire. */
export const WIRE_SCHEMAS = {
  event: EventMessage,
  game: GameSnapshot,
  alert: AlertMessage,
  board_state: BoardState,
  bridge_state: BridgeState,
  bridge_info: BridgeInfo,
  bridge_health: BridgeHealth,
  response: ResponseEnvelope,
  api_tournament: HTTP_SCHEMAS.api_tournament,
  api_rounds: HTTP_SCHEMAS.api_rounds,
  api_round: HTTP_SCHEMAS.api_round,
  api_game: HTTP_SCHEMAS.api_game,
  api_moves: HTTP_SCHEMAS.api_moves,
  api_boards: ApiBoards,
  replay_line: ReplayLine,
  healthz: HTTP_SCHEMAS.healthz,
  journal_header: JournalHeaderLine,
  journal_record: JournalRecordLine,
  ...REQUEST_DOCUMENTS,
} as const satisfies Record<string, TSchema>;
export type WireName = keyof typeof WIRE_SCHEMAS;

/** The documents that are unions by `type`: a value is checked against the member of its type. */
const UNIONS = {
  event: EventMessage.anyOf,
  replay_line: ReplayLine.anyOf,
  journal_record: JournalRecordLine.anyOf,
} as const;

const memberOf = (members: readonly TSchema[], type: unknown): TSchema | undefined =>
  members.find(
    s => (s as unknown as { properties: { type: { const: unknown } } }).properties.type.const === type,
  );

const describeValue = (v: unknown): string => {
  const text = JSON.stringify(v) as string | undefined;
  return text === undefined ? String(v) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
};

/**
 * What is wrong with `value` as a `name` document: one line per problem, naming the field (a JSON
 * pointer) and what it holds; empty when it conforms. For a union (the events) the member with the
 * same `type` is the one checked, so the problems are that member's.
 */
export const checkWire = (name: WireName, value: unknown): string[] => {
  let schema: TSchema = WIRE_SCHEMAS[name];
  const members = UNIONS[name as keyof typeof UNIONS] as readonly TSchema[] | undefined;
  if (members !== undefined && typeof value === 'object' && value !== null && 'type' in value) {
    const member = memberOf(members, value.type);
    if (member === undefined) return [`/type: unknown ${name} type ${describeValue(value.type)}`];
    schema = member;
    // An observation inside a journal record is explained by the observation type it names.
    const o = name === 'journal_record' && 'observation' in value ? value.observation : undefined;
    if (typeof o === 'object' && o !== null && 'type' in o) {
      const inner = memberOf(JournalObservation.anyOf, o.type);
      if (inner === undefined)
        return [`/observation/type: unknown observation type ${describeValue(o.type)}`];
      const outer = [...Value.Errors(member, value)].filter(e => !e.path.startsWith('/observation'));
      return [...explain(outer), ...explain([...Value.Errors(inner, o)]).map(line => `/observation${line}`)];
    }
  }
  return explain([...Value.Errors(schema, value)]);
};

/**
 * The problems as lines. A value no member of a union takes (a nullable object with a bad field)
 * is explained by the member that comes closest, so the line names the field inside it.
 */
const explain = (errors: readonly ValueError[]): string[] =>
  errors.flatMap(e => {
    // Members refusing the value as a whole (null for an object) say nothing about its fields.
    const inside = e.errors
      .map(it => [...it])
      .filter(list => list.length > 0 && list.every(m => m.path !== e.path));
    const closest = inside.sort((a, b) => a.length - b.length)[0];
    if (closest !== undefined) return explain(closest);
    return [`${e.path || '/'}: ${e.message}, got ${describeValue(e.value)}`];
  });
