/**
 * The contract between the engine's supervisor and everything downstream (journal, MQTT, live
 * PGN, web pages): what goes in (board events, clock readings, operator commands) and what comes
 * out (game events). The supervisor is a reducer over these, so a game replays exactly from its
 * recorded inputs.
 *
 *   let { state } = startSupervision(settings);
 *   const { state: next, events } = superviseStep(state, { kind: 'square', at: 120, square: 12, piece: 'empty' });
 *   for (const ev of events) if (ev.type === 'move') console.log(ev.ply, ev.san);
 *
 * Field names are camelCase here; the bridge converts them to the wire case of MQTT (snake_case).
 * Every event names the article of the edition in force when a rule decided it.
 */
import type { Square } from 'chessops';
import type { BoardEvent, SensedContent } from './recognition/boardEvent.js';
import type { ArticleRef, Color, Edition, GameType, Supervision } from './types.js';
import type { Sentence } from './texts.js';

/** Everything that happens at a board, in time order: the supervisor's input. */
export type SupervisorInput =
  | BoardEvent
  /** A physical clock's reading (both remaining times, which side runs, as read from the device). */
  | {
      readonly kind: 'clock';
      readonly at: number;
      readonly whiteMs: number;
      readonly blackMs: number;
      readonly running: Color | undefined;
    }
  /**
   * The link to the board was lost or came back (the board's state is then re-read as a snapshot).
   * `restart`: the daemon itself stopped watching (it was restarted), the board was there all along:
   * the gap is recovered the same way, without a board-missing alert.
   */
  | {
      readonly kind: 'link';
      readonly at: number;
      readonly state: 'lost' | 'back';
      readonly restart?: boolean;
    }
  /**
   * The board's own memory of its changes (a DGT board's move log, read after a restart or a
   * lost link, before its snapshot): every square change and lever press in order, untimed. The
   * supervisor finds where the board stood when it was last seen and replays what followed.
   */
  | { readonly kind: 'boardLog'; readonly at: number; readonly entries: readonly BoardLogEntry[] }
  /** An operator or player command (arbiter console, MQTT request, CLI). */
  | OperatorCommand;

/** One record of a board's memory of its changes. */
export type BoardLogEntry =
  /** A square changed; `quick`: within about 250 ms of the record before. */
  | {
      readonly kind: 'square';
      readonly square: Square;
      readonly piece: SensedContent;
      readonly quick: boolean;
    }
  /** The player of `side` pressed his lever (the board logs the stopped clock's time then). */
  | { readonly kind: 'press'; readonly side: Color }
  /** What the board stood as at this point: empty (a power-up, then one record per piece) or the start position. */
  | { readonly kind: 'mark'; readonly board: 'empty' | 'start' }
  /** A record from which the board cannot be followed on (a non-standard start, an unknown byte). */
  | { readonly kind: 'gap' };

/** Commands from people: players' claims and offers, and the arbiter's decisions. */
export type OperatorCommand =
  | {
      readonly kind: 'claim';
      readonly at: number;
      readonly by: Color;
      /**
       * 'illegalMove': the opponent's completed illegal move, in regimes where it counts only on a
       * claim. 'art4': a breach of Art. 4 by the opponent on his last move (touch-move, release),
       * before the claimant touches a piece (E14+ 4.8): the move's `possible` findings become an alert.
       */
      readonly claim: ClaimKind;
      /** The intended move (SAN) for a claim "about to appear" (9.2 a, 9.3 a). */
      readonly intended?: string;
    }
  | { readonly kind: 'offer'; readonly at: number; readonly by: Color }
  | { readonly kind: 'offerReply'; readonly at: number; readonly by: Color; readonly accept: boolean }
  | { readonly kind: 'resign'; readonly at: number; readonly by: Color }
  | {
      readonly kind: 'arbiter';
      readonly at: number;
      readonly action:
        | { readonly type: 'acceptClaim' | 'rejectClaim' }
        | { readonly type: 'penalty'; readonly against: Color; readonly minutes: number }
        | { readonly type: 'restore'; readonly ply: number }
        /**
         * The arbiter's record of the moves after `afterPly` (SAN), e.g. one of the orders an
         * undecided catch-up listed: they replace the published plies from `afterPly + 1`.
         */
        | { readonly type: 'setMoves'; readonly afterPly: number; readonly moves: readonly string[] }
        | { readonly type: 'adjustClock'; readonly whiteMs: number; readonly blackMs: number }
        | {
            readonly type: 'setResult';
            readonly result: '1-0' | '0-1' | '1/2-1/2' | '0-0';
            readonly reason: string;
          }
        | { readonly type: 'pauseClock' | 'resumeClock' }
        /** What the board cannot see: a move made with two hands (E17+ 7.5.4), the clock pressed with the other hand (6.2.3). */
        | { readonly type: 'irregularity'; readonly by: Color; readonly kind: 'twoHands' | 'otherHand' };
    };

