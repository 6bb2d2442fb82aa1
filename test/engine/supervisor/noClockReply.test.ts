/**
 * Without a clock, a reply seen under way makes the move it answers final (found by the
 * independent handling model, bench/humanCheck.ts, twic1256.pgn #963 and #23, seed 2, 1 s dwell,
 * stressed frequencies). The move stood less than the quiet time; the reply took its piece off
 * first, then its capturer rested on a square (or a ghost of the captured piece registered) so
 * that the board looked like one of the move's transient positions followed by a capture, and the
 * move was revised to it: the record ended wrong and a displaced-pieces or illegal-position alert
 * followed. A takeback the board shows standing is still read.
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] => scriptEvents(script, 'no-clock-reply.cbs');

// White's rook rests 1.1 s on f5 (a check) on its way to g5 and stands there 2 s; Black takes it
// off g5, lifts his rook from b5, rests it on d5 and f5, and lands on g5.
const ROOK = `@edition E23
@start 8/1p3p2/p4kp1/Pr2R2p/5P1P/6P1/8/6K1 w - - 3 35
0    e5 -
452  f5 R
1554 f5 -
2040 g5 R
4032 g5 -
4910 b5 -
5129 d5 r
6286 d5 -
6552 f5 r
7375 f5 -
7916 g5 r
`;

describe('a move without a clock, final once the reply captures it', () => {
  it('Re5-f5-g5, then ...Rb5 taken via d5 and f5 to g5: never revised to Rf5+ Rxf5', () => {
    const events = run(ROOK);
    expect(publishedSans(events)).toEqual(['Rg5', 'Rxg5']);
    const revised = events.filter(e => e.type === 'correction' && e.moves.some(m => m.san === 'Rf5+'));
    expect(revised).toEqual([]);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
    // Judged once the reply was seen under way (the rook stood on d5), before it went on: the stop
    // on f5 is the move's evidence, a possible 4.7 finding, as before.
    const release = events.find(e => e.type === 'finding' && e.code === 'release');
    expect(release).toMatchObject({ ply: 1, grade: 'possible', at: 6286 });
  });

  it("Black's queen slides e1-f2-g3; White takes it off, recaptures Qxg3, the queen ghosts on f2: Qg3+ stays", () => {
    const script = `@edition E23
@start b7/P5pk/7p/4Qp2/4n3/4P2P/6PK/4q3 b - - 0 48
0    e1 -
33   f2 q
105  f2 -
136  g3 q
2600 g3 -
3724 e5 -
4336 g3 Q
4628 f2 q
5006 f2 -
5348 e4 -
5893 g3 -
6100 g3 n
`;
    const events = run(script);
    expect(publishedSans(events)).toEqual(['Qg3+', 'Qxg3', 'Nxg3']);
    expect(events.filter(e => e.type === 'correction')).toEqual([]);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
  });

  it('a takeback the board then shows standing is still read, below the final move', () => {
    // After ...Rb5-d5 (Rg5 final) both rooks go back: the position before Rg5 stands.
    const events = run(`${ROOK.split('\n').slice(0, 9).join('\n')}
6000 d5 -
6300 b5 r
6800 e5 R
`);
    const takeback = events.find(e => e.type === 'correction' && e.reason === 'takeback');
    expect(takeback).toMatchObject({ fromPly: 1, moves: [] });
    expect(publishedSans(events)).toEqual([]);
    // As every takeback the board shows, it is the arbiter's to confirm (a board mismatch).
    expect(events.flatMap(e => (e.type === 'alert' ? [e.code] : []))).toEqual(['board-mismatch']);
  });
});
