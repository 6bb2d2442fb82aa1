/**
 * Observations: the vocabulary every board driver speaks to the rest of the daemon.
 *
 * A driver turns bytes into these plain, JSON-friendly values (no classes, so the journal can
 * store them as they are). Squares are chessops numbers (0 = a1 … 63 = h8) already corrected for
 * the board's orientation; every observation carries `at`, the receipt time in milliseconds,
 * which the caller injects (monotonic clock live, the capture's time in replay).
 *
 *   import { orientSquare, type Observation } from '../observation.js';
 *   const obs: Observation = { type: 'square', at: 120, square: orientSquare(12, 'rotated'), content: EMPTY };
 *   if (obs.type === 'square' && obs.content.kind === 'empty') lifted(obs.square);
 */
import type { Color, Role, Square } from 'chessops';
import { SquareSet } from 'chessops';
import { rotate180 } from 'chessops/transform';

// ---------------------------------------------------------------------------------------------
// Square contents

/** What one square holds, as the sensors see it. */
export type SquareContent =
  | { readonly kind: 'empty' }
  /** A recognised chess piece. */
  | { readonly kind: 'piece'; readonly color: Color; readonly role: Role }
  /** Something stands there, identity unknown (occupancy-only boards, e.g. Pegasus, Sentio). */
  | { readonly kind: 'occupied' }
  /** A special result piece (DGT "magic pieces" 0x0D–0x0F): draw, white wins, black wins. */
  | { readonly kind: 'result-piece'; readonly result: ResultMark };

export type ResultMark = '1-0' | '0-1' | '1/2-1/2';

export const EMPTY: SquareContent = { kind: 'empty' };
export const OCCUPIED: SquareContent = { kind: 'occupied' };

export const makePiece = (color: Color, role: Role): SquareContent => ({ kind: 'piece', color, role });

export const isOccupied = (c: SquareContent): boolean => c.kind !== 'empty';

/** The occupied squares of a 64-entry board (index = chessops square). */
export const occupancyOf = (squares: readonly SquareContent[]): SquareSet => {
  let set = SquareSet.empty();
  squares.forEach((c, sq) => {
    if (isOccupied(c)) set = set.with(sq);
  });
  return set;
};

// ---------------------------------------------------------------------------------------------
// Orientation

/** How the board stands relative to the players: 'rotated' = turned 180°. */
export type Orientation = 'normal' | 'rotated';

export const ORIENTATIONS: readonly Orientation[] = ['normal', 'rotated'];

/** rotate180 of every square, computed once with chessops' transform (STYLE item 4). */
const ROTATED_SQUARE: readonly Square[] = Array.from(
  { length: 64 },
  (_, sq) => rotate180(SquareSet.fromSquare(sq)).first() ?? sq,
);

/** Maps a square in the board's own frame to the game's frame (an involution). */
export const orientSquare = (sq: Square, orientation: Orientation): Square => {
  switch (orientation) {
    case 'normal':
      return sq;
    case 'rotated':
      return ROTATED_SQUARE[sq] ?? sq;
  }
};

/** Re-orients a 64-entry board given in the board's frame. */
export const orientSquares = (
  squares: readonly SquareContent[],
  orientation: Orientation,
): SquareContent[] => {
  const out: SquareContent[] = new Array<SquareContent>(64).fill(EMPTY);
  squares.forEach((c, sq) => {
    out[orientSquare(sq, orientation)] = c;
  });
  return out;
};

const BACK_RANK: readonly Role[] = ['rook', 'knight', 'bishop', 'queen', 'king', 'bishop', 'knight', 'rook'];

/** The standard starting position as 64 square contents (index = chessops square). */
export const START_SQUARES: readonly SquareContent[] = Array.from({ length: 64 }, (_, sq): SquareContent => {
  const rank = sq >> 3;
  const role = BACK_RANK[sq & 7] ?? 'pawn';
  if (rank === 0) return makePiece('white', role);
  if (rank === 1) return makePiece('white', 'pawn');
  if (rank === 6) return makePiece('black', 'pawn');
  if (rank === 7) return makePiece('black', role);
  return EMPTY;
});

const sameContent = (a: SquareContent | undefined, b: SquareContent | undefined): boolean => {
  if (a === undefined || b === undefined) return a === b;
  if (a.kind === 'piece' && b.kind === 'piece') return a.color === b.color && a.role === b.role;
  if (a.kind === 'result-piece' && b.kind === 'result-piece') return a.result === b.result;
  return a.kind === b.kind;
};

/**
 * Which orientation makes `squares` (read in the board's own frame) the standard starting
 * position, or undefined when it is neither. Occupancy-only boards cannot be told apart by this
 * test (both orientations fill the same squares) and get undefined.
 */
