import { describe, expect, it } from 'vitest';
import { makeBoardFen } from 'chessops/fen';
import { judgeRun } from '../../bench/humanModel/judge.js';
import { withOverrides, defaultParams } from '../../bench/humanModel/params.js';
import { playGame } from '../../bench/humanModel/play.js';
import { seededRng } from '../../bench/humanModel/rng.js';
import { contentsOf } from '../../bench/humanModel/timeline.js';
import { Game } from '../../src/engine/game.js';
import type { GameEvent } from '../../src/engine/events.js';
import type { SensedContent } from '../../src/engine/recognition/boardEvent.js';

// A line with every kind of move the model handles: en passant, a capture promotion, castling on both sides.
const SANS = 'e4 d5 e5 f5 exf6 Nc6 fxg7 Bf5 gxh8=Q Qd7 Nf3 O-O-O Bc4 e6 O-O'.split(' ');
const game = SANS.reduce((g, san) => g.playSan(san).unwrap(), Game.standard());
const busy = withOverrides(
  defaultParams,
  'stop=0.6,nextTo=0.6,captureStop=0.6,capturedFirst=30,ghost=0.5,repeatStop=1,adjust=0.3,blitz=0.3,replyBeforePress=0.1,castleBothInHand=1,epCapturedFirst=1,promoPawnFirst=0.5',
);

describe('independent handling model', () => {
  it('ends every run on the game final position, events in time order, with the presses of every ply', () => {
    const tags = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const played = playGame(game, seededRng(`line:${seed}`), busy, { clock: true });
      const board: SensedContent[] = contentsOf(game.positionAt(0).board);
      let last = -Infinity;
      for (const e of played.inputs) {
        expect(e.at).toBeGreaterThanOrEqual(last);
        last = e.at;
        if (e.kind === 'square') board[e.square] = e.piece;
      }
      expect(board).toEqual(contentsOf(game.positionAt(game.length).board));
      expect(played.inputs.filter(e => e.kind === 'press')).toHaveLength(SANS.length);
      for (const p of played.plies) for (const t of p.tags) tags.add(t);
    }
    // Fast hands and late press messages: the presses still alternate (a lever is a seesaw).
    const fast = withOverrides(
      busy,
      'replyBeforePress=0.3,placeBeforeLift=1,thinkMs=150-600,pressMs=10-40,travelMs=30-80',
    );
    for (let seed = 1; seed <= 40; seed++) {
      const played = playGame(game, seededRng(`fast:${seed}`), fast, { clock: true });
      const sides = played.inputs.flatMap(e => (e.kind === 'press' ? [e.side] : []));
      expect(sides).toEqual(SANS.map((_, i) => (i % 2 === 0 ? 'white' : 'black')));
    }
    for (const t of [
      'castle-both-in-hand',
      'ep-captured-first',
      'promo-pawn-first',
      'capture-captured-first',
      'stop-line',
      'stop-next-to',
      'ghost',
      'adjust',
      'reply-before-press',
    ])
      expect(tags).toContain(t);
  });

  it('a forgotten press: no press for that ply nor the reply (the lever is down), the forgetter presses next', () => {
    let forgotten = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const played = playGame(game, seededRng(`forget:${seed}`), withOverrides(busy, 'forgetPress=0.3'), {
        clock: true,
      });
      const sides = played.inputs.flatMap(e => (e.kind === 'press' ? [e.side] : []));
      // The presses still alternate, and each is the mover's of a ply traced as pressed.
      expect(sides).toEqual(sides.map((_, i) => (i % 2 === 0 ? 'white' : 'black')));
      const pressed = played.plies.filter(p => p.pressAt !== undefined);
      expect(pressed.map(p => (p.ply % 2 === 1 ? 'white' : 'black'))).toEqual(sides);
      played.plies.forEach((p, i) => {
        if (!p.tags.includes('forgot-press')) return;
        forgotten++;
        expect(p.pressAt).toBeUndefined();
        expect(played.plies[i + 1]?.tags).toContain('press-unreported');
        expect(played.plies[i + 1]?.pressAt).toBeUndefined();
      });
    }
    expect(forgotten).toBeGreaterThan(10);
  });

  it('knocks a piece over beside the destination and has it set up again in each of four ways', () => {
    const tags = new Set<string>();
    for (let seed = 1; seed <= 40; seed++) {
      const played = playGame(game, seededRng(`knock:${seed}`), withOverrides(busy, 'knock=0.4'), {
        clock: true,
      });
      const board: SensedContent[] = contentsOf(game.positionAt(0).board);
      for (const e of played.inputs) if (e.kind === 'square') board[e.square] = e.piece;
      // Every knocked piece is back by the end, and every ply was pressed for.
      expect(board).toEqual(contentsOf(game.positionAt(game.length).board));
      expect(played.inputs.filter(e => e.kind === 'press')).toHaveLength(SANS.length);
      for (const p of played.plies) for (const t of p.tags) if (t.startsWith('knock')) tags.add(t);
    }
    expect([...tags].sort()).toEqual([
      'knock-after-press',
      'knock-before-press',
      'knock-by-opponent',
      'knock-next-turn',
    ]);
    // With no knock, the weights of its ways draw nothing: the same handling as the defaults.
    const plain = playGame(game, seededRng('knock:0'), defaultParams, { clock: true });
    const weighted = playGame(game, seededRng('knock:0'), withOverrides(defaultParams, 'knockNextTurn=5'), {
      clock: true,
    });
    expect(weighted.inputs).toEqual(plain.inputs);
  });

  it('is deterministic per seed, and plays no press without a clock', () => {
    const a = playGame(game, seededRng('x:1'), defaultParams, { clock: true });
    const b = playGame(game, seededRng('x:1'), defaultParams, { clock: true });
    expect(a.inputs).toEqual(b.inputs);
    const c = playGame(game, seededRng('x:1'), defaultParams, { clock: false });
    expect(c.inputs.some(e => e.kind === 'press')).toBe(false);
    expect(makeBoardFen(game.positionAt(game.length).board)).toContain('2kr');
  });

  it('names a wrong override', () => {
    expect(() => withOverrides(defaultParams, 'stopp=1')).toThrow(/unknown key 'stopp'/);
    expect(() => withOverrides(defaultParams, 'stop=-1')).toThrow(/stop needs a number/);
    expect(() => withOverrides(defaultParams, 'thinkMs=900')).toThrow(/thinkMs needs a range/);
    expect(() => withOverrides(defaultParams, 'thinkMs=900-300')).toThrow(/thinkMs needs a range/);
  });

  it('sets a range from lo-hi, and frequencies beside it', () => {
    const p = withOverrides(defaultParams, 'thinkMs=300-1500,pressMs=100-400,stop=0.2');
    expect(p.thinkMs).toEqual([300, 1500]);
    expect(p.pressMs).toEqual([100, 400]);
    expect(p.stop).toBe(0.2);
    expect(p.travelMs).toEqual(defaultParams.travelMs);
  });
});

