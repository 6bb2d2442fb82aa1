/**
 * The LiveChess protocol layer: calls as ../shared/reference/broadcast-sites.md §5 gives them
 * (the Lichess board page's and the livechess client libraries'), bad calls, and the feed's
 * rule of sending board, clock and start only when they changed.
 */
import { describe, expect, it } from 'vitest';
import {
  type BoardEvent,
  feedParamOf,
  makeError,
  makeFeed,
  makeReply,
  parseCall,
} from '../../../src/bridge/livechess/protocol.js';
import { fullBucket, takeToken } from '../../../src/bridge/tokenBucket.js';

describe('parseCall', () => {
  // The reference's calls, word for word.
  it.each([
    ['{"id":1,"call":"eboards"}', { kind: 'eboards', id: 1 }],
    ['{"id":3,"call":"sources"}', { kind: 'sources', id: 3 }],
    [
      '{"id":2,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{"serialnr":"24100"}}}',
      { kind: 'subscribe', id: 2, feed: 1, serialnr: '24100' },
    ],
    ['{"id":4,"call":"unsubscribe","param":{"id":1}}', { kind: 'unsubscribe', id: 4, feed: 1 }],
    [
      '{"id":5,"call":"call","param":{"id":1,"method":"setup","param":{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}}}',
      { kind: 'setup', id: 5, feed: 1, fen: '8/8/8/8/8/8/8/8 w - - 0 1' },
    ],
    [
      '{"id":6,"call":"call","param":{"id":1,"method":"flip","param":{"flip":true}}}',
      { kind: 'flip', id: 6, feed: 1, flip: true },
    ],
  ])('%s', (text, call) => {
    expect(parseCall(text).unwrap()).toEqual(call);
  });

  it.each([
    ['{not json', null, /^not JSON/],
    ['[1,2]', null, /a call is a JSON object/],
    ['{"call":"eboards"}', null, /^id:/],
    ['{"id":-1,"call":"eboards"}', null, /^id:/],
    ['{"id":7,"call":"reboot"}', 7, /unknown call "reboot"/],
    ['{"id":8,"call":"subscribe","param":{"feed":"clock","id":1}}', 8, /unknown feed "clock"/],
    ['{"id":9,"call":"subscribe","param":{"feed":"eboardevent","id":1,"param":{}}}', 9, /serialnr/],
    ['{"id":10,"call":"call","param":{"id":1,"method":"erase"}}', 10, /unknown method "erase"/],
    [
      '{"id":11,"call":"call","param":{"id":1,"method":"flip","param":{"flip":"yes"}}}',
      11,
      /flip: true or false/,
    ],
    ['{"id":12,"call":"call","param":{"id":"x","method":"setup"}}', 12, /feed id/],
    ['{"id":13,"call":"unsubscribe"}', 13, /feed id to end/],
  ])('refuses %s', (text, id, message) => {
    const r = parseCall(text);
    expect(r.isErr).toBe(true);
    if (r.isOk) return;
    expect(r.error.id).toBe(id);
    expect(r.error.message).toMatch(message);
  });
});

describe('replies', () => {
  it('carry the shapes of the reference', () => {
    expect(JSON.parse(makeReply(1, null, 5))).toEqual({ response: 'call', id: 1, param: null, time: 5 });
    expect(JSON.parse(makeError(2, 'no'))).toEqual({
      response: 'error',
      id: 2,
      param: { message: 'no', stacktrace: '' },
    });
    const ev: BoardEvent = {
      serialnr: '1',
      flipped: false,
      board: 'x',
      clock: null,
      start: 's',
      san: [],
      match: true,
    };
    expect(JSON.parse(makeFeed(3, feedParamOf(undefined, ev)!, 9))).toEqual({
      response: 'feed',
      id: 3,
      param: { serialnr: '1', flipped: false, board: 'x', start: 's', san: [], match: true },
      time: 9,
    });
  });
});

describe('feedParamOf', () => {
  const base: BoardEvent = {
    serialnr: '24100',
    flipped: false,
    board: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR',
    clock: { white: 300, black: 300, run: null, time: 1 },
    start: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    san: [],
    match: true,
  };
  it('sends everything first, then only what changed; nothing when nothing did', () => {
    expect(Object.keys(feedParamOf(undefined, base)!)).toEqual([
      'serialnr',
      'flipped',
      'board',
      'clock',
      'start',
      'san',
      'match',
    ]);
    expect(feedParamOf(base, { ...base, clock: { ...base.clock!, time: 2 } })).toBeUndefined();
    const moved = { ...base, board: 'other', san: ['e4'] };
    expect(feedParamOf(base, moved)).toEqual({
      serialnr: '24100',
      flipped: false,
      board: 'other',
      san: ['e4'],
      match: true,
    });
    const ticking = { ...moved, clock: { white: 299, black: 300, run: true, time: 3 } };
    expect(feedParamOf(moved, ticking)).toEqual({
      serialnr: '24100',
      flipped: false,
      clock: { white: 299, black: 300, run: true, time: 3 },
      san: ['e4'],
      match: true,
    });
    expect(feedParamOf(ticking, { ...ticking, san: [] })?.san).toEqual([]); // a takeback
    expect(feedParamOf(ticking, { ...ticking, flipped: true })?.flipped).toBe(true);
  });
});

describe('token bucket (the LiveChess message rate)', () => {
  it('gives a burst, then the rate', () => {
    const bucket = fullBucket(3, 0);
    const b = { take: (now: number) => takeToken(bucket, now, 2, 3) };
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([true, true, true, false]);
    expect(b.take(499)).toBe(false);
    expect(b.take(500)).toBe(true);
  });
});
