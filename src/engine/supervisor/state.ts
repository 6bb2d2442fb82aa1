/**
 * Supervisor state: one immutable value per game, advanced by `superviseStep` (index.ts). It holds
 * the recogniser's state (the act of moving), the rules state after every ply (status.ts), the
 * clock model, the counts and pending matters the Laws keep per player (illegal moves, offers,
 * claims, Art. 4 obligations), and the next `seq`.
 *
 *   const { state } = startSupervision({ game: 'r1-b1', edition: 'E23', gameType: 'standard', supervision: 'full' });
 *   state.profile.articles.touchMoveOwn;   // '4.3.1'
 *   state.plies.length;                    // 1 (the start position)
 */
import type { Position } from 'chessops';
import type { ClockState } from '../clock.js';
import type { EditionProfile } from '../editions.js';
import type { Sentence } from '../texts.js';
import type { ArticleTopic } from '../editions.js';
import type { AlertCode, GameSettings, Grade } from '../events.js';
import type { BoardEvent } from '../recognition/boardEvent.js';
import type { PublishedMove, RecognitionOutput } from '../recognition/outputs.js';
import type { RecognitionOptions, RecognitionState } from '../recognition/state.js';
import type { PlyStatus, RulesState } from '../status.js';
import type { ArticleRef, ByColor, Color } from '../types.js';

/** What the supervisor knows about one ply (index 0 = the start position). */
export interface PlyInfo {
  /** FEN after the ply: used to notice corrections of the recognised game. */
  readonly fen: string;
  readonly rules: RulesState;
  readonly status: PlyStatus;
  /** When the ply was made (board time), undefined for the start position. */
  readonly madeAt: number | undefined;
}

/** A touch-move duty carried into a player's next move (after an enforced Art. 4 or Art. 7 reinstatement). */
export interface Obligation {
  readonly color: Color;
  /** The ply the obliged move will have. */
  readonly ply: number;
  /** Board events of the aborted attempt(s), prepended to the next move's evidence for Art. 4. */
  readonly events: readonly BoardEvent[];
  /** Moves (UCI) taken back for this duty: seen again on the board, they are not accepted. */
  readonly forbidden: readonly string[];
}

/** A draw offer waiting for an answer. */
export interface PendingOffer {
  readonly by: Color;
  /** Game length when it was made. */
  readonly ply: number;
  readonly at: number;
}

/** A claim waiting for the arbiter (flag in claim-only regimes is decided at once; these are the rest). */
export interface PendingClaim {
  readonly by: Color;
  readonly claim: 'threefold' | 'fiftyMoves' | 'flag';
  readonly at: number;
}

/** A completed illegal move the opponent may still claim (rapid/blitz with reduced supervision). */
export interface ClaimableIllegal {
  readonly offender: Color;
  /** Game length at the press (the opponent's move, when made, closes the window). */
  readonly ply: number;
  readonly at: number;
  /** Time the offender's press credited (removed when the position is reinstated). */
  readonly creditMs: number;
  /** The alert's code and article, repeated when the claim is upheld. */
  readonly code: AlertCode;
  readonly article: ArticleRef;
  /** A square the claimant lifted a piece from since (a piece put down elsewhere then makes his move). */
  readonly liftedFrom: number | undefined;
  readonly closed: boolean;
}

/** Physical clock readings when no clock model runs. */
export interface Reading {
  readonly whiteMs: number;
  readonly blackMs: number;
  readonly running: Color | undefined;
  readonly at: number;
  /** The record's length when read (plies recorded since tell presses the record lacks: clockGap.ts). */
  readonly ply: number;
}

export interface Ended {
  readonly result: '1-0' | '0-1' | '1/2-1/2' | '0-0' | '*';
  readonly at: number;
}

/** A breach graded `possible` on a player's last move, which the opponent may still claim (Art. 4.8). */
export interface Suspicion {
  readonly by: Color;
  readonly ply: number;
  readonly alerts: readonly {
    readonly code: AlertCode;
    readonly topic: ArticleTopic;
    readonly detail: string;
    readonly text: Sentence;
    readonly grade: Grade;
  }[];
  readonly events: readonly BoardEvent[];
  readonly fenBefore: string;
  readonly move: string;
}

/**
 * A board that is no position (or a half-made move that cannot be completed) seen at a quiet
 * moment: not an alert while pieces may still be moving; it becomes one at a press, or once the
 * board has stayed so, quiet, for `irregularQuietMs`. `alert` once published (withdrawn when the
 * board shows a position of the game again).
 */
export interface Irregular {
  readonly out: Extract<RecognitionOutput, { type: 'mismatch' } | { type: 'pending' }>;
  readonly alert: { readonly seq: number; readonly code: AlertCode } | undefined;
}

export interface SupervisorOptions {
  /** Options of the recogniser (settle window, tracker reach, ...). */
  readonly recognition: Partial<RecognitionOptions>;
}

