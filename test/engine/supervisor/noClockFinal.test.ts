/**
 * Without a clock a move becomes final once it has stood for the quiet time (found by the
 * independent handling model, bench/humanCheck.ts, kasparov.pgn #1058 seed 1, no clock, default
 * frequencies). Before, it stayed revisable until the reply was published: the captured rook,
 * carried off after ...Rxd8, registered for 0.35 s on d7, where it had rested on its way, and the
 * rook's move that had stood 14 s was republished as Rd7.
 */
import { describe, expect, it } from 'vitest';
import { parseScript, runScript } from '../../../src/engine/script/index.js';

describe('a move without a clock, final once it has stood', () => {
  it('Rd5-d6-d7xd8+ stands 14 s; the captured rook ghosting on d7 after ...Rxd8 revises nothing', () => {
    const script = `@edition E23
@start r2r2k1/pp3p1p/2n1p1p1/3R4/4PP2/1P3P2/P4K1P/1B1R4 w - - 0 24
0     d5 -
163   d6 R
1321  d6 -
1498  d7 R
2346  d7 -
2836  d8 -
3047  d8 R
17148 a8 -
17522 d8 r
17819 d7 R
18172 d7 -
`;
    const run = runScript(parseScript(script, 'no-clock-ghost.cbs').unwrap())[0];
    const events = run?.events ?? [];
    // Nothing published about ply 1 once it has stood, and the record is the game's.
    const late = events.filter(e => (e.type === 'move' || e.type === 'correction') && e.at > 10000);
    expect(late.map(e => (e.type === 'move' ? `${e.ply} ${e.san}` : e.type))).toEqual(['2 Rxd8']);
    let record: string[] = [];
    for (const e of events) {
      if (e.type === 'move') record = [...record.slice(0, e.ply - 1), e.san];
      if (e.type === 'correction') record = [...record.slice(0, e.fromPly - 1), ...e.moves.map(m => m.san)];
    }
    expect(record).toEqual(['Rxd8+', 'Rxd8']);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });
});
