/**
 * What a Millennium, Certabo or Chessnut emulator core must offer to be served on a transport
 * (every result is a list of writes, or of HID reports). Each board adapts its core to it
 * (millennium/emulatorRunner.ts and its siblings); the board emulator runner of src/emulators
 * (boardEmulatorHost.ts) serves it. Declared here, beside the cores, so the drivers need nothing
 * of the emulators.
 *
 *   const board: EmulatedBoard = millenniumBoard(new MillenniumEmulator());
 *   board.apply({ square: 12, content: { kind: 'empty' } }, now); // what the board sends about it
 */
import type { SquareEvent } from './observationExtra.js';

export interface EmulatedBoard {
  /** Bytes (or one report) from the host → the board's replies. */
  receive(bytes: Uint8Array, now: number): readonly Uint8Array[];
  /** A square changed at the board → what the board sends about it (maybe nothing). */
  apply(event: SquareEvent, now: number): readonly Uint8Array[];
  /** Called every tick → the board's periodic output. */
  tick(now: number): readonly Uint8Array[];
  /** The cable was pulled: forget what a power cycle forgets (LEDs, real-time mode). */
  powerCycle(): void;
}
