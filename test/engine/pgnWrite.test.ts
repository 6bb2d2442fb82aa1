import { describe, expect, it } from 'vitest';
import { Game } from '../../src/engine/game.js';
import { readPgn } from '../../src/engine/pgnRead.js';
import { escapeTagValue, makeClock, makePgn, wrapTokens } from '../../src/engine/pgnWrite.js';

const play = (g: Game, ...sans: string[]): Game => sans.reduce((acc, san) => acc.playSan(san).unwrap(), g);

describe('makePgn', () => {
  it('writes the Seven Tag Roster in order, other tags sorted, then the movetext and result', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Qh5', 'Nc6', 'Bc4', 'Nf6', 'Qxf7');
    const text = makePgn(g, {
      tags: {
        White: 'Carlsen, Magnus',
        Black: 'Caruana, Fabiano',
        Termination: 'normal',
        TimeControl: '40/5400:1800+30',
        Event: 'Test',
      },
      result: '1-0',
    });
    expect(text).toBe(
      [
        '[Event "Test"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "Carlsen, Magnus"]',
        '[Black "Caruana, Fabiano"]',
        '[Result "1-0"]',
        '[Termination "normal"]',
        '[TimeControl "40/5400:1800+30"]',
        '',
        '1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0',
        '',
      ].join('\n'),
    );
  });

  it('writes [%clk h:mm:ss] and comments, repeating the move number after a comment', () => {
    const g = Game.standard()
      .playSan('d4', { clockMs: 5_399_999 })
      .chain(x => x.playSan('Nf6', { clockMs: 5_395_000, comment: 'a {tricky} one' }))
      .chain(x => x.playSan('c4', { clockMs: 3_601_000, elapsedMs: 61_000 }))
      .unwrap();
    const movetext = makePgn(g, { elapsed: true }).split('\n\n')[1];
    expect(movetext).toBe(
      '1. d4 { [%clk 1:29:59] } 1... Nf6 { [%clk 1:29:55] a tricky one } 2. c4 {\n[%clk 1:00:01] [%emt 0:01:01] } *\n',
    );
    expect(makePgn(g, { clocks: false, comments: false }).split('\n\n')[1]).toBe('1. d4 Nf6 2. c4 *\n');
  });

  it('escapes tag values and refuses invalid tag names', () => {
    expect(escapeTagValue('The "Fox" \\ Co\n')).toBe('The \\"Fox\\" \\\\ Co ');
    const text = makePgn(Game.standard(), { tags: { Event: 'A "quoted" \\ event' } });
    expect(text).toContain('[Event "A \\"quoted\\" \\\\ event"]');
    expect(readPgn(text)[0]!.unwrap().headers.get('Event')).toBe('A "quoted" \\ event');
    expect(() => makePgn(Game.standard(), { tags: { 'Bad Tag': 'x' } })).toThrow(TypeError);
  });

  it('writes SetUp and FEN for a game from a position, with Black to move first', () => {
    const g = play(Game.fromFen('4k3/8/8/8/8/8/4P3/4K3 b - - 3 40').unwrap(), 'Kd7', 'e4');
    const text = makePgn(g);
    expect(text).toContain('[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 3 40"]');
    expect(text).toContain('[SetUp "1"]');
    expect(text).toContain('40... Kd7 41. e4 *');
  });

  it('writes Variant Chess960 for Chess960 games', () => {
    const g = play(Game.fromFen('4k3/8/8/8/8/8/8/R4K1R w HA - 0 1', { chess960: true }).unwrap(), 'O-O');
    const text = makePgn(g);
    expect(text).toContain('[Variant "Chess960"]');
    expect(readPgn(text)[0]!.unwrap().game.fenAt(1)).toBe(g.fenAt(1));
  });

  it('keeps every movetext line within 80 characters over a long game', () => {
    let g = Game.standard();
    const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8'];
    for (let i = 0; i < 60; i++) g = g.playSan(shuffle[i % 4]!, { clockMs: 100_000 * i }).unwrap();
    const lines = makePgn(g)
      .split('\n')
      .filter(l => !l.startsWith('['));
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(80);
    expect(readPgn(makePgn(g))[0]!.unwrap().game.length).toBe(60);
  });
});

describe('helpers', () => {
  it.each([
    [0, '0:00:00'],
    [999, '0:00:00'],
    [59_999, '0:00:59'],
    [3_600_000, '1:00:00'],
    [5_400_000, '1:30:00'],
    [-5, '0:00:00'],
  ])('makeClock(%i) = %s', (ms, text) => expect(makeClock(ms)).toBe(text));

  it('wraps at word boundaries', () => {
    expect(wrapTokens(['aaaa', 'bbbb', 'cccc'], 9)).toEqual(['aaaa bbbb', 'cccc']);
  });
});
