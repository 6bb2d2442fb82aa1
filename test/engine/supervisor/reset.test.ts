/**
 * The pieces set up again after the game (src/engine/recognition/reset.ts). A game ends on the
 * board without the board seeing its result (a resignation, an agreed draw), and the players put
 * the pieces back in the starting position. Before: a board showing the start position for the
 * quiet time was read as a takeback of the whole game (the record published as empty, a
 * `board-mismatch`), and a press on it as an illegal move (7.5.1). The first pieces taken home
 * could be read as moves (...Ng8 Ng1, the "king moves invented at game end" of other software).
 */
import { describe, expect, it } from 'vitest';
import type { GameEvent } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { scriptEvents } from '../../support/boardScript.js';

const run = (script: string): readonly GameEvent[] => scriptEvents(`@edition E23\n${script}`, 'reset.cbs');
const alerts = (events: readonly GameEvent[]) =>
  events.flatMap(e => (e.type === 'alert' ? [[e.code, e.text[0]?.key]] : []));

// 1. e4 e5 2. Nf3 Nf6 3. Nc3: Black to move, resigns.
const GAME = `0     e2 -
300   e4 P
2300  e7 -
2600  e5 p
5000  g1 -
5300  f3 N
8000  g8 -
8300  f6 n
12000 b1 -
12300 c3 N
`;
const PRESSED = `@timecontrol 5400+30
0     e2 -
300   e4 P
500   press white
2300  e7 -
2600  e5 p
2800  press black
5000  g1 -
5300  f3 N
5500  press white
8000  g8 -
8300  f6 n
8500  press black
12000 b1 -
12300 c3 N
12500 press white
`;
// The pieces go home: Black's knight first (...Ng8 is legal), then White's (Ng1 is too), then
// the rest, none of which is a move.
const HOME = `30000 f6 -
30400 g8 n
31500 f3 -
31900 g1 N
33000 c3 -
33400 b1 N
34500 e4 -
34800 e2 P
35500 e5 -
35800 e7 p
`;
const RECORD = ['e4', 'e5', 'Nf3', 'Nf6', 'Nc3'];

