/**
 * Serves a Millennium or Certabo emulator core on a real serial line: a socat PTY pair whose
 * device end the emulator holds through SerialTransport and serialport (with the board's link
 * settings, 7O1 included) and whose host end a daemon opens like any board. The `disconnect`
 * fault kills the PTY pair and starts it again, which the daemon sees as an unplugged cable.
 *
 *   const board = new SerialBoardOnPty({ hostPath: `${dir}/board`, devicePath: `${dir}/emu`, board: millenniumBoard(core), serial: millenniumSerialOptions('7O1') });
 *   await board.start(); // the daemon can now open `${dir}/board`
 *   await board.runner.play(steps); await board.stop();
 *
 * A PTY takes the 7O1 settings (serialport sets CS7 | PARENB | PARODD) but passes every byte
 * through unchanged: bit 7 is neither stripped nor checked. A core that writes parity in bit 7
 * therefore reaches a 7O1 reader with it, and one that writes 7-bit bytes (what a real 7O1 UART
 * delivers) reaches it clean; the Millennium decoder's 'auto' parity reads both.
 */
import { BoardEmulatorRunner, type BoardEmulatorRunnerOptions } from './boardEmulatorHost.js';
import { PtyPair } from './ptyPair.js';
import { SerialTransport, type SerialTransportOptions } from '../drivers/transport/serial.js';

export interface SerialBoardOnPtyOptions extends Omit<
  BoardEmulatorRunnerOptions,
  'transport' | 'disconnect'
> {
  /** Link name the daemon opens. */
  readonly hostPath: string;
  /** Link name the emulator opens. */
  readonly devicePath: string;
  /** Line settings of the emulator's end (baud, data bits, parity, stop bits); default 8N1. */
  readonly serial?: Omit<SerialTransportOptions, 'path' | 'now' | 'lock'>;
  /** socat executable; default `socat` from PATH. */
  readonly socat?: string;
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms));

export class SerialBoardOnPty {
  readonly pair: PtyPair;
  readonly runner: BoardEmulatorRunner;

  constructor(options: SerialBoardOnPtyOptions) {
    this.pair = new PtyPair({
      hostPath: options.hostPath,
      devicePath: options.devicePath,
      ...(options.socat !== undefined && { socat: options.socat }),
    });
    this.runner = new BoardEmulatorRunner({
      ...options,
      transport: new SerialTransport({ ...options.serial, path: options.devicePath }),
      disconnect: ms => this.unplug(ms),
    });
  }

  get hostPath(): string {
    return this.pair.hostPath;
  }

  /** Starts the PTY pair and the emulator. */
  async start(): Promise<void> {
    await this.pair.start();
    this.runner.start();
  }

  /** Stops the emulator and the PTY pair (no socat is left running). */
  async stop(): Promise<void> {
    await this.runner.stop();
    await this.pair.stop();
  }

  /** Pulls the cable: kills the PTY pair, waits `forMs` (real time), starts it again. */
  async unplug(forMs: number): Promise<void> {
    await this.pair.stop();
    await sleep(forMs);
    await this.pair.start();
  }
}
