/**
 * Acceptance point 2 for Certabo: the emulated RFID board (a frame line every 500 ms and one at
 * once after a change, its tag set calibrated) plays 50 corpus games handled as people handle
 * pieces (blitz tempo included), the session maps the frames through the calibration and votes
 * them (a known tag at once, a square going empty after two frames), and the recogniser gives
 * back exactly the original moves, with no false correction, mismatch or result. Clock presses
 * go to the recogniser at their own time: the session stamps each square with when the board
 * first showed it.
 */
import { describe, expect, it } from 'vitest';
import { CertaboEmulator } from '../../../src/drivers/certabo/emulator.js';
import { certaboBoard } from '../../../src/drivers/certabo/emulatorRunner.js';
import { certaboSession$ } from '../../../src/drivers/certabo/session.js';
import { memoryCalibrationStore } from '../../../src/drivers/certabo/sessionCalibration.js';
import { type BoardUnderTest, corpusSample, playThroughRecognition } from '../transport/recognitionRig.js';

const CERTABO: BoardUnderTest = {
  name: 'Certabo',
  warmupMs: 2000,
  build: scheduler => {
    const core = new CertaboEmulator();
    return {
      board: certaboBoard(core, { frameMs: 500 }),
      session: transport =>
        certaboSession$(transport, { scheduler, calibration: memoryCalibrationStore(core.calibration) }),
      tickMs: 100,
    };
  },
};

describe('Certabo: 50 corpus games through the emulator, the session and the recogniser', () => {
  it('every game comes back with exactly the original moves', () => {
    const games = corpusSample(50);
    expect(games).toHaveLength(50);
    const failures: string[] = [];
    let plies = 0;
    games.forEach(({ label, game }, i) => {
      const r = playThroughRecognition(CERTABO, game, 200 + i);
      plies += r.plies;
      if (r.problems.length > 0) failures.push(`${label}: ${r.problems[0]}`);
    });
    expect(failures).toEqual([]);
    expect(plies).toBeGreaterThan(3000);
  });
});