export type ClaimKind = 'threefold' | 'fiftyMoves' | 'flag' | 'illegalMove' | 'art4';

/**
 * How sure a finding is. A board cannot see hands: `proven` means the board shows it beyond any
 * handling (a completed illegal move with the press; a piece lifted and put back, then another
 * moved; the rook lifted before the king, then castling; a king missing at a press); `possible`
 * means it is inferred from timing alone (a piece resting on a legal square, then moved on).
 * Only proven findings are alerts by default (GameSettings.alertGrade).
 */
export type Grade = 'proven' | 'possible';

/** Alert codes: what the supervisor tells the arbiter. Each alert carries its article. */
export const ALERT_CODES = [
  'touch-move', // 4.3: a touched piece that can move was not moved (own) / not captured (opponent's)
  'touched-no-legal-move', // 4.5 / 4.3: touched piece has no legal move
  'castling-order', // 4.4: rook touched first when castling
  'release', // 4.6/4.7: a released piece moved again
  'illegal-move', // 7.5: an illegal move was completed (clock pressed)
  'illegal-position', // the board shows no legal position (pending until a press)
  'press-without-move', // 7.5.5 (E17+): clock pressed without a move
  'king-capture', // a king was captured
  'displaced-pieces', // 7.4: pieces displaced
  'board-mismatch', // board and game differ beyond one move
  'board-missing', // link to the board lost
  'clock-paused', // clock paused or stopped
  'flag', // a flag fell (claim-only regimes: awaiting claim)
  'arbiter-decision-needed', // the engine cannot decide (e.g. can-mate unknown)
] as const;
export type AlertCode = (typeof ALERT_CODES)[number];

/** A published move (also the elements of a correction). */
export interface MoveEventBody {
  readonly ply: number;
  readonly san: string;
  readonly uci: string;
  readonly fen: string;
  /** Remaining times after the move, when a clock is known (%clk). */
  readonly clocks?: { readonly whiteMs: number; readonly blackMs: number };
  /** Time the move took, in ms (%emt). */
  readonly elapsedMs?: number;
}

