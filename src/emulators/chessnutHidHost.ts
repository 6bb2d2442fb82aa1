/**
 * A Chessnut board served as an in-process HID device: the pure emulator core behind
 * `createInProcessHid`, driven by the board emulator runner (200 ms position reports, answers to
 * commands, timed scripts, faults). The `disconnect` fault unplugs the device for that long and
 * plugs it back, which the session sees as the board pulled out and returned.
 *
 *   const board = new EmulatedChessnutOnHid({ scheduler });
 *   board.start();
 *   chessnutSession$(board.port, { scheduler, device: board.port.info }).subscribe(…);
 *   await board.runner.play(scriptFromSans(['e4', 'e5']).unwrap().steps); await board.stop();
 */
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ChessnutEmulator, type ChessnutEmulatorOptions } from '../drivers/chessnut/emulator.js';
import { chessnutBoard } from '../drivers/chessnut/emulatorRunner.js';
import { USB_VENDOR_ID } from '../drivers/chessnut/protocol.js';
import { BoardEmulatorRunner, type BoardEmulatorRunnerOptions } from './boardEmulatorHost.js';
import type { HidDeviceInfo } from '../drivers/transport/hidBackend.js';
import { createInProcessHid, type InProcessHid } from '../drivers/transport/hidMemory.js';

export interface EmulatedChessnutOptions extends Omit<
  BoardEmulatorRunnerOptions,
  'transport' | 'board' | 'disconnect'
> {
  /** The core, or options for a new one (default: USB link, start position). */
  readonly emulator?: ChessnutEmulator | ChessnutEmulatorOptions;
  /** Time between unasked position reports, ms; default 200. */
  readonly reportMs?: number;
  /** How the device lists itself; default a Chessnut Air (2D80:8001, usage page FF00). */
  readonly info?: Partial<HidDeviceInfo>;
  readonly latencyMs?: number;
}

export class EmulatedChessnutOnHid {
  readonly core: ChessnutEmulator;
  readonly hid: InProcessHid;
  readonly runner: BoardEmulatorRunner;
  private readonly scheduler: SchedulerLike;

  constructor(options: EmulatedChessnutOptions = {}) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.core =
      options.emulator instanceof ChessnutEmulator
        ? options.emulator
        : new ChessnutEmulator(options.emulator);
    this.hid = createInProcessHid({
      scheduler: this.scheduler,
      ...(options.latencyMs !== undefined && { latencyMs: options.latencyMs }),
      info: {
        vendorId: USB_VENDOR_ID,
        productId: 0x8001,
        usagePage: 0xff00,
        product: 'ChessAir',
        manufacturer: 'Chessnut',
        ...options.info,
      },
    });
    this.runner = new BoardEmulatorRunner({
      ...options,
      transport: this.hid.device,
      board: chessnutBoard(this.core, options.reportMs !== undefined ? { reportMs: options.reportMs } : {}),
      disconnect: ms => this.unplug(ms),
    });
  }

  /** What the daemon opens (a HidPort, like HidTransport). */
  get port(): InProcessHid['host'] {
    return this.hid.host;
  }

  start(): void {
    this.runner.start();
  }

  async stop(): Promise<void> {
    await this.runner.stop();
  }

  /** Pulls the board out for `forMs` (scheduler time), then plugs it back (on the scheduler, so virtual time works). */
  unplug(forMs: number): Promise<void> {
    this.hid.unplug();
    return new Promise(resolve => {
      this.scheduler.schedule(() => {
        this.hid.plug();
        resolve();
      }, forMs);
    });
  }
}