describe('judging a run against the handling', () => {
  const plies = [
    { ply: 1, san: 'e4', beganAt: 1000, doneAt: 1500, pressAt: 2000, tags: [] },
    { ply: 2, san: 'e5', beganAt: 5000, doneAt: 5500, pressAt: 6000, tags: [] },
  ];
  const want = { sans: ['e4', 'e5'], end: undefined };
  let seq = 0;
  const move = (ply: number, san: string, at: number): GameEvent => ({
    type: 'move',
    ply,
    san,
    uci: '',
    fen: '',
    game: 'g',
    seq: ++seq,
    at,
  });

  it('a clean run is exact', () => {
    const v = judgeRun([move(1, 'e4', 1500), move(2, 'e5', 5500)], plies, want, { clock: true });
    expect(v.exact).toBe(true);
  });

  it('a ply published before its handling began is invented', () => {
    const v = judgeRun([move(1, 'e4', 1500), move(2, 'e6', 1600), move(2, 'e5', 5500)], plies, want, {
      clock: true,
    });
    expect([v.invented, v.wrongRecord]).toEqual([true, false]);
  });

  it('with a press forgotten, the plies before the next press are settled too', () => {
    const forgot = [
      { ply: 1, san: 'e4', beganAt: 1000, doneAt: 1500, pressAt: undefined, tags: ['forgot-press'] },
      { ply: 2, san: 'e5', beganAt: 5000, doneAt: 5500, pressAt: undefined, tags: ['press-unreported'] },
      { ply: 3, san: 'Nf3', beganAt: 8000, doneAt: 8500, pressAt: 9000, tags: [] },
    ];
    const sans = { sans: ['e4', 'e5', 'Nf3'], end: undefined };
    const late = judgeRun([move(1, 'e4', 9000), move(2, 'e5', 9000), move(3, 'Nf3', 9000)], forgot, sans, {
      clock: true,
    });
    expect(late.exact).toBe(true);
    const short = judgeRun([move(1, 'e4', 1500), move(3, 'Nf3', 9500)], forgot.slice(0, 3), sans, {
      clock: true,
    });
    expect(short.lost).toBe(true);
  });

  it('plies taken back below the pressed ones are lost', () => {
    const back = {
      type: 'correction',
      fromPly: 1,
      moves: [],
      reason: 'takeback',
      game: 'g',
      seq: 9,
      at: 7000,
    };
    const v = judgeRun([move(1, 'e4', 1500), move(2, 'e5', 5500), back as GameEvent], plies, want, {
      clock: true,
    });
    expect([v.lost, v.wrongRecord, v.exact]).toEqual([true, true, false]);
  });
});
