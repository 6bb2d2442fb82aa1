/**
 * A pure Chessnut board: 64 squares, LEDs, battery and version strings. It takes output reports
 * (host commands) and returns input reports as the board sends them (reference §3.3–§3.7):
 * nothing until the start command, then a position report on every change (and whenever the
 * transport's 200 ms timer calls `positionReport()`), `23 01 00` after start and LED commands.
 * An in-process HID device can wrap it behind the transport interface.
 *
 *   const board = new ChessnutEmulator({ link: 'usb' });
 *   board.receive(Uint8Array.of(0x21, 0x01, 0x00)); // [23 01 00, 01 3D + 32 bytes + 29 zeros]
 *   board.apply({ square: 12, content: EMPTY }); // [the new position report]
 */
import { orientSquare, START_SQUARES, type Orientation, type SquareContent } from '../observation.js';
import type { SquareEvent } from '../observationExtra.js';
import { SquareSet } from 'chessops';
import { parseCommand, type ReceivedCommand } from './commands.js';
import { makeMessage, USB_TRAILER_LENGTH } from './messages.js';
import { codeFromContent, NIBBLE_SQUARE } from './protocol.js';

export interface ChessnutEmulatorOptions {
  readonly squares?: readonly SquareContent[];
  readonly orientation?: Orientation;
  /** 'usb' (01 3D … 63-byte reports) or 'ble' (01 24 … 38 bytes with an FF FF FF FF trailer). */
  readonly link?: 'usb' | 'ble';
  readonly battery?: { readonly percent: number; readonly charging: boolean };
  readonly mcuVersion?: string;
  readonly bleVersion?: string;
  /** Already in real-time mode (as if the start command had been sent). */
  readonly started?: boolean;
}

/** BLE trailer of the picochess test frames (its meaning is UNVERIFIED). */
const BLE_TRAILER = [0xff, 0xff, 0xff, 0xff];

export class ChessnutEmulator {
  readonly orientation: Orientation;
  readonly link: 'usb' | 'ble';
  private readonly board: SquareContent[];
  private readonly battery: { readonly percent: number; readonly charging: boolean };
  private readonly mcuVersion: string;
  private readonly bleVersion: string;
  private running: boolean;
  private lit = SquareSet.empty();
  private beeps: { readonly frequency: number; readonly duration: number }[] = [];
  private forbidden: ReceivedCommand[] = [];

  constructor(options: ChessnutEmulatorOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.link = options.link ?? 'usb';
    this.board = [...(options.squares ?? START_SQUARES)];
    if (this.board.length !== 64)
      throw new TypeError(`squares must have 64 entries, got ${this.board.length}`);
    this.board.forEach(c => this.codeOf(c));
    this.battery = options.battery ?? { percent: 80, charging: false };
    this.mcuVersion = options.mcuVersion ?? 'CN_DVT9_210659';
    this.bleVersion = options.bleVersion ?? 'CNCA100_V201';
    this.running = options.started ?? false;
  }

  get squares(): readonly SquareContent[] {
    return this.board;
  }

  get litSquares(): SquareSet {
    return this.lit;
  }

  get started(): boolean {
    return this.running;
  }

  /** Beeps requested so far. */
  get beepLog(): readonly { readonly frequency: number; readonly duration: number }[] {
    return this.beeps;
  }

  /** Commands received that the daemon must never send (stored-game transfer), for assertions. */
  get forbiddenLog(): readonly ReceivedCommand[] {
    return this.forbidden;
  }

  /** The position report the board sends now. */
  positionReport(): Uint8Array {
    const codes = NIBBLE_SQUARE.map(board => this.codeOf(this.board[orientSquare(board, this.orientation)]));
    const trailer = this.link === 'usb' ? new Array<number>(USB_TRAILER_LENGTH).fill(0) : BLE_TRAILER;
    return makeMessage({ kind: 'position', header: 0, codes, trailer });
  }

  /** One output report from the host; returns the input reports it causes. Bad reports are ignored. */
  receive(report: Uint8Array): Uint8Array[] {
    const r = parseCommand(report, { orientation: this.orientation });
    if (r.isErr) return [];
    const c = r.value;
    const ack = makeMessage({ kind: 'ack', code: 0 });
    switch (c.kind) {
      case 'start':
        this.running = true;
        return [ack, this.positionReport()];
      case 'leds':
        this.lit = c.squares;
        return [ack];
      case 'beep':
        this.beeps.push({ frequency: c.frequency, duration: c.duration });
        return [];
      case 'version':
        return [
          makeMessage({
            kind: 'version',
            which: c.which,
            text: c.which === 'mcu' ? this.mcuVersion : this.bleVersion,
          }),
        ];
      case 'battery': {
        const level = (this.battery.percent & 0x7f) | (this.battery.charging ? 0x80 : 0);
        return [makeMessage({ kind: 'battery', level, status: this.battery.charging ? 1 : 0 })];
      }
      case 'game-count':
        return [makeMessage({ kind: 'game-count', count: 0 })];
      case 'device-name':
      case 'device-time':
        // Reply formats unknown (UNVERIFIED): stay silent.
        return [];
      case 'forbidden':
        this.forbidden.push(c);
        return [];
    }
  }

  /** Power lost (cable pulled): LEDs off, silent again until the next start command (§3.7 step 6). */
  powerCycle(): void {
    this.running = false;
    this.lit = SquareSet.empty();
  }

  /** Changes one square; returns the position report when in real-time mode. */
  apply(event: SquareEvent): Uint8Array[] {
    this.codeOf(event.content);
    this.board[event.square] = event.content;
    return this.running ? [this.positionReport()] : [];
  }

  private codeOf(c: SquareContent | undefined): number {
    const code = c === undefined ? 0 : codeFromContent(c);
    if (code === undefined) throw new TypeError(`a Chessnut board cannot report ${JSON.stringify(c)}`);
    return code;
  }
}
