/**
 * A DGT e-Board (with an optional DGT3000 / DGT XL clock) as a pure state machine: 64 fields,
 * the mode, the clock, the identification data and the on-board log. `receive` takes the bytes a
 * host sends and returns the board's replies; `apply` changes the board (a piece lifted or
 * placed, a lever pressed) and returns what the board sends spontaneously in its current mode;
 * `tick` returns the periodic clock messages of the update modes. Time is passed in (`now`, ms).
 * It also answers bus commands addressed to it (reference §8), so a bus line is many of these.
 *
 *   const board = new DgtBoardEmulator({ serial: '01025' });
 *   board.receive(Uint8Array.of(0x4b, 0x42), 0); // UPDATE_NICE, then the 67-byte dump
 *   board.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 10); // 8E 00 05 34 00
 */
import { type Square, type SquareName, parseSquare } from 'chessops';
import type { ClockButton, ClockSide, Orientation, SquareContent } from '../observation.js';
import { START_SQUARES } from '../observation.js';
import { makeBusMessage } from './bus.js';
import type { BusCommand } from './busCommands.js';
import { makeClockAckPayload, makeClockTimesPayload } from './clock.js';
import type { ClockCommand } from './clockCommands.js';
import { DgtCommandReader, type ReceivedCommand } from './commands.js';
import { codeFromPiece, squareToField } from './constants.js';
import type { DgtLogRecord } from './eeprom.js';
import { buttonAck, type ClockSetting, EmulatorClock, type EmulatorClockOptions } from './emulatorClock.js';
import { makeMessage } from './messages.js';

/** A piece in FEN letters (white upper case). */
export type PieceLetter = 'P' | 'N' | 'B' | 'R' | 'Q' | 'K' | 'p' | 'n' | 'b' | 'r' | 'q' | 'k';

/** Something that happens at the board (game frame: squares as the players see them). */
export type BoardEvent =
  | { readonly kind: 'square'; readonly square: Square | SquareName; readonly piece: PieceLetter | 'empty' }
  /** The player on `side` presses the clock lever. */
  | { readonly kind: 'clock-press'; readonly side: ClockSide }
  | ({ readonly kind: 'clock-set' } & ClockSetting)
  | { readonly kind: 'clock-button'; readonly button: ClockButton }
  | { readonly kind: 'clock-plug'; readonly connected: boolean };

export type BoardMode = 'bus' | 'idle' | 'update' | 'update-board' | 'update-nice';

export interface DgtBoardEmulatorOptions {
  /** Five decimal digits; the bus address is this number (§1.3). Default '01025'. */
  readonly serial?: string;
  readonly version?: { readonly major: number; readonly minor: number };
  readonly longSerial?: string;
  readonly trademark?: string;
  /** Battery payload (9 bytes) for 0x4C; boards without a battery do not answer. */
  readonly battery?: readonly number[];
  /** How the board stands relative to the players; default 'normal'. */
  readonly orientation?: Orientation;
  /** Initial position, game frame (index = chessops square); default the start position. */
  readonly squares?: readonly SquareContent[];
  /** The clock plugged into the board, or false for none; default a DGT3000. */
  readonly clock?: EmulatorClockOptions | false;
  /** Mode to start in; default 'bus', as after power-up (§5.1). A power cycle always returns to bus mode. */
  readonly mode?: BoardMode;
}

/** Bus commands a board obeys when sent to address 0 (§8.1). */
const BROADCAST_OK: ReadonlySet<BusCommand['command']> = new Set(['ping', 'end-bus-mode', 'reset']);

const LETTER_CONTENT: Readonly<Record<PieceLetter, SquareContent>> = {
  P: { kind: 'piece', color: 'white', role: 'pawn' },
  N: { kind: 'piece', color: 'white', role: 'knight' },
  B: { kind: 'piece', color: 'white', role: 'bishop' },
  R: { kind: 'piece', color: 'white', role: 'rook' },
  Q: { kind: 'piece', color: 'white', role: 'queen' },
  K: { kind: 'piece', color: 'white', role: 'king' },
  p: { kind: 'piece', color: 'black', role: 'pawn' },
  n: { kind: 'piece', color: 'black', role: 'knight' },
  b: { kind: 'piece', color: 'black', role: 'bishop' },
  r: { kind: 'piece', color: 'black', role: 'rook' },
  q: { kind: 'piece', color: 'black', role: 'queen' },
  k: { kind: 'piece', color: 'black', role: 'king' },
};

