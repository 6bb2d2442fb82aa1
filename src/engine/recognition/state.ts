/**
 * Recognition state: one immutable value per board, advanced by `step` (step.ts). It holds the
 * published game, how far it is final, what the sensors show, what is in hand, and the evidence
 * (board events with times) since the last final ply, which later Art. 4 checks read.
 *
 *   let st = startRecognition(Game.standard(), { settleMs: 250 });
 *   st.game.length;     // 0
 *   st.status.kind;     // 'synced'
 */
import type { Chess, Color, Role, Square } from 'chessops';
import { SquareSet } from 'chessops';
import type { Game } from '../game.js';
import type { BoardEvent } from './boardEvent.js';
import type { Gesture } from './gesture.js';
import type { Lifted } from './hand.js';
import type { MismatchReason, MoveOrders } from './outputs.js';
import type { Pending } from './pending.js';
import { type SensedBoard, sensedOfBoard } from './sensedBoard.js';

export interface RecognitionOptions {
  /** Quiet time after the last board change before a made move is published (ms). */
  readonly settleMs: number;
  /** Most plies recognised from one quiet board (blitz replies, missed updates): the tracker's reach. */
  readonly maxPlies: number;
  /**
   * Most plies searched for a board re-read after a gap (a snapshot: link back, a restart), when
   * nothing nearer explains it: the moves made while nobody was watching, each checked against the
   * squares that changed (`catchUpNodes` positions at most).
   */
  readonly catchUpPlies: number;
  /**
   * Most plies followed in play without a clock when nothing within `maxPlies` explains the board
   * (moves made faster than the settle window, with no quiet moment between them), and at a press
   * that comes after presses were missed (a player who forgot to press): only a story whose every
   * position the board showed, in order.
   */
  readonly chasePlies: number;
  readonly catchUpNodes: number;
  /** Extra quiet time before publishing a king move onto the centre that may start a result gesture (ms). */
  readonly gestureHoldMs: number;
  /**
   * How long the board must stay quiet before recognition acts on what a piece passing through
   * could also show (ms): a result gesture (a king set down next to the other on its way), a
   * takeback (a stop that recreates an earlier position of a repetition), a reading that needs more
   * plies than the clock presses allow. A press acts at once on a gesture; a takeback is never read
   * at a press. Longer than people rest a piece (0.3–2 s).
   */
  readonly confirmMs: number;
  /**
   * Plies a game must have gone before a board showing its start position again is the pieces set
   * up after the game (reset.ts), not a takeback of the whole game.
   */
  readonly resetPlies: number;
  /** Role assumed for a promotion the board cannot identify (occupancy-only boards). */
  readonly promotion: Role;
  /**
   * Shortest time an opponent takes to react to a made move (ms): a position changed sooner was a
   * transient (a touch-down, a ghost). Only used to choose between explanations the board shows
   * equally well.
   */
  readonly minReplyMs: number;
  /** Most evidence events kept for the moves not yet final (oldest dropped beyond it). */
  readonly evidenceCap: number;
  /** The board reports occupancy only: the initial sensed board has no identities. */
  readonly occupancyOnly: boolean;
}

export const DEFAULT_RECOGNITION: RecognitionOptions = {
  settleMs: 300,
  maxPlies: 3,
  catchUpPlies: 8,
  chasePlies: 6,
  catchUpNodes: 30_000,
  gestureHoldMs: 2500,
  confirmMs: 4000,
  resetPlies: 3,
  promotion: 'queen',
  minReplyMs: 120,
  evidenceCap: 512,
  occupancyOnly: false,
};

/** What makes the board be judged. */
export type Trigger =
  /** The settle window closed. `release`: a move held back as a possible gesture start is published now. */
  { readonly kind: 'settle'; readonly release?: boolean } | { readonly kind: 'press'; readonly side: Color };

/** How the board relates to the game right now. */
export type BoardStatus =
  | { readonly kind: 'synced' }
  /** Changed since the last quiet moment: not judged yet (or `held`: a king move onto the centre waits, see gesture.ts). */
  | { readonly kind: 'unsettled'; readonly held?: boolean }
  /** The position with pieces in hand (lifted, being moved, knocked over). */
  | { readonly kind: 'inProgress'; readonly missing: SquareSet }
  | { readonly kind: 'pending'; readonly pending: Pending }
  | { readonly kind: 'mismatch'; readonly squares: SquareSet; readonly reason: MismatchReason }
  | { readonly kind: 'ended'; readonly gesture: Gesture };

