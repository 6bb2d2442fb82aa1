/**
 * The board-script language: errors name the file and line, durations and edition lists, digests
 * of every event type, and printing reads back to the same script.
 */
import { describe, expect, it } from 'vitest';
import type { GameEventBody } from '../../../src/engine/events.js';
import {
  makeDigest,
  parseDuration,
  parseEditions,
  parseScript,
  printScript,
  runScript,
} from '../../../src/engine/script/index.js';
import { cite } from '../../../src/engine/types.js';

describe('parseScript errors', () => {
  it.each([
    ['bad square', '0 e9 -', 1, 'bad square "e9"'],
    ['bad content', '@edition E23\n0 e2 X', 2, 'bad square content "X"'],
    ['unknown directive', '@colour white', 1, 'unknown directive "@colour"'],
    ['directive after an event', '0 tick\n@edition E09', 2, 'directives come before the first event'],
    ['time going back', '500 tick\n400 tick', 2, 'earlier than the previous event'],
    ['bad colour', '0 press green', 1, 'bad colour "green"'],
    ['unknown claim', '0 claim white stalemate', 1, 'unknown claim "stalemate"'],
    ['unknown edition', '@edition E02', 1, 'unknown edition "E02"'],
    ['bad snapshot', '0 snapshot rnbqkbnr/pp', 1, 'bad snapshot board'],
    ['unknown arbiter decision', '0 arbiter dance', 1, 'unknown arbiter decision "dance"'],
  ])('%s: names the file and line', (_what, text, line, reason) => {
    const r = parseScript(text, 'games/s01.cbs');
    expect(r.isErr).toBe(true);
    if (r.isOk) return;
    expect(r.error.line).toBe(line);
    expect(r.error.file).toBe('games/s01.cbs');
    expect(r.error.message.startsWith(`games/s01.cbs:${line}: `)).toBe(true);
    expect(r.error.reason).toContain(reason);
  });
});

describe('script values', () => {
  it.each([
    ['1500', 1500],
    ['5:00', 300_000],
    ['1:30:00', 5_400_000],
  ])('duration %s', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it('edition lists: E14+ and all', () => {
    expect(parseEditions(['E14+'])).toEqual(['E14', 'E17', 'E18', 'E23']);
    expect(parseEditions(['E97', 'all'])).toEqual(['E97', 'E09', 'E14', 'E17', 'E18', 'E23']);
  });

  it('relative times, several squares on a line, comments, and Qxf7# in an expected line', () => {
    const s = parseScript(
      '@edition E23 # current\n100 e1 - h1 -\n+200 tick\n> move 1 Qxf7# "x" # note',
      'a.cbs',
    ).unwrap();
    expect(s.inputs.map(i => [i.line, i.input.kind, i.input.at])).toEqual([
      [2, 'square', 100],
      [2, 'square', 100],
      [3, 'tick', 300],
    ]);
    expect(s.expected[0]?.tokens).toEqual(['move', '1', 'Qxf7#']);
    expect(s.expected[0]?.detail).toBe('x');
  });
});

describe('digests', () => {
  const a = cite('E23', '4.3.1');
  it.each<[GameEventBody, string]>([
    [{ type: 'move', ply: 3, san: 'Bc4', uci: 'f1c4', fen: '' }, 'move 3 Bc4'],
    [{ type: 'correction', fromPly: 2, moves: [], reason: 'takeback' }, 'correction 2 takeback'],
    [{ type: 'clock', whiteMs: 1, blackMs: 2, running: undefined }, 'clock 1 2 none'],
    [
      { type: 'alert', code: 'touch-move', article: a, color: 'white', detail: '', text: [] },
      'alert touch-move 4.3.1 white',
    ],
    [
      { type: 'claim', by: 'black', claim: 'threefold', status: 'valid', article: cite('E23', '9.2') },
      'claim black threefold valid 9.2',
    ],
    [{ type: 'offer', by: 'white', status: 'made' }, 'offer white made'],
    [
      { type: 'end', result: '1-0', reason: 'checkmate', article: cite('E23', '5.1.1') },
      'end 1-0 checkmate 5.1.1',
    ],
  ])('%#: %s', (event, digest) => {
    expect(makeDigest(event)).toBe(digest);
  });
});

describe('running a script', () => {
  it('reports the first difference with the script line', () => {
    const s = parseScript('@edition E23\n0 e2 -\n200 e4 P\n> move 1 d4\n', 'x.cbs').unwrap();
    const [runE23] = runScript(s);
    expect(runE23?.failures).toEqual(['x.cbs [E23] line 4: expected "move 1 d4", got "move 1 e4"']);
  });

  it('prints a script that reads back the same', () => {
    const text =
      '@edition E09 E23\n@timecontrol 300+2\n@moves e4\n0 e7 -\n200 e5 p\n> [E23] move 2 e5\n900 arbiter twohands black\n';
    const s = parseScript(text, 'p.cbs').unwrap();
    const again = parseScript(printScript(s), 'p.cbs').unwrap();
    expect(again.header).toEqual(s.header);
    expect(again.inputs.map(i => i.input)).toEqual(s.inputs.map(i => i.input));
  });
});