export const contentOfLetter = (p: PieceLetter | 'empty'): SquareContent =>
  p === 'empty' ? { kind: 'empty' } : LETTER_CONTENT[p];

/** The fields of the start position in the board's own frame, connector on White's left or turned round. */
const START_FIELDS = ((): { normal: number[]; rotated: number[] } => {
  const at = (orientation: Orientation): number[] => {
    const fields = new Array<number>(64).fill(0);
    START_SQUARES.forEach((c, sq) => {
      fields[squareToField(sq, orientation)] = codeFromPiece(c) ?? 0;
    });
    return fields;
  };
  return { normal: at('normal'), rotated: at('rotated') };
})();

/** Most log records kept (the real EEPROM holds 0x1F00 bytes). */
const LOG_LIMIT = 4000;
/** A piece record is "quick" under this gap to the previous one (§7). */
const QUICK_MS = 250;

const EMPTY_BYTES = new Uint8Array(0);

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

export const resolveSquare = (s: Square | SquareName): Square => {
  if (typeof s === 'number') return s;
  // Scripts are written by people: check the name at run time too.
  const name: string = s;
  const sq = parseSquare(name);
  if (sq === undefined) throw new TypeError(`not a square: ${s}`);
  return sq;
};

export class DgtBoardEmulator {
  readonly serial: string;
  readonly address: number;
  readonly orientation: Orientation;
  readonly clock: EmulatorClock | undefined;
  /** Bus requests for this board's changes received so far (a poller's reads of it). */
  changeRequests = 0;
  /** Every command received, oldest first (bounded), for assertions. */
  readonly received: ReceivedCommand[] = [];
  /** Rev II LED commands received. */
  ledCommands = 0;
  private modeNow: BoardMode;
  private readonly fields: number[] = new Array<number>(64).fill(0);
  private reader = new DgtCommandReader();
  private readonly log: DgtLogRecord[] = [];
  private pending: DgtLogRecord[] = [];
  private lastChanges: DgtLogRecord[] = [];
  private fromStart: DgtLogRecord[] = [];
  private lastRecordAt = -Infinity;
  /** The begin-position tag may be written (the pieces left the start position since the last one). */
  private beginArmed = true;
  private lastClockSent: string | undefined;
  private lastClockAt = -Infinity;
  private ignoreNextPing = false;

  constructor(private readonly options: DgtBoardEmulatorOptions = {}) {
    this.serial = options.serial ?? '01025';
    this.address = Number.parseInt(this.serial, 10) & 0x3fff;
    this.orientation = options.orientation ?? 'normal';
    this.clock = options.clock === false ? undefined : new EmulatorClock(options.clock ?? {});
    this.modeNow = options.mode ?? 'bus';
    const squares = options.squares ?? START_SQUARES;
    squares.forEach((c, sq) => this.setSquare(sq, codeFromPiece(c) ?? 0));
    this.logPowerUp();
  }

  /**
   * What a real board writes to its move log at power-on (§7): the power-up tag, then one piece
   * record per occupied square, so the log can be followed from there. (Not in the bus change lists.)
   */
  private logPowerUp(): void {
    this.logOnly({ kind: 'tag', tag: 'power-up' });
    this.fields.forEach((code, field) => {
      if (code !== 0) this.logOnly({ kind: 'piece', field, code, quick: true });
    });
    const start = this.atStart();
    if (start !== undefined)
      this.logOnly({ kind: 'tag', tag: start === 'normal' ? 'begin-pos' : 'begin-pos-rotated' });
    this.beginArmed = start === undefined;
  }

