/**
 * The game registry: the games this daemon plays, each with its lane input (an Inbox the pipeline
 * reads), the board it is bound to, and the latest state of its reducer and view. It starts games
 * (a pairing whose board is set up, a request), resumes them after a restart, routes board
 * observations and operator commands into them, and finishes them: once the supervisor publishes
 * an `end`, a finish record closes the journal and the lane, the board is free for its next
 * pairing.
 *
 *   const games = new GameRegistry(ctx);
 *   pipeline: games.lanes$.pipe(mergeMap(lane => gameLane$(lane, deps)))
 *   games.route('b-01', observation);                       // journaled into its bound game
 *   await games.command('r1-b1', 'restore_position', { game_id: 'r1-b1', ply: 12 }, 'mqtt');
 */
import { Result } from '@badrap/result';
import { concat, defer, from, type Observable, Subject } from 'rxjs';
import type { Observation, ObservationType } from '../../drivers/observation.js';
import { dataError } from '../../engine/types.js';
import { type Config, type PairingConfig, startOf } from '../config/index.js';
import type { GameSettings, JournalEntry, JournalHeader, JournalRecord } from '../journal/index.js';
import type { Logger } from '../logger.js';
import type { JsonValue } from '../mqtt/topics.js';
import type { StepOutcome, LaneItem } from '../stages/types.js';
import type { BoardRegistry } from './boards.js';
import type { SupervisorPort } from '../game/engine.js';
import { type GameRun, startGameRun } from '../game/gameRun.js';
import {
  engineSettingsOf,
  gameInfoOf,
  nextPairing,
  journalSettingsOf,
  pairingGameId,
} from '../game/gameSpecs.js';
import { type GameView, startView } from '../game/gameView.js';
import { chess960StartShown } from './chess960Start.js';
import { Inbox } from './inbox.js';
import type { Refusal } from '../wire/refusals.js';
import { gameFinishedLine, gameStartedLine } from '../i18n/logLines.js';

/** What the registry needs of the journal (JournalStore implements it). */
export interface JournalPort {
  createGame(input: {
    game: string;
    board: string;
    settings: GameSettings;
  }): Promise<Result<JournalHeader, Error>>;
  append(game: string, entry: JournalEntry): Promise<Result<JournalRecord, Error>>;
}

export interface GameRegistryContext {
  readonly config: Config;
  readonly journal: JournalPort;
  readonly boards: BoardRegistry;
  readonly engine: SupervisorPort;
  /** The daemon's clock (ms since the epoch, monotonic). */
  readonly now: () => number;
  readonly log: Logger;
  /**
   * A game was bound to a board or a board freed: its state (which names the game) is published
   * at once, as a quiet board sends no observation that would publish it.
   */
  readonly onBoardBound?: (board: string) => void;
}

export interface GameSlot {
  readonly id: string;
  readonly header: JournalHeader;
  board: string | undefined;
  run: GameRun;
  view: GameView;
  readonly inbox: Inbox<LaneItem>;
  phase: 'open' | 'finishing' | 'closed';
}

/**
 * What a resumed game journals first: the link to its board lost at the game's last record (the
 * daemon stopped watching then), marked as a restart (no board-missing alert). Undefined for a game
 * that is over or has no record yet.
 */
export const restartEntry = (run: GameRun, board: string | undefined): JournalEntry | undefined =>
  run.ended || run.lastAt === undefined
    ? undefined
    : {
        type: 'observation',
        board: board ?? '',
        observation: {
          type: 'link',
          at: run.lastAt,
          state: 'lost',
          detail: 'the daemon restarted',
          restart: true,
        },
      };

/** One game's lane, for the pipeline to run. */
export interface GameLane {
  readonly slot: GameSlot;
  readonly initialRun: GameRun;
  readonly initialView: GameView;
}

/** Observations worth journaling (the rest carries nothing for a game or its dispute). */
const JOURNALED: ReadonlySet<ObservationType> = new Set<ObservationType>([
  'snapshot',
  'square',
  'clock',
  'link',
  'identity',
  'protocol-error',
  // The board's move log read at a connection: what was played while the daemon was not listening.
  'eeprom-log',
]);

/** A round as the operator set it (round_control). */
export type RoundState = 'started' | 'paused' | 'finished';

