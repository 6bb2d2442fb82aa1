/**
 * Acceptance point 2 for the Millennium ChessLink: the emulated board (factory settings: the
 * session switches it to report-on-change) plays 50 corpus games handled as people handle pieces,
 * its session turns the status reports into observations, and the recogniser gives back exactly
 * the original moves, with no false correction, mismatch or result.
 */
import { describe, expect, it } from 'vitest';
import { MillenniumEmulator } from '../../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../../src/drivers/millennium/emulatorRunner.js';
import { millenniumSession$ } from '../../../src/drivers/millennium/session.js';
import { type BoardUnderTest, corpusSample, playThroughRecognition } from '../transport/recognitionRig.js';

const MILLENNIUM: BoardUnderTest = {
  name: 'Millennium',
  warmupMs: 2000,
  build: scheduler => ({
    board: millenniumBoard(new MillenniumEmulator()),
    session: transport => millenniumSession$(transport, { scheduler }),
    tickMs: 50,
  }),
};

describe('Millennium: 50 corpus games through the emulator, the session and the recogniser', () => {
  const games = corpusSample(50);

  it('samples 50 games from the standard start, with en passant, promotions and castling on both sides', () => {
    expect(games).toHaveLength(50);
    expect(games.some(g => g.game.moves.some(m => m.san.includes('=')))).toBe(true);
    expect(
      games.some(g => g.game.moves.some(m => /^[a-h]x[a-h][36]$/.test(m.san) && m.uci.length === 4)),
    ).toBe(true);
  });

  it('every game comes back with exactly the original moves', () => {
    const failures: string[] = [];
    let plies = 0;
    games.forEach(({ label, game }, i) => {
      const r = playThroughRecognition(MILLENNIUM, game, 100 + i);
      plies += r.plies;
      if (r.problems.length > 0) failures.push(`${label}: ${r.problems[0]}`);
    });
    expect(failures).toEqual([]);
    expect(plies).toBeGreaterThan(3000);
  });
});