export const detectOrientation = (squares: readonly SquareContent[]): Orientation | undefined => {
  if (squares.length !== 64 || squares.some(c => c.kind === 'occupied')) return undefined;
  for (const o of ORIENTATIONS) {
    if (squares.every((c, sq) => sameContent(c, START_SQUARES[orientSquare(sq, o)]))) return o;
  }
  return undefined;
};

// ---------------------------------------------------------------------------------------------
// Clock readings

/** The physical sides of a clock as seen from its front; mapping them to colours is the engine's job. */
export type ClockSide = 'left' | 'right';

export interface ClockFace {
  /** Time shown, in milliseconds. */
  readonly ms: number;
  /** The flag has fallen and the clock is blocked at zero. */
  readonly flagFallen: boolean;
  /** A flag is shown on the display (the clock may still run, e.g. into the next period). */
  readonly flagShown: boolean;
  /** The time-per-move (Fischer/Bronstein) indicator is on. */
  readonly timePerMove: boolean;
}

// ---------------------------------------------------------------------------------------------
// Protocol errors

/** Why bytes were discarded or a message was only partly understood. */
export type ProtocolErrorReason =
  /** Bytes that cannot start a message, skipped while looking for one. */
  | { readonly kind: 'garbage' }
  /** A message was cut short by the start of another one. */
  | {
      readonly kind: 'interrupted';
      readonly id: number;
      readonly declared: number | undefined;
      readonly received: number;
    }
  /** The declared total length is impossible for this message. */
  | { readonly kind: 'bad-length'; readonly id: number; readonly declared: number; readonly expected: string }
  /** The declared length exceeds the decoder's buffer cap: skipped without buffering. */
  | { readonly kind: 'overflow'; readonly id: number; readonly declared: number; readonly cap: number }
  /** A message id this decoder does not know: skipped by its length. */
  | { readonly kind: 'unknown-message'; readonly id: number }
  /** A known message we do not decode (draughts dumps, I2C clock): skipped by its length. */
  | { readonly kind: 'unsupported-message'; readonly id: number; readonly name: string }
  /** Checksum mismatch (bus mode); the sender's address as read, if any. */
  | {
      readonly kind: 'checksum';
      readonly expected: number;
      readonly actual: number;
      readonly address: number | undefined;
    }
  /** A field holds a value outside its range; the message was dropped. */
  | { readonly kind: 'bad-field'; readonly field: string; readonly value: number }
  /** Reserved or undocumented bits were set; the message was still decoded with them masked. */
  | { readonly kind: 'reserved-bits'; readonly field: string; readonly value: number }
  /** The stream ended in the middle of a message (reported by `finish`). */
  | { readonly kind: 'incomplete'; readonly received: number };

/** The error value of a Result whose failure is a protocol problem (Result needs an Error). */
export class ProtocolError extends Error {
  constructor(readonly reason: ProtocolErrorReason) {
    super(`protocol error: ${reason.kind}`);
    this.name = 'ProtocolError';
  }
}

// ---------------------------------------------------------------------------------------------
// Observations

export interface SnapshotObservation {
  readonly type: 'snapshot';
  readonly at: number;
  /** 64 entries, index = chessops square (0 = a1 … 63 = h8), orientation applied. */
  readonly squares: readonly SquareContent[];
}

export interface SquareObservation {
  readonly type: 'square';
  readonly at: number;
  readonly square: Square;
  readonly content: SquareContent;
}

export interface ClockObservation {
  readonly type: 'clock';
  readonly at: number;
  /** False when the board reports that no clock is attached: the times are then meaningless. */
  readonly connected: boolean;
  readonly left: ClockFace;
  readonly right: ClockFace;
  /** The side whose time runs, undefined while the clock is stopped. */
  readonly running: ClockSide | undefined;
  /** The side whose lever is up. */
  readonly lever: ClockSide;
  /**
   * A reading made from the board's log, not read from the clock: the faces whose time it does
   * not know (a DGT bus board logs the halted side's time at a press, not the clock's start, §7).
   * Its lever and running side are known; its times on those faces mean nothing.
   */
  readonly timeUnknown?: ClockSide | 'both';
  readonly batteryLow: boolean;
  /** The raw status byte, for flags without a settled meaning (DGT D3/D4 turn bits). */
  readonly status: number;
}

export interface IdentityObservation {
  readonly type: 'identity';
  readonly at: number;
  readonly vendor: string;
  readonly model?: string;
  readonly serial?: string;
  /** A second, longer serial number some boards carry (DGT Bluetooth boards). */
  readonly longSerial?: string;
  readonly firmware?: string;
  readonly hardware?: string;
  readonly busAddress?: number;
  readonly trademark?: string;
}

