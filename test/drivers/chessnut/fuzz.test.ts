/**
 * A smaller run of scripts/fuzzBoards.ts (which defaults to 1,000,000 bytes) for the Chessnut
 * decoder: random bytes in random chunks never make it throw, never grow its buffer past the cap
 * (also with a small cap), never cost a planted valid frame, and a frame after the garbage decodes.
 */
import { describe, expect, it } from 'vitest';
import { fuzzPassed, runBoardFuzz } from '../../../scripts/fuzzBoards.js';

describe('Chessnut decoder fuzz', () => {
  it.each([1, 2])('survives 100,000 random bytes (seed %i)', seed => {
    const r = runBoardFuzz('chessnut', { bytes: 100_000, seed });
    expect(r.exception).toBeUndefined();
    expect(r.maxBuffered).toBeLessThanOrEqual(r.bufferCap);
    expect(r.smallCapMaxBuffered).toBeLessThanOrEqual(r.smallCap);
    expect(r.variantMaxBuffered).toBeLessThanOrEqual(r.variantBufferCap);
    expect(r.plantedFrames).toBeGreaterThan(20);
    expect(r.plantedDecoded).toBe(r.plantedFrames);
    expect(r.smallCapPlantedDecoded).toBe(r.plantedFrames);
    expect(r.variantPlantedDecoded).toBe(r.plantedFrames);
    expect(r.tailDecoded).toBe(true);
    expect(r.chunkingIndependent).toBe(true);
    // The fuzz must reach the error paths, not only garbage.
    expect(Object.keys(r.errorKinds)).toEqual(
      expect.arrayContaining(['unknown-message', 'incomplete', 'bad-length', 'bad-field']),
    );
    expect(fuzzPassed(r)).toBe(true);
  });
});
