/**
 * The Certabo emulator core as an `EmulatedBoard` for the board emulator runner: the board
 * streams a frame line every `frameMs` without being asked (reference §2.3: about twice a second,
 * possibly faster, errata 4), sends the next frame at once after a change, and acknowledges LED
 * commands with `L` / `D` lines.
 *
 *   const board = new CertaboEmulator({ noise: { seed: 1, squares: 6 } });
 *   const runner = new BoardEmulatorRunner({ transport, board: certaboBoard(board, { frameMs: 500 }) });
 */
import type { EmulatedBoard } from '../emulatedBoard.js';
import type { CertaboEmulator } from './emulator.js';

export interface CertaboBoardOptions {
  /** Time between two streamed frames, ms; default 500. */
  readonly frameMs?: number;
}

export const certaboBoard = (emulator: CertaboEmulator, options: CertaboBoardOptions = {}): EmulatedBoard => {
  const frameMs = options.frameMs ?? 500;
  let last = -Infinity;
  return {
    receive: bytes => {
      const acks = emulator.receive(bytes);
      return acks.length > 0 ? [acks] : [];
    },
    apply: (event, now) => {
      last = now;
      return [emulator.apply(event)];
    },
    tick: now => {
      if (now - last < frameMs) return [];
      last = now;
      return [emulator.frame()];
    },
    powerCycle: () => undefined,
  };
};