export type GameError = Error & {
  readonly kind: 'unknown-game' | 'not-open' | 'board' | 'exists' | 'journal';
  /** The refusal as data (wire/refusals.ts), for the pages to render in their language. */
  readonly refusal?: Refusal;
};
const gameError = (kind: GameError['kind'], message: string, refusal?: Refusal): GameError =>
  dataError({ kind, ...(refusal === undefined ? {} : { refusal }) }, message);
const noBoard = (board: string): GameError =>
  gameError('board', `no board ${board} on this daemon`, { code: 'no_board', params: { board } });
const boardPlays = (board: string, game: string, hint = ''): GameError =>
  gameError('board', `board ${board} plays ${game}${hint}`, {
    code: 'board_has_game',
    params: { board, game },
  });

export class GameRegistry {
  private readonly slots = new Map<string, GameSlot>();
  private readonly finished = new Set<string>();
  private readonly creating = new Set<string>();
  private readonly newLanes = new Subject<GameLane>();
  private readonly changes = new Subject<void>();
  private early: GameLane[] | undefined = [];
  /** Shutting down: no game starts any more. */
  private closing = false;

  /** The pairings boards take their next game from (the config's, then as a pairings file is re-read). */
  private pairings: readonly PairingConfig[];
  /** Rounds the operator started, paused or finished (none: every round is played as paired). */
  private readonly roundStates = new Map<number, RoundState>();
  /** Table numbers the operator gave boards (null: the board gave its number up). */
  private readonly numbers = new Map<string, number | null>();

  constructor(private readonly ctx: GameRegistryContext) {
    this.pairings = ctx.config.pairings;
  }

  /**
   * New pairings (a pairings file re-read): games already started keep theirs; every board without
   * a game looks again for its next one.
   */
  setPairings(pairings: readonly PairingConfig[]): void {
    this.pairings = pairings;
    for (const b of this.ctx.boards.all()) this.considerBoard(b.config.id);
  }

  /** Every lane to run: those made before the pipeline subscribed, then each new one. */
  readonly lanes$: Observable<GameLane> = defer(() => {
    const early = this.early ?? [];
    this.early = undefined;
    return concat(from(early), this.newLanes);
  });

  /** Emits when games start, finish or change boards (bridge/info). */
  readonly changes$: Observable<void> = this.changes.asObservable();

  get(id: string): GameSlot | undefined {
    return this.slots.get(id);
  }

  open(): GameSlot[] {
    return [...this.slots.values()].filter(s => s.phase === 'open');
  }

  /** Game ids known to be finished (from the journal, and since the start). */
  markFinished(ids: Iterable<string>): void {
    for (const id of ids) this.finished.add(id);
  }

  isFinished(id: string): boolean {
    return this.finished.has(id);
  }

  private emitLane(slot: GameSlot): void {
    const lane: GameLane = { slot, initialRun: slot.run, initialView: slot.view };
    if (this.early !== undefined) this.early.push(lane);
    else this.newLanes.next(lane);
    this.changes.next();
  }

  /**
   * A game rebuilt from its journal (restart); bound to its board when that board is here and free.
   * `notes` are journaled after the restart's own record (a note of damage found, journalDamage.ts).
   */
  resume(header: JournalHeader, run: GameRun, view: GameView, notes: readonly JournalEntry[] = []): GameSlot {
    const board = header.board === '' ? undefined : header.board;
    const here = board !== undefined && this.ctx.boards.get(board)?.status.game === undefined;
    const slot: GameSlot = {
      id: header.game,
      header,
      board: here ? board : undefined,
      run,
      view: here ? view : { ...view, info: { ...view.info, board: undefined } },
      inbox: new Inbox(),
      phase: 'open',
    };
    this.slots.set(slot.id, slot);
    if (here) this.bindBoard(board, slot.id);
    this.emitLane(slot);
    // The daemon stopped watching the board at its last record: what was played since is read from
    // the board when it is back (its log, its snapshot), as after a pulled cable. Journaled, so a
    // later replay sees the same gap.
    const gap = restartEntry(run, board);
    if (gap !== undefined) this.push(slot, gap);
    for (const note of notes) this.push(slot, note);
    return slot;
  }