describe('the pieces set up again after the game', () => {
  it('without a clock: the record is kept, the knights taken home are no moves, one request for the result', () => {
    const events = run(`${GAME}${HOME}60000 tick\n`);
    expect(publishedSans(events)).toEqual(RECORD);
    expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
    expect(events.some(e => e.type === 'correction' && e.reason === 'takeback')).toBe(false);
  });

  it('with a clock: the same, and presses on the set-up board are no illegal move', () => {
    const events = run(`${PRESSED}${HOME}37000 press black\n39000 press white\n60000 tick\n`);
    expect(publishedSans(events)).toEqual(RECORD);
    expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
    expect(events.some(e => e.type === 'end')).toBe(false);
  });

  it('the players going over the game again on the same board add nothing to it', () => {
    const events = run(`${GAME}${HOME}40000 e2 -\n40300 e4 P\n41000 e7 -\n41300 e5 p\n60000 tick\n`);
    expect(publishedSans(events)).toEqual(RECORD);
    expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
  });

  it('a last move that went home and stood (made with a draw offer) is kept', () => {
    // 3...Ng8, the opponent thinks it over for 20 s, agrees; the pieces are set up again.
    const events = run(
      `${PRESSED}15000 f6 -\n15300 g8 n\n35000 f3 -\n35400 g1 N\n36500 c3 -\n36900 b1 N\n37500 e4 -\n37800 e2 P\n38500 e5 -\n38800 e7 p\n60000 tick\n`,
    );
    expect(publishedSans(events)).toEqual([...RECORD, 'Ng8']);
    expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
  });

  it('an alert raised while the board was being cleared is withdrawn once it is set up', () => {
    const events = run(
      `${GAME}30000 c3 -\n30300 b1 N\n31000 e4 -\n31300 e2 P\n40000 f3 -\n40300 g1 N\n41000 f6 -\n41300 g8 n\n42000 e5 -\n42300 e7 p\n60000 tick\n`,
    );
    const raised = events.find(e => e.type === 'alert' && e.code !== 'arbiter-decision-needed');
    expect(raised?.type).toBe('alert');
    expect(events.some(e => e.type === 'alert-withdrawn' && e.alert === raised?.seq)).toBe(true);
    expect(publishedSans(events)).toEqual(RECORD);
  });

  it('the arbiter enters the result: the game ends with the record kept', () => {
    const events = run(`${PRESSED}${HOME}50000 arbiter result 1-0 resignation\n60000 tick\n`);
    expect(publishedSans(events)).toEqual(RECORD);
    expect(events.flatMap(e => (e.type === 'end' ? [e.result] : []))).toEqual(['1-0']);
  });

  it('the arbiter restores the last ply: the board is read again once it shows that position', () => {
    const events = run(`${GAME}${HOME}50000 arbiter restore 5
51000 e2 -\n51200 e4 P\n51500 e7 -\n51700 e5 p\n52000 g1 -\n52200 f3 N\n52500 g8 -\n52700 f6 n\n53000 b1 -\n53200 c3 N
56000 f8 -\n56300 c5 b\n60000 tick\n`);
    expect(publishedSans(events)).toEqual([...RECORD, 'Bc5']);
  });

  it("a flag that falls after the pieces were set up is the arbiter's, never a result", () => {
    const events = run(
      `@timecontrol 60\n${PRESSED.replace('@timecontrol 5400+30\n', '')}${HOME}200000 tick\n`,
    );
    expect(publishedSans(events)).toEqual(RECORD);
    expect(events.some(e => e.type === 'end')).toBe(false);
    expect(alerts(events)).toEqual([
      ['arbiter-decision-needed', 'board.reset'],
      ['arbiter-decision-needed', 'flag.unseen_reset'],
    ]);
  });

  it('two plies taken back to the start position are still a takeback (not a game)', () => {
    const events = run(
      `0 e2 -\n300 e4 P\n2300 e7 -\n2600 e5 p\n5000 e5 -\n5300 e7 p\n5600 e4 -\n5900 e2 P\n15000 tick\n`,
    );
    expect(publishedSans(events)).toEqual([]);
    expect(events.some(e => e.type === 'correction' && e.reason === 'takeback')).toBe(true);
  });
  it('moves the arbiter recorded, with the pieces still in the starting position, are no reset nor taken back', () => {
    // The board never showed the recorded line (a game kept from the scoresheet). Before, the
    // board's start position was read as a takeback of the arbiter's moves after the quiet time.
    const events = run(`0 arbiter moves 0 e4 e5 Nf3\n20000 tick\n`);
    expect(publishedSans(events)).toEqual(['e4', 'e5', 'Nf3']);
    expect(alerts(events)).toEqual([]);
  });
  it('set up while the link was down: the board read back in the starting position is the same, not a takeback', () => {
    const events = run(
      `${PRESSED}15000 lost\n40000 back\n40100 snapshot rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\n70000 tick\n`,
    );
    expect(publishedSans(events)).toEqual(RECORD);
    expect(alerts(events)).toEqual([
      ['board-missing', 'board.link_lost'],
      ['arbiter-decision-needed', 'board.reset'],
    ]);
  });
  describe('a board cleared only in part', () => {
    // The knights go home (...Ng8 and Ng1 are legal moves), then White's other knight and Black's
    // e-pawn: two pieces of each side back on their squares, and the rest left.
    const PART = `30000 f6 -\n30400 g8 n\n31500 f3 -\n31900 g1 N\n33000 c3 -\n33400 b1 N\n35500 e5 -\n35800 e7 p\n`;

    it('left so: the same request for the result, no displaced pieces, the record kept', () => {
      const events = run(`${GAME}${PART}60000 tick\n`);
      expect(publishedSans(events)).toEqual(RECORD);
      expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
    });

    it('with a press on it: no illegal move', () => {
      const events = run(`${PRESSED}${PART}37000 press black\n38000 press white\n60000 tick\n`);
      expect(publishedSans(events)).toEqual(RECORD);
      expect(alerts(events)).toEqual([['arbiter-decision-needed', 'board.reset']]);
      expect(events.some(e => e.type === 'end')).toBe(false);
    });

    it('one piece of each side back home in play is still judged as before', () => {
      // Only the two knights back (read as ...Ng8 Ng1 and published): nothing set up, a game.
      const events = run(`${PRESSED}30000 f6 -\n30400 g8 n\n31500 f3 -\n31900 g1 N\n60000 tick\n`);
      expect(alerts(events)).toEqual([]);
      expect(publishedSans(events)).toEqual([...RECORD, 'Ng8', 'Ng1']);
    });
  });
});