  private logOnly(r: DgtLogRecord): void {
    this.log.push(r);
    if (this.log.length > LOG_LIMIT) this.log.shift();
  }

  /** The board's fields hold the start position (in its own frame: connector on White's left or turned). */
  private atStart(): 'normal' | 'rotated' | undefined {
    const normal = START_FIELDS.normal.every((code, f) => this.fields[f] === code);
    if (normal) return 'normal';
    return START_FIELDS.rotated.every((code, f) => this.fields[f] === code) ? 'rotated' : undefined;
  }

  /**
   * The begin-position tag (§7): written when the pieces stand in the start position, re-armed only
   * once more than two pieces have left it (the hysteresis of the real board).
   */
  private tagBeginPosition(): void {
    const start = this.atStart();
    if (start !== undefined && this.beginArmed) {
      this.logOnly({ kind: 'tag', tag: start === 'normal' ? 'begin-pos' : 'begin-pos-rotated' });
      this.beginArmed = false;
      return;
    }
    if (!this.beginArmed) {
      const off = START_FIELDS.normal.filter((code, f) => this.fields[f] !== code).length;
      const offRotated = START_FIELDS.rotated.filter((code, f) => this.fields[f] !== code).length;
      if (Math.min(off, offRotated) > 2) this.beginArmed = true;
    }
  }

  get mode(): BoardMode {
    return this.modeNow;
  }

  /** The board's 64 piece codes in field order (its own frame, field 0 = a8 when normal). */
  get codes(): readonly number[] {
    return this.fields;
  }

  /** The piece code on a game square. */
  codeAt(square: Square | SquareName): number {
    return this.fields[squareToField(resolveSquare(square), this.orientation)] ?? 0;
  }

  private setSquare(sq: Square, code: number): number {
    const field = squareToField(sq, this.orientation);
    this.fields[field] = code;
    return field;
  }

  /** Power cycle (USB replug): back to bus mode, partial commands forgotten; pieces stay. */
  powerCycle(): void {
    this.modeNow = 'bus';
    this.reader = new DgtCommandReader();
    this.lastClockSent = undefined;
    this.record({ kind: 'tag', tag: 'power-up' }, -Infinity);
    this.log.pop();
    this.logPowerUp();
  }

  /** Bytes from the host; returns the replies. */
  receive(bytes: Uint8Array, now: number): Uint8Array {
    const out: Uint8Array[] = [];
    for (const e of this.reader.push(bytes)) {
      if (e.kind === 'command') out.push(this.command(e.command, now));
    }
    return concat(out);
  }

  /** One parsed command; returns the reply bytes (possibly none). */
  command(c: ReceivedCommand, now: number): Uint8Array {
    if (this.received.length >= LOG_LIMIT) this.received.shift();
    this.received.push(c);
    if (c.kind === 'bus') return this.busCommand(c, now);
    if (c.kind === 'forbidden') return EMPTY_BYTES;
    // Any single-board command leaves bus mode for IDLE and is then executed (§8).
    if (this.modeNow === 'bus') this.modeNow = 'idle';
    switch (c.kind) {
      case 'reset':
        this.modeNow = 'idle';
        return EMPTY_BYTES;
      case 'to-bus-mode':
        this.modeNow = 'bus';
        return EMPTY_BYTES;
      case 'update':
      case 'update-board':
      case 'update-nice':
        // Entering an update mode sends the clock reading afresh; repeating the mode changes nothing.
        if (this.modeNow !== c.kind) this.lastClockSent = undefined;
        this.modeNow = c.kind;
        return EMPTY_BYTES;
      case 'send-board':
        return makeMessage({ kind: 'board-dump', codes: this.fields });
      case 'send-clock':
        return this.clockMessage(now);
      case 'serial':
        return makeMessage({ kind: 'serial', text: this.serial });
      case 'long-serial':
        return makeMessage({ kind: 'long-serial', text: (this.options.longSerial ?? '').padEnd(10) });
      case 'version':
        return makeMessage({ kind: 'version', ...(this.options.version ?? { major: 3, minor: 10 }) });
      case 'hardware-version':
        return makeMessage({ kind: 'hardware-version', major: 1, minor: 0 });
      case 'bus-address':
        return makeMessage({ kind: 'bus-address', address: this.address });
      case 'trademark':
        return makeMessage({ kind: 'trademark', text: this.options.trademark ?? 'Emulated DGT board' });
      case 'battery-status':
        return this.options.battery === undefined
          ? EMPTY_BYTES
          : makeMessage({ kind: 'battery', bytes: this.options.battery });
      case 'log-moves':
        return makeMessage({ kind: 'log', records: [...this.log, { kind: 'tag', tag: 'eof' }] });
      case 'clock':
        return this.clockCommand(c.clock, now);
      case 'leds':
        this.ledCommands++;
        return EMPTY_BYTES;
      case 'send-board-50b':
      case 'send-board-50w':
      case 'i2c-clock':
      case 'update-i2c':
      case 'update-i2c-nice':
      case 'i2c-clock-message':
        return EMPTY_BYTES;
    }
  }

