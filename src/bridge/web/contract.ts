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
import type { AlertMessage, EventMessage, GameSnapshot } from '../mqtt/topics.js';

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
export type WebClocks = {
  readonly white_ms: number;
  readonly black_ms: number;
  /** The side whose clock is running, null when both are stopped (paused, not started, over). */
  readonly running: WebColor | null;
  /** When these readings were taken, ms since the Unix epoch (the daemon's clock). */
  readonly at: number;
};

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

/** What the arbiter needs to judge an alert; every field optional. */
export interface WebEvidence {
  /** The last legal position (before the irregularity). */
  readonly fen_before?: string;
  /** What the board shows now: the board part of a FEN, possibly illegal. */
  readonly placement?: string;
  /** The move attempted or played, UCI-like (`e1e3`). */
  readonly move?: string;
  /** Squares to point at (`["e1", "e3"]`). */
  readonly squares?: readonly string[];
  /** Move orders (SAN lines from `fen_before`) that all lead to the board: the arbiter decides which was played. */
  readonly orders?: readonly (readonly string[])[];
  /** The ply the orders are played after (`set_moves` with this `after_ply` records one). */
  readonly orders_after_ply?: number;
  /** The ply whose position "restore to ply N" should bring back (Art. 7.5.1). */
  readonly restore_ply?: number;
  /** The `seq` of the claim event, for accept_claim / reject_claim. */
  readonly claim_seq?: number;
  /** Side concerned (the offender, the claimant). */
  readonly color?: WebColor;
  /** Free text (sensor details, the claim's wording). */
  readonly detail?: string;
}

/** An alert on `<base>/alerts`: the MQTT layer's AlertMessage plus what the console shows. */
export interface WebAlert extends AlertMessage {
  /** Unique id of the alert (the console keys and deduplicates by it; else by game, seq and code). */
  readonly id?: string;
  readonly ply?: number;
  readonly evidence?: WebEvidence;
  /** How sure an Art. 4 / Art. 7 finding is: `proven` (the board shows it) or `possible` (inferred from timing). */
  readonly grade?: 'proven' | 'possible';
  /** Raised on a player's claim. */
  readonly claimed?: boolean;
  /** A withdrawal: the id of the alert that proved wrong or out of date (the console strikes it out). */
  readonly withdraws?: string;
  /** Why it was withdrawn: `resolved` (the board shows the game again) or `replaced` (its ply was taken back). */
  readonly reason?: 'resolved' | 'replaced';
  /** Not an alert: a finding on a move (a possible breach, or information such as 4.5) for the game view. */
  readonly finding?: boolean;
  /** For a finding: a breach of the Laws (false: information). */
  readonly breach?: boolean;
}

/** The response envelope (the same on MQTT and over HTTP). */
export type { ResponseEnvelope } from '../mqtt/topics.js';

/** Compile-time proof that the web shapes fit the MQTT layer's topic types. */
export const asGameSnapshot = (snapshot: WebGameSnapshot): GameSnapshot => snapshot;
