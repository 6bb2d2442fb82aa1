/**
 * Acceptance point 2 for Chessnut: the emulated board behind the in-process HID device (position
 * reports every 200 ms and on every change) plays 50 corpus games handled as people handle
 * pieces, the session turns the reports into observations, and the recogniser gives back exactly
 * the original moves, with no false correction, mismatch or result.
 */
import { describe, expect, it } from 'vitest';
import { ChessnutEmulator } from '../../../src/drivers/chessnut/emulator.js';
import { chessnutBoard } from '../../../src/drivers/chessnut/emulatorRunner.js';
import { chessnutSession$ } from '../../../src/drivers/chessnut/session.js';
import { createInProcessHid } from '../../../src/drivers/transport/hidMemory.js';
import { type BoardUnderTest, corpusSample, playThroughRecognition } from '../transport/recognitionRig.js';

const CHESSNUT: BoardUnderTest = {
  name: 'Chessnut',
  warmupMs: 1000,
  build: scheduler => {
    const hid = createInProcessHid({
      scheduler,
      info: { vendorId: 0x2d80, productId: 0x8501, usagePage: 0xff00 },
    });
    return {
      board: chessnutBoard(new ChessnutEmulator()),
      session: transport => chessnutSession$(transport, { scheduler, device: hid.info }),
      tickMs: 50,
      link: { host: hid.host, device: hid.device },
    };
  },
};

describe('Chessnut: 50 corpus games through the in-process HID device, the session and the recogniser', () => {
  it('every game comes back with exactly the original moves', () => {
    const games = corpusSample(50);
    expect(games).toHaveLength(50);
    const failures: string[] = [];
    let plies = 0;
    games.forEach(({ label, game }, i) => {
      const r = playThroughRecognition(CHESSNUT, game, 300 + i);
      plies += r.plies;
      if (r.problems.length > 0) failures.push(`${label}: ${r.problems[0]}`);
    });
    expect(failures).toEqual([]);
    expect(plies).toBeGreaterThan(3000);
  });
});