  private get updating(): boolean {
    return this.modeNow === 'update' || this.modeNow === 'update-nice' || this.modeNow === 'update-board';
  }

  private get clockUpdates(): boolean {
    return this.modeNow === 'update' || this.modeNow === 'update-nice';
  }

  private ack(a1: number, a2 = 0, a3 = 0, ok = true): Uint8Array {
    return makeMessage({
      kind: 'clock',
      payload: Array.from(makeClockAckPayload([ok ? 0x10 : 0x40, a1, a2, a3])),
    });
  }

  /** Clock commands are executed always but acked only in UPDATE / UPDATE_NICE (§5.1, §6.4). */
  private clockCommand(c: ClockCommand, now: number): Uint8Array {
    const clock = this.clock;
    if (clock === undefined || !clock.connected) return EMPTY_BYTES;
    const [ack1, ack2, ok] = clock.execute(c, now);
    return this.clockUpdates ? this.ack(ack1, ack2, 0, ok) : EMPTY_BYTES;
  }

  private clockPayload(now: number): number[] {
    const clock = this.clock;
    if (clock === undefined) return [0, 0, 0, 0, 0, 0, 0x20];
    return Array.from(makeClockTimesPayload(clock.times(now)));
  }

  private clockMessage(now: number): Uint8Array {
    return makeMessage({ kind: 'clock', payload: this.clockPayload(now) });
  }

  private record(r: DgtLogRecord, now: number): void {
    for (const list of [this.log, this.pending, this.fromStart]) {
      list.push(r);
      if (list.length > LOG_LIMIT) list.shift();
    }
    this.lastRecordAt = now;
  }

  /** A change at the board; returns what the board sends by itself in its current mode. */
  apply(e: BoardEvent, now: number, options: { readonly silent?: boolean } = {}): Uint8Array {
    switch (e.kind) {
      case 'square': {
        const code = codeFromPiece(contentOfLetter(e.piece)) ?? 0;
        const field = this.setSquare(resolveSquare(e.square), code);
        this.record({ kind: 'piece', field, code, quick: now - this.lastRecordAt < QUICK_MS }, now);
        this.tagBeginPosition();
        if (!this.updating || options.silent === true) return EMPTY_BYTES;
        return makeMessage({ kind: 'field-update', field, code });
      }
      case 'clock-press': {
        const clock = this.clock;
        if (clock === undefined) return EMPTY_BYTES;
        const before = clock.runningAt(now);
        clock.press(e.side, now);
        if (before !== undefined) {
          const t = clock.times(now);
          const { hours, minutes, seconds } = before === 'left' ? t.left : t.right;
          this.record({ kind: 'time', side: before, hours, minutes, seconds }, now);
        }
        return this.tick(now);
      }
      case 'clock-set':
        this.clock?.set(e, now);
        return this.tick(now);
      case 'clock-plug':
        if (this.clock !== undefined) this.clock.connected = e.connected;
        return this.tick(now);
      case 'clock-button': {
        if (this.clock?.connected !== true || !this.clockUpdates) return EMPTY_BYTES;
        const [held, code] = buttonAck(e.button);
        return this.ack(0x88, held, code);
      }
    }
  }

