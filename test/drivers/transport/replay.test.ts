/**
 * ReplayTransport: a capture file played back read by read with its recorded times, paced on
 * a scheduler or all at once, with the session's writes recorded for assertions.
 */
import { map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { DgtDecoder } from '../../../src/drivers/dgt/codec.js';
import { dgtSession$ } from '../../../src/drivers/dgt/session.js';
import { makeCapture } from '../../../src/drivers/capture.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { ReplayTransport } from '../../../src/drivers/transport/replay.js';
import type { Chunk } from '../../../src/drivers/transport/transport.js';

// The capture-format example (docs/capture-format.md): a dump, then e2-e4 with the second
// update split over two reads.
const CAPTURE = `# DGT e-Board, recorded for a test
0      86 00 43 08 09 0A 0C 0B 0A 09 08 07 07 07 07 07 07 07 07 ${'00 '.repeat(32)} 01 01 01 01 01 01 01 01 02 03 04 06 05 04 03 02
1840   8E 00 05 34 00
2010.5 8E 00
2011.5 05 24 01
`;

const scheduler = () => new TestScheduler((a, b) => expect(a).toEqual(b));

describe('ReplayTransport', () => {
  it('rejects a bad capture with the line number', () => {
    const r = ReplayTransport.fromText('0 8E 00\n5 zz\n');
    expect(r.isErr && r.error.message).toBe('line 2: not hex byte pairs: "zz"');
  });

  it('emits every read at once with its recorded time, then completes', () => {
    const replay = ReplayTransport.fromText(CAPTURE).unwrap();
    let chunks: Chunk[] = [];
    replay.bytes$.pipe(toArray()).subscribe(c => (chunks = c));
    expect(chunks.map(c => c.at)).toEqual([0, 1840, 2010.5, 2011.5]);
    expect(chunks.map(c => c.bytes.length)).toEqual([67, 5, 2, 3]);
  });

  it('paces reads at the speed factor on the scheduler', () => {
    const ts = scheduler();
    ts.run(({ expectObservable }) => {
      const replay = ReplayTransport.fromText(CAPTURE, { speed: 0.5, scheduler: ts }).unwrap();
      // Half speed: the reads come out at 0, 3680, 4021 and 4023 ms, stamped with their recorded times.
      const at$ = replay.bytes$.pipe(map(c => c.at));
      expectObservable(at$).toBe('a 3679ms b 340ms c 1ms (d|)', { a: 0, b: 1840, c: 2010.5, d: 2011.5 });
    });
  });

  it('decodes to the same observations as the reads fed to a decoder directly', () => {
    const replay = ReplayTransport.fromText(CAPTURE).unwrap();
    const viaTransport: Observation[] = [];
    const d1 = new DgtDecoder();
    replay.bytes$.subscribe(c => viaTransport.push(...d1.push(c.bytes, c.at)));
    const d3 = new DgtDecoder();
    const reads = [
      ...CAPTURE.split('\n')
        .filter(l => /^\d/.test(l))
        .map(l => {
          const [at, ...hex] = l.trim().split(/\s+/);
          return { at: Number(at), bytes: Uint8Array.from(hex.map(h => parseInt(h, 16))) };
        }),
    ];
    const expected = reads.flatMap(r => d3.push(r.bytes, r.at));
    expect(viaTransport).toEqual(expected);
    expect(viaTransport.map(o => o.type)).toEqual(['snapshot', 'square', 'square']);
  });

  it('records what a session writes (lastWrite) and the session completes with the capture', () => {
    const ts = scheduler();
    ts.run(({ flush }) => {
      // Reads are paced from the first one: a clock reading at 0, the version at 400 ms.
      const text = makeCapture([
        { at: 0, bytes: Uint8Array.of(0x8d, 0x00, 0x0a, 0x20, 0x03, 0x02, 0x20, 0x03, 0x01, 0x09) },
        { at: 400, bytes: Uint8Array.of(0x93, 0x00, 0x05, 0x03, 0x0a) },
        { at: 700, bytes: Uint8Array.of(0x8e, 0x00, 0x05, 0x34, 0x00) },
      ]);
      const replay = ReplayTransport.fromText(text, { speed: 1, scheduler: ts }).unwrap();
      let completed = false;
      const seen: Observation[] = [];
      dgtSession$(replay, { scheduler: ts }).subscribe({
        next: o => seen.push(o),
        complete: () => (completed = true),
      });
      flush();
      expect(completed).toBe(true);
      expect(seen.map(o => o.type)).toEqual(['link', 'clock', 'identity', 'square']);
      // Handshake at 300 ms (mode), 400 (version), 500 (serial), 600 (dump request, mode again).
      expect(replay.writes.map(w => w.bytes[0])).toEqual([0x4b, 0x4d, 0x45, 0x42]);
      expect(replay.lastWrite).toEqual(Uint8Array.of(0x42, 0x4b));
    });
  });
});
