/**
 * The Millennium emulator core as an `EmulatedBoard` for the board emulator runner: replies to
 * commands, `s` reports on change per register 02, and the timed report modes the core leaves to
 * its host: every scan (mode 0, the factory default: one report per scan time, register 01 ×
 * 2.048 ms) and every interval (mode 2, register 03 × 4.096 ms). A pulled cable resets the LEDs,
 * as the board restarts; the registers live in E2ROM and survive.
 *
 *   const board = new MillenniumEmulator({ parity: false }); // 7-bit bytes, as a 7O1 UART delivers them
 *   const runner = new BoardEmulatorRunner({ transport, board: millenniumBoard(board) });
 */
import type { EmulatedBoard } from '../emulatedBoard.js';
import { makeCommand } from './commands.js';
import type { MillenniumEmulator } from './emulator.js';
import { REGISTER, REPORT_MODE } from './protocol.js';

/** Register 01 unit (2.048 ms) and register 03 unit (4.096 ms), §1.5. */
const SCAN_UNIT_MS = 2.048;
const INTERVAL_UNIT_MS = 4.096;
/** Register 01 below 15 counts as 20 (§1.5). */
const MIN_SCAN = 15;
const DEFAULT_SCAN = 20;

export interface MillenniumBoardOptions {
  /** Scan period in ms instead of register 01's (e.g. slower on a test PTY). */
  readonly scanMs?: number;
}

export const millenniumBoard = (
  emulator: MillenniumEmulator,
  options: MillenniumBoardOptions = {},
): EmulatedBoard => {
  let lastReport = -Infinity;
  const period = (): number | undefined => {
    const mode = emulator.register(REGISTER.REPORT_MODE) & 0x07;
    if (mode === REPORT_MODE.EVERY_SCAN) {
      if (options.scanMs !== undefined) return options.scanMs;
      const reg = emulator.register(REGISTER.SCAN_TIME);
      return (reg < MIN_SCAN ? DEFAULT_SCAN : reg) * SCAN_UNIT_MS;
    }
    if (mode === REPORT_MODE.INTERVAL)
      return Math.max(1, emulator.register(REGISTER.REPORT_INTERVAL)) * INTERVAL_UNIT_MS;
    return undefined;
  };
  const nonEmpty = (b: Uint8Array): Uint8Array[] => (b.length > 0 ? [b] : []);
  return {
    receive: bytes => nonEmpty(emulator.receive(bytes)),
    apply: event => nonEmpty(emulator.apply(event)),
    tick: now => {
      const p = period();
      if (p === undefined || now - lastReport < p) return [];
      lastReport = now;
      return [emulator.statusReport()];
    },
    powerCycle: () => {
      // `T` is what a restart does to the board's RAM: LEDs off, no reply.
      emulator.receive(makeCommand({ kind: 'reset' }));
    },
  };
};