  /**
   * The clock messages due at `now`: in UPDATE at least one a second, in UPDATE_NICE one whenever
   * the reading changed (§5.1). Call it often (every 100 ms or so).
   */
  tick(now: number): Uint8Array {
    if (!this.clockUpdates || this.clock === undefined) return EMPTY_BYTES;
    const payload = this.clockPayload(now);
    const key = payload.join(',');
    const due =
      this.modeNow === 'update'
        ? now - this.lastClockAt >= 1000 || key !== this.lastClockSent
        : key !== this.lastClockSent;
    if (!due) return EMPTY_BYTES;
    this.lastClockSent = key;
    this.lastClockAt = now;
    return makeMessage({ kind: 'clock', payload });
  }

  // -------------------------------------------------------------------------------------------
  // Bus mode (§8)

  private busCommand(c: BusCommand, now: number): Uint8Array {
    const mine = c.address === this.address || (c.address === 0 && BROADCAST_OK.has(c.command));
    if (!mine) return EMPTY_BYTES;
    // A bus command switches a single-mode board back to bus mode and is not executed (§8).
    if (this.modeNow !== 'bus') {
      this.modeNow = 'bus';
      return EMPTY_BYTES;
    }
    const reply = (m: Parameters<typeof makeBusMessage>[1]): Uint8Array => makeBusMessage(this.address, m);
    switch (c.command) {
      case 'send-board':
        return reply({ kind: 'board-dump', codes: this.fields });
      case 'send-clock':
        return reply({ kind: 'clock', payload: this.clockPayload(now) });
      case 'send-changes':
        this.changeRequests++;
        this.lastChanges = this.pending;
        this.pending = [];
        return reply({ kind: 'bus-update', records: this.lastChanges, even: false });
      case 'repeat-changes':
        return reply({ kind: 'bus-update', records: this.lastChanges, even: false });
      case 'set-start-game':
        this.fromStart = [];
        this.record({ kind: 'tag', tag: 'start-tag' }, now);
        return reply({ kind: 'bus-start-game-written' });
      case 'send-from-start':
        return reply({ kind: 'bus-from-start', records: this.fromStart });
      case 'ping':
        if (c.address === 0 && this.ignoreNextPing) {
          this.ignoreNextPing = false;
          return EMPTY_BYTES;
        }
        return reply({ kind: 'bus-ping' });
      case 'ignore-next-ping':
        this.ignoreNextPing = true;
        return reply({ kind: 'bus-ping' });
      case 'send-version':
        return reply({ kind: 'bus-version', version: this.options.version ?? { major: 3, minor: 10 } });
      case 'serial':
        return reply({ kind: 'serial', text: this.serial });
      case 'trademark':
        return reply({ kind: 'trademark', text: this.options.trademark ?? 'Emulated DGT board' });
      case 'hardware-version':
        return reply({ kind: 'hardware-version', major: 1, minor: 0 });
      case 'end-bus-mode':
        this.modeNow = 'idle';
        return EMPTY_BYTES;
      case 'reset':
        this.powerCycle();
        return EMPTY_BYTES;
      case 'send-all': {
        const changes = this.busCommand({ ...c, command: 'send-changes' }, now);
        return concat([
          changes,
          this.busCommand({ ...c, command: 'send-clock' }, now),
          this.busCommand({ ...c, command: 'send-board' }, now),
        ]);
      }
      case 'rping':
        return reply({ kind: 'bus-ping' });
      case 'battery':
        return this.options.battery === undefined
          ? EMPTY_BYTES
          : reply({ kind: 'battery', bytes: this.options.battery });
      case 'send-board-50b':
      case 'i2c-clock':
      case 'i2c-button':
      case 'i2c-ack':
      case 'stats':
      case 'repeat-i2c-button':
      case 'repeat-i2c-ack':
        return EMPTY_BYTES;
    }
  }
}
