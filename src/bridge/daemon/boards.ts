/**
 * The board registry: every board of the configuration with what the daemon knows of it now —
 * the link, the serial number it reported, the pieces as its sensors show them (a mirror built
 * from snapshots and square updates), and the game bound to it. Board-level state only: the
 * game's own record lives in its journal.
 *
 *   const boards = new BoardRegistry(config.boards, clock);
 *   boards.observe('b-01', observation);        // what changed: { link, serial, squares }
 *   boards.stateOf('b-01');                     // the retained boards/<board>/state payload
 *   boards.showsStartPosition('b-01');          // pieces set up for a new game
 *   boards.watch({ watch: config.watch, gameUnderWay, gamePlacement });
 *   boards.refresh('b-01');                     // condition and problems judged again (true: changed)
 */
import { Board } from 'chessops';
import { makeBoardFen } from 'chessops/fen';
import type { ClockCommand } from '../../drivers/dgt/clockCommands.js';
import {
  type LinkState,
  type Observation,
  type SquareContent,
  START_SQUARES,
} from '../../drivers/observation.js';
import type { BoardConfig, WatchConfig } from '../config/index.js';
import type { BoardState } from '../mqtt/topics.js';
import { type BoardJudgement, judgeBoard, sameJudgement } from './boardWatch.js';

export interface BoardStatus {
  readonly link: LinkState;
  /** Serial number reported by the board (else the configured one). */
  readonly serial: string | undefined;
  /** The 64 squares as the sensors show them; undefined until the first snapshot. */
  readonly squares: readonly SquareContent[] | undefined;
  readonly game: string | undefined;
  /** Wall-clock ms of the last change. */
  readonly at: number;
  /** When the link last changed (ms). */
  readonly linkSince: number;
  /** The link was lost and has not been connected since. */
  readonly down: boolean;
  /** When the board last said anything (ms; undefined: never). */
  readonly seenAt: number | undefined;
  /** What the board said it is. */
  readonly identity: { readonly vendor?: string; readonly model?: string; readonly firmware?: string };
  /** The board's battery, when it reports one. */
  readonly battery:
    { readonly percent: number | undefined; readonly charging: boolean | undefined } | undefined;
  /** The clock as the board last reported it; undefined before any reading. */
  readonly clock:
    | {
        readonly present: boolean;
        readonly running: 'left' | 'right' | undefined;
        readonly stoppedSince: number | undefined;
        readonly batteryLow: boolean;
      }
    | undefined;
  /** Counters for /healthz and bridge/health. */
  readonly observations: number;
  readonly protocolErrors: number;
  readonly linkLosses: number;
}

/** What an observation changed. */
export interface BoardChange {
  readonly link: boolean;
  readonly serial: boolean;
  readonly squares: boolean;
  /** What the board is, its battery, its clock's presence or running side. */
  readonly other: boolean;
}

/** A board slot: its configuration, status, and the requests the daemon sends it. */
export interface BoardSlot {
  readonly config: BoardConfig;
  status: BoardStatus;
}

const same = (a: SquareContent | undefined, b: SquareContent | undefined): boolean =>
  JSON.stringify(a) === JSON.stringify(b);

/** Placements already made, by squares array (a board's squares change by a new array). */
const placements = new WeakMap<readonly SquareContent[], string>();

/** The board part of a FEN for 64 square contents (occupied/result pieces shown as pawns of no colour are skipped). */
export const placementOf = (squares: readonly SquareContent[]): string => {
  const known = placements.get(squares);
  if (known !== undefined) return known;
  const fen = makePlacement(squares);
  placements.set(squares, fen);
  return fen;
};

const makePlacement = (squares: readonly SquareContent[]): string => {
  const board = Board.empty();
  squares.forEach((c, sq) => {
    if (c.kind === 'piece') board.set(sq, { color: c.color, role: c.role });
  });
  return makeBoardFen(board);
};