export interface BatteryObservation {
  readonly type: 'battery';
  readonly at: number;
  /** Remaining capacity 0–100, undefined if not reported or out of range. */
  readonly percent: number | undefined;
  readonly charging: boolean | undefined;
  /** Running time left in minutes, when the board says. */
  readonly minutesLeft: number | undefined;
  /** The payload as received (vendor-specific layout). */
  readonly raw: readonly number[];
}

export type LinkState = 'connected' | 'lost' | 'resynchronising';

export interface LinkObservation {
  readonly type: 'link';
  readonly at: number;
  readonly state: LinkState;
  readonly detail?: string;
  /**
   * Not from a driver: the bridge journals `lost` with `restart` for each resumed game at start-up
   * (the daemon stopped watching at the game's last record; the board was there all along).
   */
  readonly restart?: boolean;
}

export interface ProtocolErrorObservation {
  readonly type: 'protocol-error';
  readonly at: number;
  readonly reason: ProtocolErrorReason;
  /** The offending bytes, hex pairs separated by spaces (at most the first 48 bytes). */
  readonly hex: string;
  /** How many bytes were involved in total. */
  readonly count: number;
}

/** A clock's answer to a command, or a spontaneous clock event (DGT XL / DGT3000 via the board). */
export interface ClockAckObservation {
  readonly type: 'clock-ack';
  readonly at: number;
  /** The four ack bytes rebuilt from the message (DGT ack0..ack3). */
  readonly ack: readonly [number, number, number, number];
  /** ack0 is the normal-ack value. */
  readonly ok: boolean;
  readonly event: ClockAckEvent;
}

export type ClockButton = 'back' | 'plus' | 'run' | 'minus' | 'ok';

export type ClockAckEvent =
  /** Reply to clock command `command` (0x01 display … 0x0C ASCII). */
  | { readonly kind: 'reply'; readonly command: number }
  /** Reply to the version request: main.sub (main 1 = DGT XL, 2 = DGT3000). */
  | { readonly kind: 'version'; readonly main: number; readonly sub: number }
  | { readonly kind: 'ready' }
  /** A button press; `held` is the raw bitmask byte (ack2). */
  | { readonly kind: 'button'; readonly button: ClockButton | undefined; readonly held: number }
  | { readonly kind: 'mode-23' }
  | { readonly kind: 'not-mode-23' }
  | { readonly kind: 'auto'; readonly code: number }
  /** An all-zero clock message, sent by some firmware after a clock command. */
  | { readonly kind: 'empty' };

/** One record of a DGT board's move log (EEPROM) or of a bus-mode change list. */
export type LogRecord =
  | {
      readonly kind: 'piece';
      readonly square: Square;
      readonly content: SquareContent;
      readonly quick: boolean;
    }
  | { readonly kind: 'time'; readonly side: ClockSide; readonly ms: number }
  | { readonly kind: 'tag'; readonly tag: LogTag }
  | { readonly kind: 'unknown'; readonly byte: number };

export type LogTag =
  | 'power-up'
  | 'eof'
  | 'four-rows'
  | 'empty-board'
  | 'downloaded'
  | 'begin-pos'
  | 'begin-pos-rotated'
  | 'start-tag'
  | 'watchdog'
  | 'clock-state'
  | 'bus-address'
  /** EE_NOP (0x7F) and EE_NOP2 (0x00): filler. */
  | 'nop'
  | 'nop2';

export interface LogObservation {
  readonly type: 'eeprom-log';
  readonly at: number;
  /** 'dump' = the on-board log (0x8F); the bus sources are change lists and the since-start replay. */
  readonly source: 'dump' | 'bus-update' | 'bus-from-start';
  readonly records: readonly LogRecord[];
}

/** Bus-mode replies that carry no data besides "this board is here". */
export interface BusReplyObservation {
  readonly type: 'bus-reply';
  readonly at: number;
  readonly reply: 'ping' | 'start-game-written';
}

export type Observation =
  | SnapshotObservation
  | SquareObservation
  | ClockObservation
  | IdentityObservation
  | BatteryObservation
  | LinkObservation
  | ProtocolErrorObservation
  | ClockAckObservation
  | LogObservation
  | BusReplyObservation;

export type ObservationType = Observation['type'];

// ---------------------------------------------------------------------------------------------
// Hex helpers (used for protocol errors and captures)

/** Upper-case hex pairs separated by single spaces: `86 00 43`. */
export const makeHex = (bytes: Uint8Array | readonly number[]): string => {
  let s = '';
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) s += ' ';
    s += ((bytes[i] ?? 0) & 0xff).toString(16).toUpperCase().padStart(2, '0');
  }
  return s;
};
