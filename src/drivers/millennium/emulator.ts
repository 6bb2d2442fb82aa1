/**
 * A pure Millennium ChessLink board: 64 squares, the E2ROM registers and the LED patterns. It
 * answers host commands as the board does (reference §1.4) and produces the status reports a
 * change on the board causes, following the report mode in register 02 (§1.5). No timers: a
 * transport serving it on a PTY calls `statusReport()` itself for the timed report modes.
 *
 *   const board = new MillenniumEmulator({ orientation: 'normal' });
 *   port.write(board.receive(bytesFromHost)); // e.g. "v0103" + checksum for "V56"
 *   port.write(board.apply({ square: parseSquare('e2')!, content: EMPTY })); // an s report
 */
import { SquareSet } from 'chessops';
import { orientSquare, START_SQUARES, type Orientation, type SquareContent } from '../observation.js';
import type { SquareEvent } from '../observationExtra.js';
import { MillenniumCommandReader, type MillenniumCommand } from './commands.js';
import { LED_COUNT, parseLedPatterns } from './leds.js';
import { makeReply, type MillenniumReply } from './messages.js';
import {
  letterFromContent,
  makeWire,
  REGISTER,
  REGISTER_DEFAULTS,
  REPORT_MODE,
  STATUS_CHAR_SQUARE,
} from './protocol.js';

export interface MillenniumEmulatorOptions {
  /** Initial contents, index = chessops square (game frame); default the start position. */
  readonly squares?: readonly SquareContent[];
  /** How the board stands: 'normal' = orientation A. */
  readonly orientation?: Orientation;
  readonly version?: { readonly major: number; readonly minor: number };
  /** Send bit 7 as odd parity (default) or clear (a 7O1 line whose reader strips it). */
  readonly parity?: boolean;
  /** Register values to start from (address → value), over the factory defaults. */
  readonly registers?: Readonly<Record<number, number>>;
}

export class MillenniumEmulator {
  readonly orientation: Orientation;
  private readonly board: SquareContent[];
  private readonly regs = new Uint8Array(256);
  private readonly reader = new MillenniumCommandReader();
  private readonly version: { readonly major: number; readonly minor: number };
  private readonly parity: boolean;
  private slot = 0;
  private leds: number[] = new Array<number>(LED_COUNT).fill(0);

  constructor(options: MillenniumEmulatorOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.board = [...(options.squares ?? START_SQUARES)];
    if (this.board.length !== 64)
      throw new TypeError(`squares must have 64 entries, got ${this.board.length}`);
    this.board.forEach(c => this.letterOf(c));
    this.version = options.version ?? { major: 1, minor: 3 };
    this.parity = options.parity ?? true;
    for (const [a, v] of Object.entries({ ...REGISTER_DEFAULTS, ...options.registers }))
      this.regs[Number(a)] = v;
  }

  /** The pieces on the board, index = chessops square (game frame). */
  get squares(): readonly SquareContent[] {
    return this.board;
  }

  /** The last `L` command: slot time and 81 patterns (all zero after `X` or `T`). */
  get ledState(): { readonly slotTime: number; readonly patterns: readonly number[] } {
    return { slotTime: this.slot, patterns: this.leds };
  }

  /** Squares whose 4 corner LEDs are lit, in the game's frame. */
  get litSquares(): SquareSet {
    return parseLedPatterns(this.leds, this.orientation);
  }

  register(address: number): number {
    return this.regs[address & 0xff] ?? 0;
  }

  /** The 64 status letters in the order the board sends them. */
  statusBoard(): string {
    let s = '';
    for (let i = 0; i < 64; i++)
      s += this.letterOf(this.board[orientSquare(STATUS_CHAR_SQUARE[i] ?? 0, this.orientation)]);
    return s;
  }

  /** An `s` report of the current position (what the board sends on every scan in mode 0). */
  statusReport(): Uint8Array {
    return this.wire({ kind: 'status', board: this.statusBoard() });
  }

  /** Reads host bytes and returns the replies (bad commands are dropped silently, §1.3). */
  receive(bytes: Uint8Array): Uint8Array {
    const replies: Uint8Array[] = [];
    for (const e of this.reader.push(bytes)) {
      if (e.kind === 'command') {
        const r = this.answer(e.command);
        if (r !== undefined) replies.push(r);
      }
    }
    return concat(replies);
  }

  /** Changes one square; returns the report the board sends, per its report mode. */
  apply(event: SquareEvent): Uint8Array {
    this.letterOf(event.content);
    const before = this.letterOf(this.board[event.square]);
    this.board[event.square] = event.content;
    const changed = before !== this.letterOf(event.content);
    const mode = this.register(REGISTER.REPORT_MODE) & 0x07;
    if (mode === REPORT_MODE.OFF || mode === REPORT_MODE.INTERVAL) return new Uint8Array(0);
    if (mode === REPORT_MODE.EVERY_SCAN || changed) return this.statusReport();
    return new Uint8Array(0);
  }

  private answer(c: MillenniumCommand): Uint8Array | undefined {
    switch (c.kind) {
      case 'version':
        return this.wire({ kind: 'version', ...this.version });
      case 'status':
        return this.statusReport();
      case 'leds':
        this.slot = c.slotTime;
        this.leds = [...c.patterns];
        return this.wire({ kind: 'leds-ack' });
      case 'leds-off':
        this.leds = new Array<number>(LED_COUNT).fill(0);
        return this.wire({ kind: 'leds-off-ack' });
      case 'reset':
        this.leds = new Array<number>(LED_COUNT).fill(0);
        return undefined;
      case 'write-register':
        this.regs[c.address] = c.value;
        return this.wire({ kind: 'register-written', address: c.address, value: c.value });
      case 'read-register':
        return this.wire({ kind: 'register', address: c.address, value: this.register(c.address) });
      case 'identify':
        return this.wire({ kind: 'identify', text: 'FF' });
      case 'set-position':
        // The reply of eONE boards to G is unknown (UNVERIFIED): stay silent.
        return undefined;
    }
  }

  private wire(r: MillenniumReply): Uint8Array {
    return makeWire(makeReply(r), this.parity);
  }

  private letterOf(c: SquareContent | undefined): string {
    const l = c === undefined ? '.' : letterFromContent(c);
    if (l === undefined) throw new TypeError(`a Millennium board cannot show ${JSON.stringify(c)}`);
    return l;
  }
}

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};