/** The next status after one observation (pure), and what changed. */
export const foldBoardStatus = (
  s: BoardStatus,
  o: Observation,
  now: number,
): { status: BoardStatus; change: BoardChange } => {
  let { link, serial, squares, linkLosses, protocolErrors, identity, battery, clock } = s;
  let other = false;
  switch (o.type) {
    case 'link':
      if (o.state === 'lost' && link !== 'lost') linkLosses += 1;
      link = o.state;
      break;
    case 'identity':
      serial = o.serial ?? serial;
      identity = {
        ...identity,
        vendor: o.vendor,
        ...(o.model === undefined ? {} : { model: o.model }),
        ...(o.firmware === undefined ? {} : { firmware: o.firmware }),
      };
      other = JSON.stringify(identity) !== JSON.stringify(s.identity);
      break;
    case 'battery':
      battery = { percent: o.percent, charging: o.charging };
      other = battery.percent !== s.battery?.percent || battery.charging !== s.battery?.charging;
      break;
    case 'clock': {
      const running = o.connected ? o.running : undefined;
      clock = {
        present: o.connected,
        running,
        stoppedSince: running !== undefined ? undefined : (s.clock?.stoppedSince ?? now),
        batteryLow: o.batteryLow,
      };
      other =
        clock.present !== s.clock?.present ||
        clock.running !== s.clock.running ||
        clock.batteryLow !== s.clock.batteryLow;
      break;
    }
    case 'snapshot':
      squares = o.squares;
      break;
    case 'square':
      if (squares !== undefined && !same(squares[o.square], o.content)) {
        const next = squares.slice();
        next[o.square] = o.content;
        squares = next;
      }
      break;
    case 'protocol-error':
      protocolErrors += 1;
      break;
    case 'clock-ack':
    case 'eeprom-log':
    case 'bus-reply':
      break;
  }
  const change: BoardChange = {
    link: link !== s.link,
    serial: serial !== s.serial,
    squares: squares !== s.squares,
    other,
  };
  const changed = change.link || change.serial || change.squares || other;
  return {
    status: {
      ...s,
      link,
      serial,
      squares,
      linkLosses,
      protocolErrors,
      identity,
      battery,
      clock,
      linkSince: change.link ? now : s.linkSince,
      down: link === 'lost' ? true : link === 'connected' ? false : s.down,
      seenAt: o.type === 'link' ? s.seenAt : now,
      observations: s.observations + 1,
      at: changed ? now : s.at,
    },
    change,
  };
};

/** What the registry asks the games when it judges a board (boardWatch.ts). */
export interface BoardWatching {
  readonly watch: WatchConfig;
  /** The game has begun (a move made) and has no result. */
  readonly gameUnderWay: (game: string) => boolean;
  /** The board part of the game's current position, if the game is known. */
  readonly gamePlacement: (game: string) => string | undefined;
}

const clockWire = (c: NonNullable<BoardStatus['clock']>): NonNullable<BoardState['clock']> => ({
  present: c.present,
  running: c.running ?? null,
  stopped_since: c.stoppedSince === undefined ? null : Math.round(c.stoppedSince),
  battery_low: c.batteryLow,
});

export class BoardRegistry {
  private readonly slots = new Map<string, BoardSlot>();
  private readonly controls = new Map<string, { resync: () => void; clock: (c: ClockCommand) => void }>();
  /** Per board, a count of the changes to what `stateOf` shows (link, serial, squares, game). */
  private readonly versions = new Map<string, number>();
  private readonly judgements = new Map<string, BoardJudgement>();
  private readonly mismatched = new Set<string>();
  private watching: BoardWatching | undefined;

  constructor(
    configs: readonly BoardConfig[],
    private readonly now: () => number,
  ) {
    for (const config of configs) {
      this.slots.set(config.id, {
        config,
        status: {
          link: 'resynchronising',
          serial: config.serial,
          squares: undefined,
          game: undefined,
          at: now(),
          linkSince: now(),
          down: false,
          seenAt: undefined,
          identity: {},
          battery: undefined,
          clock: undefined,
          observations: 0,
          protocolErrors: 0,
          linkLosses: 0,
        },
      });
    }
  }

  ids(): string[] {
    return [...this.slots.keys()];
  }

  get(id: string): BoardSlot | undefined {
    return this.slots.get(id);
  }

  all(): BoardSlot[] {
    return [...this.slots.values()];
  }

  /** Records an observation of a board; says what changed. */
  observe(id: string, o: Observation): BoardChange {
    const slot = this.slots.get(id);
    if (slot === undefined) return { link: false, serial: false, squares: false, other: false };
    const r = foldBoardStatus(slot.status, o, this.now());
    slot.status = r.status;
    if (r.change.link || r.change.serial || r.change.squares || r.change.other) this.bumpVersion(id);
    if (r.change.link || r.change.squares || r.change.other) this.refresh(id);
    return r.change;
  }