export interface SupervisorState {
  readonly settings: GameSettings;
  readonly profile: EditionProfile;
  readonly mode: 'advise' | 'enforce';
  /** seq of the last event published (0: none yet). */
  readonly seq: number;
  /** Latest input time. */
  readonly now: number;
  /** Whether any input has been seen (the clock starts at the first one). */
  readonly started: boolean;
  readonly rec: RecognitionState;
  readonly recOptions: Partial<RecognitionOptions>;
  /** plies[i]: the position after i plies; kept in step with rec.game. */
  readonly plies: readonly PlyInfo[];
  readonly clock: ClockState | undefined;
  readonly reading: Reading | undefined;
  /** Flags already decided (each is decided once). */
  readonly flagDone: ByColor<boolean>;
  /** Completed illegal moves per player (Art. 7 count; one combined count from E17). */
  readonly illegal: ByColor<number>;
  /** The last illegal move counted: by whom, at which game length (a two-handed illegal move counts once). */
  readonly lastIllegal: { readonly by: Color; readonly ply: number } | undefined;
  /** The last ply each player completed by pressing (0: none). */
  readonly completed: ByColor<number>;
  readonly offer: PendingOffer | undefined;
  readonly claim: PendingClaim | undefined;
  readonly claimable: ClaimableIllegal | undefined;
  readonly obligation: Obligation | undefined;
  /** Art. 4 breaches alerted and not yet ruled on, for the loss of the right to claim (4.8). */
  readonly breach: { readonly by: Color; readonly code: string; readonly ply: number } | undefined;
  /** An illegal position is on the board (alerted as pending). */
  readonly illegalShown: boolean;
  /** The first piece touched by the player having the move in this turn (9.4, 9.1 lapse, 4.8). */
  readonly turnTouch: { readonly ply: number; readonly color: Color; readonly at: number } | undefined;
  /** The board was re-read (link back, snapshot): a mismatch is a board mismatch, not an illegal move. */
  readonly resync: boolean;
  /**
   * Plies of the record were inferred from a re-read board (two or more found at once, in an order
   * the board cannot prove, also as a correction): until a move is seen made on top of them (or
   * the arbiter acts), a board that departs from the record is a board mismatch, never an illegal
   * move or a penalty.
   * `contradicted`: a press found the board departing from them; live moves no longer confirm
   * them, only the arbiter does (the record may be in another order than the game's).
   */
  readonly inferred: false | 'unconfirmed' | 'contradicted';
  /** Counts the times the board matched the game again: a new irregular board after it is a new alert. */
  readonly epoch: number;
  /** Keys of alerts already published, so each is published once. */
  readonly alerted: ReadonlySet<string>;
  readonly linkLost: boolean;
  /**
   * When the board was last seen before a lost link or a restart (ms): the board's log, read when
   * it returns, is replayed from here; cleared by the board's next snapshot or change.
   */
  readonly lostAt: number | undefined;
  /** The link to the board was lost at some point in this game: a re-read board may be ahead of the record. */
  readonly gapped: boolean;
  /**
   * The last time the daemon did not see the game (a lost link, a restart): `from` when it stopped
   * seeing it, `boardAt` when the board was first seen again, `clockAt` when the clock was first
   * read after that. A flag the daemon did not see fall is not a result it decides (clockFeed.ts).
   * `ply` and `reading`: the record's length and the physical clock's last reading when it stopped
   * seeing the game, to tell plies the board does not show from the clock (clockGap.ts), once.
   */
  readonly gap:
    | {
        readonly from: number;
        readonly boardAt: number | undefined;
        readonly clockAt: number | undefined;
        readonly ply: number;
        readonly reading: Reading | undefined;
        /** The clock was compared over the gap (clockGap.ts). */
        readonly clockChecked: boolean;
      }
    | undefined;
  /**
   * The plies the last catch-up read off a re-read board (a snapshot after a gap): the board shows
   * the position they reach, not the order or number of moves, so the side to move is not proven
   * by it. Only a checkmate ends the game there by itself (commit.ts).
   */
  readonly readOff: { readonly from: number; readonly to: number } | undefined;
  readonly ended: Ended | undefined;
  /** A clock press has been seen in this game (a game with a clock, even without a time control). */
  readonly pressSeen: boolean;
  /** Clock presses seen in this game, to place the board's log when a position repeats in it. */
  readonly presses: number;
  /**
   * Plies up to this one are judged (Art. 4 findings published, automatic endings decided): a move
   * is judged once it is final (its mover's press, the opponent's reply, the end of the game, or a
   * quiet board for a move that ends the game), never on a provisional reading.
   */
  readonly judged: number;
  /** The published moves not yet judged (plies judged+1 …, as last published). */
  readonly unjudged: readonly PublishedMove[];
  /** Alerts about plies (Art. 4), withdrawn if their ply is taken back. */
  readonly plyAlerts: readonly { readonly seq: number; readonly code: AlertCode; readonly ply: number }[];
  /** The last possible (unproven) Art. 4 breach, claimable by the opponent. */
  readonly suspicion: Suspicion | undefined;
  /** A board that is no position, not yet an alert (see Irregular). */
  readonly irregular: Irregular | undefined;
  /** The board's log is being replayed (recovery.ts): its presses count nothing under Art. 7. */
  readonly recovering: boolean;
  /** When the last replayed log ran (its times are made up): no Art. 4 finding comes from it. */
  readonly recovered: { readonly from: number; readonly until: number } | undefined;
  /**
   * The record since the last gap is not proven by a press yet (the board was seen again without
   * its log replayed): plies that leave no trace on the board may have gone unseen (unseenPlies.ts).
   */
  readonly unproven: boolean;
}

/** The position after `ply`, from the recognised game. */
export const positionAt = (st: SupervisorState, ply: number): Position => {
  const pos = st.rec.game.positionView(ply);
  if (!pos) throw new RangeError(`supervisor: no position at ply ${ply}`);
  return pos;
};

/** The mover of `ply` (1-based): the side to move in the position before it. */
export const moverOf = (st: SupervisorState, ply: number): Color => positionAt(st, ply - 1).turn;
