/**
 * A smaller run of scripts/fuzzDgt.ts (which defaults to 1,000,000 bytes): random bytes in
 * random-size chunks never make the decoders throw, never grow the buffer past its cap, and
 * never cost a valid frame that follows the garbage; the output does not depend on chunking.
 */
import { describe, expect, it } from 'vitest';
import { fuzzPassed, makeRng, runDgtFuzz } from '../../../scripts/fuzzDgt.js';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { makeMessage } from '../../../src/drivers/dgt/messages.js';

describe('DGT decoder fuzz', () => {
  it.each([1, 2])('survives 200,000 random bytes (seed %i)', seed => {
    const r = runDgtFuzz({ bytes: 200_000, seed });
    expect(r.exception).toBeUndefined();
    expect(r.maxBuffered).toBeLessThanOrEqual(r.bufferCap);
    expect(r.smallCapMaxBuffered).toBeLessThanOrEqual(r.smallCap);
    expect(r.plantedFrames).toBeGreaterThan(50);
    expect(r.plantedDecoded).toBe(r.plantedFrames);
    expect(r.smallCapPlantedDecoded).toBe(r.plantedFrames);
    expect(r.busPlantedDecoded).toBe(r.busPlanted);
    expect(r.tailDecoded).toBe(true);
    expect(r.chunkingIndependent).toBe(true);
    // The fuzz must reach the interesting paths, not only garbage.
    expect(Object.keys(r.errorKinds)).toEqual(
      expect.arrayContaining(['garbage', 'interrupted', 'bad-length', 'unknown-message', 'overflow']),
    );
    expect(fuzzPassed(r)).toBe(true);
  });

  it('decodes every frame of a frame-only stream cut at random points', () => {
    const rng = makeRng(7);
    const frames = Array.from({ length: 500 }, (_, i) =>
      makeMessage({ kind: 'field-update', field: i % 64, code: i % 13 }),
    );
    const stream = Uint8Array.from(frames.flatMap(f => Array.from(f)));
    const d = new DgtDecoder();
    let squares = 0;
    for (let i = 0; i < stream.length;) {
      const n = 1 + Math.floor(rng() * 12);
      const out = d.push(stream.subarray(i, i + n), i);
      expect(out.filter(o => o.type === 'protocol-error')).toEqual([]);
      squares += out.length;
      i += n;
    }
    expect(squares).toBe(500);
  });
});
