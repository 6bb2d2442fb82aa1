/**
 * The Chessnut emulator core as an `EmulatedBoard` for the board emulator runner: one HID
 * report in, the board's reports out; once started, a position report every `reportMs` whether
 * or not anything changed (reference §3.7 step 4: about every 200 ms) and one at once after a
 * change. A pulled cable stops real-time mode until the host sends the start command again.
 *
 *   const board = new ChessnutEmulator({ link: 'usb' });
 *   const runner = new BoardEmulatorRunner({ transport: device, board: chessnutBoard(board) });
 */
import type { EmulatedBoard } from '../emulatedBoard.js';
import type { ChessnutEmulator } from './emulator.js';

export interface ChessnutBoardOptions {
  /** Time between two unasked position reports, ms; default 200. */
  readonly reportMs?: number;
}

export const chessnutBoard = (
  emulator: ChessnutEmulator,
  options: ChessnutBoardOptions = {},
): EmulatedBoard => {
  const reportMs = options.reportMs ?? 200;
  let last = -Infinity;
  return {
    receive: (report, now) => {
      const out = emulator.receive(report);
      if (out.length > 0 && emulator.started) last = now;
      return out;
    },
    apply: (event, now) => {
      const out = emulator.apply(event);
      if (out.length > 0) last = now;
      return out;
    },
    tick: now => {
      if (!emulator.started || now - last < reportMs) return [];
      last = now;
      return [emulator.positionReport()];
    },
    powerCycle: () => emulator.powerCycle(),
  };
};
