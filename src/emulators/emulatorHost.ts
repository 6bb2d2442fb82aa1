/**
 * Serves the DGT board emulator on a real serial line: a socat PTY pair whose device end the
 * emulator holds (through SerialTransport and serialport) and whose host end a daemon opens like
 * any board. The `disconnect` fault kills the PTY pair and restarts it, which the daemon sees as
 * an unplugged cable; the emulator reopens its end when the pair returns.
 *
 *   const board = new EmulatedBoardOnPty({ hostPath: `${dir}/dgt`, devicePath: `${dir}/emu`, emulator: new DgtBoardEmulator() });
 *   await board.start(); // the daemon can now open `${dir}/dgt`
 *   await board.runner.play(steps); await board.stop();
 */
import type { DgtBoardEmulator } from '../drivers/dgt/emulator.js';
import type { DgtBusLine } from '../drivers/dgt/emulatorBus.js';
import { DgtEmulatorRunner, type DgtEmulatorRunnerOptions } from '../drivers/dgt/emulatorRunner.js';
import { PtyPair } from './ptyPair.js';
import { SerialTransport } from '../drivers/transport/serial.js';

export interface EmulatedBoardOptions extends Omit<
  DgtEmulatorRunnerOptions,
  'transport' | 'disconnect' | 'emulator'
> {
  /** Link name the daemon opens. */
  readonly hostPath: string;
  /** Link name the emulator opens. */
  readonly devicePath: string;
  readonly emulator: DgtBoardEmulator | DgtBusLine;
  /** socat executable; default `socat` from PATH. */
  readonly socat?: string;
}

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms));

export class EmulatedBoardOnPty {
  readonly pair: PtyPair;
  readonly runner: DgtEmulatorRunner;
  /** The emulator's end of the pair. */
  readonly transport: SerialTransport;

  constructor(options: EmulatedBoardOptions) {
    this.pair = new PtyPair({
      hostPath: options.hostPath,
      devicePath: options.devicePath,
      ...(options.socat !== undefined && { socat: options.socat }),
    });
    this.transport = new SerialTransport({ path: options.devicePath });
    this.runner = new DgtEmulatorRunner({
      ...options,
      transport: this.transport,
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
    await this.pull();
    await sleep(forMs);
    await this.plugBack();
  }

  private lossesAtPull = 0;

  /** Pulls the cable: kills the PTY pair. */
  async pull(): Promise<void> {
    this.lossesAtPull = this.runner.stats.linkLosses;
    await this.pair.stop();
  }

  /**
   * Plugs the cable back: a new PTY pair. An emulator end that never saw the old pair go is
   * reopened on the new one: a PTY whose other side vanished does not always fail its reads
   * (seen under load: the daemon's end reported the loss, the emulator's stayed open and deaf).
   */
  async plugBack(): Promise<void> {
    await this.pair.start();
    if (this.runner.stats.linkLosses === this.lossesAtPull) await this.transport.close();
  }
}
