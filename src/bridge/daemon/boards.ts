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
import type { BoardConfig } from '../config/index.js';
import type { BoardState } from '../mqtt/topics.js';

export interface BoardStatus {
  readonly link: LinkState;
  /** Serial number reported by the board (else the configured one). */
  readonly serial: string | undefined;
  /** The 64 squares as the sensors show them; undefined until the first snapshot. */
  readonly squares: readonly SquareContent[] | undefined;
  readonly game: string | undefined;
  /** Wall-clock ms of the last change. */
  readonly at: number;
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
  let { link, serial, squares, linkLosses, protocolErrors } = s;
  switch (o.type) {
    case 'link':
      if (o.state === 'lost' && link !== 'lost') linkLosses += 1;
      link = o.state;
      break;
    case 'identity':
      serial = o.serial ?? serial;
      break;
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
    case 'clock':
    case 'battery':
    case 'clock-ack':
    case 'eeprom-log':
    case 'bus-reply':
      break;
  }
  const change: BoardChange = {
    link: link !== s.link,
    serial: serial !== s.serial,
    squares: squares !== s.squares,
  };
  const changed = change.link || change.serial || change.squares;
  return {
    status: {
      ...s,
      link,
      serial,
      squares,
      linkLosses,
      protocolErrors,
      observations: s.observations + 1,
      at: changed ? now : s.at,
    },
    change,
  };
};

export class BoardRegistry {
  private readonly slots = new Map<string, BoardSlot>();
  private readonly controls = new Map<string, { resync: () => void; clock: (c: ClockCommand) => void }>();
  /** Per board, a count of the changes to what `stateOf` shows (link, serial, squares, game). */
  private readonly versions = new Map<string, number>();

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
    if (slot === undefined) return { link: false, serial: false, squares: false };
    const r = foldBoardStatus(slot.status, o, this.now());
    slot.status = r.status;
    if (r.change.link || r.change.serial || r.change.squares) this.bumpVersion(id);
    return r.change;
  }

  bind(id: string, game: string | undefined): void {
    const slot = this.slots.get(id);
    if (slot === undefined) return;
    slot.status = { ...slot.status, game, at: this.now() };
    this.bumpVersion(id);
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
    const { link, serial, squares, game, at } = slot.status;
    return {
      board: id,
      link,
      game: game ?? null,
      ...(serial === undefined ? {} : { serial }),
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