/** What the supervisor publishes, without the envelope fields. */
export type GameEventBody =
  | ({ readonly type: 'move' } & MoveEventBody)
  | {
      readonly type: 'correction';
      /** First ply replaced; `moves[0]` is the new ply `fromPly` (empty: the plies are removed). */
      readonly fromPly: number;
      readonly moves: readonly MoveEventBody[];
      readonly reason: 'revision' | 'takeback' | 'gesture' | 'illegal-move' | 'arbiter';
    }
  | {
      readonly type: 'clock';
      readonly whiteMs: number;
      readonly blackMs: number;
      readonly running: Color | undefined;
    }
  | {
      readonly type: 'alert';
      readonly code: AlertCode;
      readonly article: ArticleRef;
      readonly color?: Color;
      /** For Art. 4 and Art. 7 findings: how sure (absent: a fact the daemon knows, e.g. the link lost). */
      readonly grade?: Grade;
      /** The ply the finding is about (Art. 4: the move judged). */
      readonly ply?: number;
      /** Raised on a player's claim (a `possible` finding made an alert by the claim). */
      readonly claimed?: boolean;
      /** One readable sentence for the arbiter. */
      readonly detail: string;
      /** The detail as data: sentences with their parameters (texts.ts), rendered per language. */
      readonly text: readonly Sentence[];
      /** The board events and positions that support the alert. */
      readonly evidence?: {
        readonly events?: readonly BoardEvent[];
        readonly fenBefore?: string;
        readonly boardFen?: string;
        readonly squares?: readonly string[];
        readonly move?: string;
        /** Move orders (SAN lines from `fenBefore`) that all lead to the board: the arbiter decides which was played. */
        readonly orders?: readonly (readonly string[])[];
        /** The ply the orders start after (`fenBefore` is the position after it). */
        readonly ordersAfterPly?: number;
      };
    }
  | {
      /** An alert published earlier proved wrong or out of date: consumers drop (or strike out) alert `alert`. */
      readonly type: 'alert-withdrawn';
      /** seq of the alert withdrawn. */
      readonly alert: number;
      readonly code: AlertCode;
      /** 'resolved': the board shows a position of the game again; 'replaced': the ply it judged was taken back. */
      readonly reason: 'resolved' | 'replaced';
    }
  | {
      /**
       * What the supervisor found on a move that is not an alert: a `possible` breach (inferred from
       * timing; it becomes an alert on the opponent's claim, or at once where the venue opts in), or
       * information such as 4.5 (touched pieces that could not move: any move was allowed).
       */
      readonly type: 'finding';
      readonly ply: number;
      readonly code: AlertCode;
      readonly article: ArticleRef;
      readonly color: Color;
      readonly grade: Grade;
      /** A breach of the Laws (false: information, nothing follows from it). */
      readonly breach: boolean;
      readonly detail: string;
      readonly text: readonly Sentence[];
      readonly evidence?: {
        readonly events?: readonly BoardEvent[];
        readonly fenBefore?: string;
        readonly move?: string;
      };
    }
  | {
      readonly type: 'claim';
      readonly by: Color;
      readonly claim: ClaimKind;
      /** 'pending' until decided; 'valid' ends the game (an `end` follows); 'invalid' carries the penalty. */
      readonly status: 'available' | 'pending' | 'valid' | 'invalid';
      readonly article: ArticleRef;
      readonly detail?: string;
      /** The detail as data, when there is one. */
      readonly text?: readonly Sentence[];
    }
  | {
      readonly type: 'offer';
      readonly by: Color;
      readonly status: 'made' | 'accepted' | 'declined' | 'lapsed';
      readonly article?: ArticleRef;
    }
  | {
      readonly type: 'end';
      readonly result: '1-0' | '0-1' | '1/2-1/2' | '0-0' | '*';
      /** The outcome kind of src/engine/outcome.ts (checkmate, fivefold, flag, resignation, …). */
      readonly reason: string;
      readonly winner?: Color;
      readonly article: ArticleRef;
    };

/** A game event as published: the body plus the envelope. `seq` is strictly increasing per game. */
export type GameEvent = GameEventBody & {
  readonly game: string;
  readonly seq: number;
  /** When it happened, in the board's monotonic milliseconds. */
  readonly at: number;
};

/** The settings a supervised game starts with. */
export interface GameSettings {
  readonly game: string;
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
  /** Start position (FEN); the standard position when absent. */
  readonly startFen?: string;
  /** A Chess960 game (castling by the Chess960 rules); from `startFen`, else position 518. */
  readonly chess960?: boolean;
  /** PGN TimeControl form ('5400+30', '40/5400+30:1800+30'); no clock model when absent. */
  readonly timeControl?: string;
  /**
   * Whether the board has a clock connected (default: yes when there is a time control). False
   * for a board that reports squares only: its game follows the rules of a game without a clock
   * until a press or a reading shows one, and the clock model's times are neither published nor
   * decide a flag.
   */
  readonly clock?: boolean;
  /** Art. 4 alerts only advise the arbiter ('advise', default) or apply their consequences ('enforce'). */
  readonly art4Mode?: 'advise' | 'enforce';
  /** The board sees occupancy only (role unknown). */
  readonly occupancyOnly?: boolean;
  /**
   * Which findings are alerts: 'proven' (default) only what the board shows beyond any handling;
   * 'possible' also what is inferred from timing (a venue that wants every suspicion at once).
   */
  readonly alertGrade?: Grade;
  /**
   * How long the board must stay quiet before the daemon acts without a press (ms, default
   * DEFAULT_QUIET_MS): a board that is no position (or a half-made move that cannot be completed)
   * becomes an alert, and a move that ends the game (mate, stalemate, dead position, fivefold, 75
   * moves) ends it. A press with the board so is judged at once.
   */
  readonly quietMs?: number;
}

/** Default of GameSettings.quietMs: twice as long as people rest a piece on its way (0.3–2 s). */
export const DEFAULT_QUIET_MS = 4000;
