/**
 * The wire contract of the web display and the arbiter console (docs/web.md): the game snapshot
 * the pages read from the retained `games/<game>` topic, the game events they apply from
 * `games/<game>/events`, and the alert they show from `alerts`. Fields are snake_case like the
 * rest of the MQTT API. The daemon's publisher emits these shapes; the pages (web/shared/store.js)
 * read nothing else.
 *
 *   const snapshot: WebGameSnapshot = { game: 'r1-b1', seq: 12, at: Date.now(), board: 'dgt-1', … };
 *   publisher.retain(topics.game(snapshot.game), snapshot);     // a WebGameSnapshot is a GameSnapshot
 *
 * Every optional piece of information is `null` rather than absent, so a snapshot is also a valid
 * `GameSnapshot` (topics.ts), whose index signature only admits JSON values.
 */
import type { PgnTermination } from '../../engine/outcome.js';
import type { EventMessage, GameSnapshot } from '../mqtt/topics.js';
import type { WireAlert, WireAlertEvidence, WireClocks } from '../wire/schema.js';

export type WebColor = 'white' | 'black';
export type WebResult = '1-0' | '0-1' | '1/2-1/2' | '*';

/** Where a game stands, for the display's status line. */
export const WEB_GAME_STATUSES = ['not_started', 'playing', 'paused', 'finished'] as const;
export type WebGameStatus = (typeof WEB_GAME_STATUSES)[number];

/** A player as the display shows one. */
export type WebPlayer = {
  /** `Lastname, Firstname`, as in PGN. */
  readonly name: string;
  /** FIDE title (GM, IM, WGM…), if any. */
  readonly title: string | null;
  readonly rating: number | null;
  /** Three-letter federation code. */
  readonly federation: string | null;
};

/** Both clocks at one instant; the display counts the running side down from `at`. */
export type WebClocks = WireClocks;

/** The last ply played, for the highlight and the status line. */
export type WebLastMove = {
  /** 1-based ply: 1 is White's first move. */
  readonly ply: number;
  readonly san: string;
  /** `e2e4`, `e7e8q`; castling as the king's move (`e1g1`). */
  readonly uci: string;
};

/** The retained snapshot on `<base>/games/<game>`. */
export type WebGameSnapshot = {
  readonly game: string;
  /** The last event folded into this snapshot. */
  readonly seq: number;
  readonly at: number;
  /** Id of the electronic board playing the game. */
  readonly board: string | null;
  /** Board number in the round's pairings (orders the round page). */
  readonly board_number: number | null;
  /** Round as in the pairings (`"3"`); the round page shows the games of one round. */
  readonly round: string | null;
  readonly event: string | null;
  readonly white: WebPlayer | null;
  readonly black: WebPlayer | null;
  /** The rules of the game: `chess960` castles by the Chess960 rules. */
  readonly variant: 'standard' | 'chess960';
  /** The position the game started from (X-FEN castling for Chess960). */
  readonly start_fen: string;
  /** The current position. */
  readonly fen: string;
  /** SAN of every ply from the start, in order (`moves[0]` is ply 1). */
  readonly moves: readonly string[];
  readonly last_move: WebLastMove | null;
  readonly clocks: WebClocks | null;
  readonly result: WebResult;
  /** Why the game ended (`checkmate`, `flag`, `seventy_five_moves`…: the end event's `reason`), once it has. */
  readonly reason: string | null;
  /** The same in words for a display (`checkmate`, `time forfeit`, `seventy-five-move rule`). */
  readonly reason_text: string | null;
  /** The PGN Termination tag (`normal`, `time forfeit`, `rules infraction`…). */
  readonly termination: PgnTermination | null;
  readonly status: WebGameStatus;
};

/** `move`: one ply played. Self-contained, so a page that missed events can still show it. */
export type WebMoveEvent = Extract<EventMessage, { type: 'move' }>;

/** `clock`: clocks started, stopped, adjusted, or a periodic reading. */
export type WebClockEvent = Extract<EventMessage, { type: 'clock' }>;

/** `end`: the game has a result. */
export type WebEndEvent = Extract<EventMessage, { type: 'end' }>;

/**
 * The events the pages apply. Any other type (`correction` after a takeback or an arbiter's
 * restore, `claim`, `offer`…) only advances `seq`; the page then re-reads the retained snapshot,
 * which the daemon re-publishes after every event.
 */
export type WebGameEvent = WebMoveEvent | WebClockEvent | WebEndEvent;
export const WEB_EVENT_TYPES = ['move', 'clock', 'end'] as const satisfies readonly WebGameEvent['type'][];

/** Alert codes the console words and colours; others are shown with their code. */
export const WEB_ALERT_CODES = [
  'illegal_move',
  'touch_move',
  'board_missing',
  'clock_paused',
  'board_mismatch',
  'claim',
  'flag',
] as const;
export type WebAlertCode = (typeof WEB_ALERT_CODES)[number];

/** What the arbiter needs to judge an alert; every field optional (docs/wire.md, `alert`). */
export type WebEvidence = WireAlertEvidence;

/** An alert on `<base>/alerts`: what the console shows (docs/wire.md, `alert`). */
export type WebAlert = WireAlert;

/** The response envelope (the same on MQTT and over HTTP). */
export type { ResponseEnvelope } from '../mqtt/topics.js';

/** Compile-time proof that the web shapes fit the MQTT layer's topic types. */
export const asGameSnapshot = (snapshot: WebGameSnapshot): GameSnapshot => snapshot;