  /** Starts a new game: its journal is created (header synced) before anything else. */
  async create(
    id: string,
    board: string | undefined,
    settings: GameSettings,
  ): Promise<Result<GameSlot, GameError>> {
    if (this.closing)
      return Result.err(gameError('not-open', 'the daemon is stopping', { code: 'stopping', params: {} }));
    if (this.slots.has(id) || this.creating.has(id) || this.finished.has(id))
      return Result.err(
        gameError('exists', `game ${id} already exists`, { code: 'game_exists', params: { game: id } }),
      );
    if (board !== undefined) {
      const b = this.ctx.boards.get(board);
      if (b === undefined) return Result.err(noBoard(board));
      if (b.status.game !== undefined) return Result.err(boardPlays(board, b.status.game));
    }
    this.creating.add(id);
    try {
      const header = await this.ctx.journal.createGame({ game: id, board: board ?? '', settings });
      if (header.isErr)
        return Result.err(
          gameError('journal', header.error.message, { code: 'journal_failed', params: { game: id } }),
        );
      const { run } = startGameRun(this.ctx.engine, engineSettingsOf(id, settings), { clock: false });
      const view = startView(gameInfoOf(header.value, board, this.ctx.config), this.ctx.now());
      const slot: GameSlot = {
        id,
        header: header.value,
        board: undefined,
        run,
        view,
        inbox: new Inbox(),
        phase: 'open',
      };
      this.slots.set(id, slot);
      this.emitLane(slot);
      this.ctx.log.info(gameStartedLine(this.ctx.config.http.language, id, board));
      if (board !== undefined) this.attach(slot, board);
      return Result.ok(slot);
    } finally {
      this.creating.delete(id);
    }
  }

  /** Binds a game to a board: the board's setup and its current position are journaled first. */
  attach(slot: GameSlot, board: string): Result<GameSlot, GameError> {
    const b = this.ctx.boards.get(board);
    if (b === undefined) return Result.err(noBoard(board));
    if (b.status.game !== undefined && b.status.game !== slot.id)
      return Result.err(boardPlays(board, b.status.game));
    slot.board = board;
    slot.view = { ...slot.view, info: { ...slot.view.info, board } };
    this.bindBoard(board, slot.id);
    this.push(slot, {
      type: 'command',
      at: this.ctx.now(),
      action: 'board_setup',
      params: { board, clock: b.config.clock, driver: b.config.driver },
      source: 'daemon',
    });
    const squares = b.status.squares;
    if (squares !== undefined)
      this.push(slot, {
        type: 'observation',
        board,
        observation: { type: 'snapshot', at: this.ctx.now(), squares },
      });
    this.changes.next();
    return Result.ok(slot);
  }

  private push(slot: GameSlot, entry: JournalEntry, done?: (r: StepOutcome) => void): boolean {
    if (slot.phase !== 'open') return false;
    return slot.inbox.push({ kind: 'entry', entry, ...(done === undefined ? {} : { done }) });
  }

  /** An observation of a board: journaled into the game bound to it. */
  route(board: string, o: Observation): void {
    const game = this.ctx.boards.get(board)?.status.game;
    if (game === undefined || !JOURNALED.has(o.type)) return;
    const slot = this.slots.get(game);
    if (slot !== undefined) this.push(slot, { type: 'observation', board, observation: o });
  }

  private bindBoard(board: string, game: string | undefined): void {
    this.ctx.boards.bind(board, game);
    this.ctx.onBoardBound?.(board);
  }

  /** The pairings in use (the config's and the pairings file's or upload's). */
  currentPairings(): readonly PairingConfig[] {
    return this.pairings;
  }

  /**
   * Whether games of a round may begin: every round until the operator sets one (round_control),
   * then the started ones only (a round never started waits).
   */
  private roundOpen(round: number): boolean {
    const state = this.roundStates.get(round);
    return state === undefined ? this.roundStates.size === 0 : state === 'started';
  }

  /** The operator starts, pauses or finishes a round; boards without a game look again. */
  setRound(round: number, state: RoundState): void {
    this.roundStates.set(round, state);
    for (const b of this.ctx.boards.all()) this.considerBoard(b.config.id);
  }

  /** The rounds the operator has set, with their state. */
  rounds(): ReadonlyMap<number, RoundState> {
    return this.roundStates;
  }

  /** The table number a board plays: the operator's, else its configured one. */
  numberOf(board: string): number | undefined {
    const given = this.numbers.get(board);
    if (given !== undefined) return given ?? undefined;
    return this.ctx.boards.get(board)?.config.number;
  }

  /**
   * The board plays the pairings of table `number` from now on; a board that had the number gives
   * it up. Refused while the board has a game (stop it first).
   */
  rebind(board: string, number: number): Result<{ previous: string | undefined }, GameError> {
    const b = this.ctx.boards.get(board);
    if (b === undefined) return Result.err(noBoard(board));
    if (b.status.game !== undefined)
      return Result.err(boardPlays(board, b.status.game, ': stop that game first (stop_game)'));
    return Result.ok({ previous: this.giveNumber(board, number) });
  }