  bind(id: string, game: string | undefined): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    slot.status = { ...slot.status, game, at: this.now() };
    this.bumpVersion(id);
    this.refresh(id);
  }

  /** How the registry judges its boards (the daemon sets it; without it every board is judged idle or missing). */
  watch(watching: BoardWatching): void {
    this.watching = watching;
    for (const id of this.slots.keys()) this.refresh(id);
  }

  /** The board's game raised `board_mismatch`: a problem until the board shows the game's position. */
  markMismatch(id: string): void {
    if (!this.slots.has(id) || this.mismatched.has(id)) return;
    this.mismatched.add(id);
    this.refresh(id);
  }

  /** The board's condition and problems as last judged. */
  judgementOf(id: string): BoardJudgement {
    return this.judgements.get(id) ?? { condition: 'idle', problems: [] };
  }

  /** Judges a board again (time has passed, or what it shows changed); true when the judgement changed. */
  refresh(id: string): boolean {
    const slot = this.slots.get(id);
    if (slot === undefined) return false;
    const { status } = slot;
    const w = this.watching;
    const game = status.game;
    if (this.mismatched.has(id)) {
      const expected = game === undefined ? undefined : w?.gamePlacement(game);
      const shown = status.squares === undefined ? undefined : placementOf(status.squares);
      if (game === undefined || (expected !== undefined && expected === shown)) this.mismatched.delete(id);
    }
    const next = judgeBoard(
      {
        link: status.link,
        linkSince: status.linkSince,
        down: status.down,
        game,
        clock:
          status.clock === undefined
            ? undefined
            : {
                present: status.clock.present,
                running: status.clock.running !== undefined,
                stoppedSince: status.clock.stoppedSince,
              },
      },
      {
        now: this.now(),
        watch: w?.watch ?? { notRespondingSeconds: 15, clockPausedSeconds: 300 },
        gameUnderWay: game !== undefined && (w?.gameUnderWay(game) ?? false),
        mismatch: this.mismatched.has(id),
      },
    );
    const before = this.judgements.get(id);
    if (before !== undefined && sameJudgement(before, next)) return false;
    this.judgements.set(id, next);
    if (before !== undefined) this.bumpVersion(id);
    return true;
  }

  private bumpVersion(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }

  /**
   * A number that changes whenever the board's `stateOf` may have (equal numbers: the same state),
   * so a board's state is only made and published again when it has changed.
   */
  stateVersion(id: string): number {
    return this.versions.get(id) ?? 0;
  }

  /** The board that plays `game`, if any. */
  boardOf(game: string): BoardSlot | undefined {
    return this.all().find(s => s.status.game === game);
  }

  /** Whether the pieces stand in the starting position (a new game can begin). */
  showsStartPosition(id: string): boolean {
    const squares = this.slots.get(id)?.status.squares;
    return squares !== undefined && squares.every((c, sq) => same(c, START_SQUARES[sq]));
  }

  /** The retained `boards/<board>/state` payload. */
  stateOf(id: string): BoardState | undefined {
    const slot = this.slots.get(id);
    if (slot === undefined) return undefined;
    const { link, serial, squares, game, at, seenAt, identity, battery, clock } = slot.status;
    const judged = this.judgementOf(id);
    return {
      board: id,
      number: slot.config.number ?? null,
      link,
      status: judged.condition,
      problems: [...judged.problems],
      game: game ?? null,
      ...(serial === undefined ? {} : { serial }),
      vendor: identity.vendor ?? null,
      model: identity.model ?? null,
      firmware: identity.firmware ?? null,
      battery:
        battery === undefined
          ? null
          : { percent: battery.percent ?? null, charging: battery.charging ?? null },
      clock: clock === undefined ? null : clockWire(clock),
      last_seen: seenAt === undefined ? null : Math.round(seenAt),
      ...(squares === undefined ? {} : { placement: placementOf(squares) }),
      at: Math.round(at),
    };
  }

  /** Registers how to reach a running board session (resync, clock text). */
  setControls(id: string, controls: { resync: () => void; clock: (c: ClockCommand) => void }): void {
    this.controls.set(id, controls);
  }

  resync(id: string): boolean {
    const c = this.controls.get(id);
    c?.resync();
    return c !== undefined;
  }

  clockCommand(id: string, command: ClockCommand): boolean {
    const c = this.controls.get(id);
    c?.clock(command);
    return c !== undefined;
  }
}

/** `GET /api/boards`: every board's state, its position left out (the API is public, docs/http.md). */
export const boardsDocument = (
  boards: Pick<BoardRegistry, 'ids' | 'stateOf'>,
  now: number,
): { at: number; boards: Omit<BoardState, 'placement'>[] } => ({
  at: Math.round(now),
  boards: boards.ids().flatMap(id => {
    const state = boards.stateOf(id);
    if (state === undefined) return [];
    const { placement: _placement, ...rest } = state;
    return [rest];
  }),
});