export interface RecognitionState {
  readonly options: RecognitionOptions;
  /** The published game: plies up to `anchor` are final, the rest revisable. */
  readonly game: Game;
  readonly anchor: number;
  readonly sensed: SensedBoard;
  /** Lifted pieces not yet put down, in lift order (since the board last matched a position). */
  readonly hand: readonly Lifted[];
  /** Squares with a sensor event since the anchor position was made. */
  readonly touched: SquareSet;
  /** Board events since the anchor position was made (no ticks, no repeated reports). */
  readonly evidence: readonly BoardEvent[];
  /** made[i]: index in `evidence` of the event that made ply anchor+1+i (-1 when unknown). */
  readonly made: readonly number[];
  /** Index in `evidence` of the last board change (-1: none since the anchor was made). */
  readonly lastChange: number;
  readonly lastChangeAt: number;
  /** Latest time seen. */
  readonly now: number;
  /** The board changed since it was last judged. */
  readonly dirty: boolean;
  readonly status: BoardStatus;
  /** Key of the last pending or mismatch report, so each is reported once. */
  readonly report: string | undefined;
  /** A mismatch was reported and not yet resolved. */
  readonly mismatchOpen: boolean;
  /**
   * An undecided catch-up: the board showed a position several move orders reach (none preferred).
   * Kept until the board matches a position of the game or a move is published; meanwhile an
   * explanation the evidence does not support is not taken (it would guess the order).
   */
  readonly undecided: MoveOrders | undefined;
  /** Set once a result gesture ended the game: recognition stops. */
  readonly result: Gesture | undefined;
  /**
   * The arbiter restored a position the board does not show yet: nothing on the board is read as a
   * move (it still shows the plies taken back) until it shows the restored position.
   */
  readonly awaitSetup: boolean;
  /**
   * The board was re-read (a snapshot changed it: link back, a restart) and has not been explained
   * since: the tracker looks as far as `catchUpPlies` for the moves made meanwhile.
   */
  readonly catchUp: boolean;
  /**
   * The pieces were set up in the start position again after the game (reset.ts): nothing on the
   * board is read into the game any more, until the arbiter restores a position or records moves.
   */
  readonly reset: boolean;
  /**
   * The board has shown the game's line since this recogniser started (assumed at the start; not
   * after the arbiter moved the record onto a line the board does not show, until it does): only
   * then is its start position again the pieces set up after the game (reset.ts).
   */
  readonly shown: boolean;
  /** A clock press has been seen: the presses then bound how many plies a reading may add. */
  readonly pressSeen: boolean;
  /** The last ply whose mover pressed his clock after it (the plies after it are at most two). */
  readonly pressedPly: number;
  /**
   * A press found the board beyond the presses' bound and no story of a missed press explained
   * it: the deep search is not repeated at later presses until the board shows the game again.
   */
  readonly missedTried: boolean;
  /**
   * A press found the board beyond the search's reach after missed presses (`'beyondReach'`): until
   * the board shows the game again, what it shows is the arbiter's, never an illegal move.
   */
  readonly beyondReach: boolean;
}

/** Recognition for `game` (its moves are final), the board assumed to show its current position. */
export const startRecognition = (game: Game, options: Partial<RecognitionOptions> = {}): RecognitionState => {
  const opts: RecognitionOptions = { ...DEFAULT_RECOGNITION, ...options };
  const pos = game.positionView(game.length);
  if (!pos) throw new RangeError('startRecognition: game without a current position');
  return {
    options: opts,
    game,
    anchor: game.length,
    sensed: sensedOfBoard(pos.board, opts.occupancyOnly),
    hand: [],
    touched: SquareSet.empty(),
    evidence: [],
    made: [],
    lastChange: -1,
    lastChangeAt: 0,
    now: 0,
    dirty: false,
    status: { kind: 'synced' },
    report: undefined,
    mismatchOpen: false,
    undecided: undefined,
    result: undefined,
    awaitSetup: false,
    catchUp: false,
    reset: false,
    shown: true,
    pressSeen: false,
    pressedPly: game.length,
    missedTried: false,
    beyondReach: false,
  };
};

/** Index in `evidence` of the event that made `ply` (-1 for the anchor itself or when unknown). */
export const madeIndexOf = (st: RecognitionState, ply: number): number =>
  ply <= st.anchor ? -1 : (st.made[ply - st.anchor - 1] ?? -1);

/** Squares as a sorted array, for outputs. */
export const squareList = (set: SquareSet): Square[] => [...set];

/** The game's position after `ply` plies (a view, not to be changed). */
export const positionAt = (st: RecognitionState, ply: number): Chess => {
  const pos = st.game.positionView(ply);
  if (!pos) throw new RangeError(`recognition: no position at ply ${ply}`);
  return pos;
};