  /** Gives a board a table number (the board that had it gives it up, and is returned); no check. */
  giveNumber(board: string, number: number): string | undefined {
    const previous = this.ctx.boards.ids().find(id => id !== board && this.numberOf(id) === number);
    if (previous !== undefined) this.numbers.set(previous, null);
    this.numbers.set(board, number);
    this.considerBoard(board);
    return previous;
  }

  /** A board without a game whose serial has a pairing: start it once the pieces are set up. */
  considerBoard(board: string): void {
    if (this.closing) return;
    const b = this.ctx.boards.get(board);
    if (b === undefined || b.status.game !== undefined) return;
    const pairing = nextPairing(
      this.pairings.filter(p => this.roundOpen(p.round)),
      { serial: b.status.serial, number: this.numberOf(board) },
      this.finished,
    );
    if (pairing === undefined) return;
    const id = pairingGameId(pairing);
    const existing = this.slots.get(id);
    if (existing !== undefined) {
      if (existing.board === undefined && existing.phase === 'open') this.attach(existing, board);
      return;
    }
    if (this.creating.has(id)) return;
    const start = startOf(this.ctx.config, pairing, b.config);
    // A Chess960 game begins once the board shows its start (any Chess960 start when none is given).
    const fen = start.variant === 'chess960' ? chess960StartShown(b.status.squares, start.fen) : undefined;
    if (start.variant === 'chess960' ? fen === undefined : !this.ctx.boards.showsStartPosition(board)) return;
    const over = fen === undefined ? {} : { startFen: fen, chess960: true };
    void this.create(id, board, journalSettingsOf(this.ctx.config.laws, pairing, over)).then(r => {
      if (r.isErr) this.ctx.log.error(`cannot start ${id} on ${board}: ${r.error.message}`);
    });
  }

  /** Journals an operator command into a game and waits until it is decided and published. */
  command(
    id: string,
    action: string,
    params: JsonValue,
    source: string,
  ): Promise<Result<Extract<StepOutcome, { ok: true }>, GameError>> {
    const slot = this.slots.get(id);
    if (slot === undefined)
      return Promise.resolve(
        Result.err(gameError('unknown-game', `no game ${id}`, { code: 'no_game', params: { game: id } })),
      );
    return new Promise(resolve => {
      const pushed = this.push(
        slot,
        { type: 'command', at: this.ctx.now(), action, params, source },
        outcome =>
          resolve(
            outcome.ok
              ? Result.ok(outcome)
              : Result.err(
                  gameError('journal', outcome.error.message, {
                    code: 'journal_failed',
                    params: { game: id },
                  }),
                ),
          ),
      );
      if (!pushed)
        resolve(
          Result.err(
            gameError('not-open', `game ${id} is over`, { code: 'game_not_in_play', params: { game: id } }),
          ),
        );
    });
  }

  /** The lane's latest step: state kept; a game that ended gets its finish record and closes. */
  stepped(slot: GameSlot, run: GameRun, view: GameView): void {
    slot.run = run;
    slot.view = view;
    if (run.ended && slot.phase === 'open') this.finish(slot, view.result, view.reason ?? 'unknown');
  }

  /** Ends a game: the finish record is the last thing journaled; the board is freed. */
  finish(slot: GameSlot, result: string, reason: string): void {
    if (slot.phase !== 'open') return;
    this.push(slot, { type: 'finish', at: slot.run.lastAt ?? this.ctx.now(), result, reason });
    slot.phase = 'finishing';
    slot.inbox.close();
    this.finished.add(slot.id);
    const board = slot.board;
    if (board !== undefined) this.bindBoard(board, undefined);
    this.ctx.log.info(gameFinishedLine(this.ctx.config.http.language, slot.id, result, reason));
    this.changes.next();
  }

  /** The lane has completed: the game is closed. Its board may start its next pairing. */
  closed(slot: GameSlot): void {
    slot.phase = 'closed';
    this.slots.delete(slot.id);
    if (slot.board !== undefined) this.considerBoard(slot.board);
    this.changes.next();
  }

  /** Shutdown: every lane completes once its queued entries are journaled. */
  closeAll(): void {
    this.closing = true;
    for (const slot of this.slots.values()) slot.inbox.close();
    this.newLanes.complete();
    this.changes.complete();
  }
}
