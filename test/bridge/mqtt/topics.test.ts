// Topic names and filters: every name we publish to is built by makeTopic, which refuses what
// MQTT forbids in a topic name (MQTT 5 §4.7: wildcards, and NUL) and what we forbid (empty levels).
import { describe, expect, it } from 'vitest';
import {
  makePayload,
  makeTopic,
  makeTopics,
  matchesFilter,
  TOPIC_OPTIONS,
} from '../../../src/bridge/mqtt/topics.js';

describe('makeTopic', () => {
  it('joins a base and levels', () => {
    expect(makeTopic('chessbridge', 'games', 'r1-b3', 'events')).toBe('chessbridge/games/r1-b3/events');
    expect(makeTopic('venue/hall-a', 'alerts')).toBe('venue/hall-a/alerts');
  });

  it.each([
    [['chessbridge', 'games', '+'], 'wildcard "+" in level "+"'],
    [['chessbridge', 'games', 'a#b'], 'wildcard "#" in level "a#b"'],
    [['chessbridge', 'games', ''], 'empty level'],
    [['chessbridge', 'games', 'r1/b3'], '"/" inside level "r1/b3"'],
    [['chessbridge', 'x\u0000y'], 'NUL character'],
    [['chess//bridge', 'alerts'], 'invalid topic base "chess//bridge": empty level'],
    [['', 'alerts'], 'invalid topic base "": empty level'],
    [['$SYS', 'alerts'], 'starts with "$"'],
  ])('refuses %j: %s', (args, problem) => {
    const [base, ...levels] = args as [string, ...string[]];
    expect(() => makeTopic(base, ...levels)).toThrow(TypeError);
    expect(() => makeTopic(base, ...levels)).toThrow(problem);
  });
});

describe('makeTopics', () => {
  const t = makeTopics();

  it('builds every topic of the map under the default base', () => {
    expect([
      t.bridgeState().name,
      t.bridgeInfo().name,
      t.bridgeHealth().name,
      t.boardState('b1').name,
      t.game('g1').name,
      t.gameEvents('g1').name,
      t.gamePgn('g1').name,
      t.alerts().name,
      t.request('start_game').name,
      t.response('start_game').name,
      t.requestFilter,
    ]).toEqual([
      'chessbridge/bridge/state',
      'chessbridge/bridge/info',
      'chessbridge/bridge/health',
      'chessbridge/boards/b1/state',
      'chessbridge/games/g1',
      'chessbridge/games/g1/events',
      'chessbridge/games/g1/pgn',
      'chessbridge/alerts',
      'chessbridge/bridge/request/start_game',
      'chessbridge/bridge/response/start_game',
      'chessbridge/bridge/request/#',
    ]);
  });

  it('refuses an id that would become a wildcard', () => {
    expect(() => t.gameEvents('#')).toThrow(TypeError);
    expect(() => makeTopics('a/+')).toThrow('invalid topic base "a/+"');
  });

  it('publishes state, snapshots and PGN retained; events and alerts QoS 1 not retained', () => {
    expect(TOPIC_OPTIONS['bridge/state']).toEqual({ qos: 1, retain: true });
    expect(TOPIC_OPTIONS['games/<game>']).toEqual({ qos: 1, retain: true });
    expect(TOPIC_OPTIONS['games/<game>/pgn']).toEqual({ qos: 1, retain: true });
    expect(TOPIC_OPTIONS['boards/<board>/state']).toEqual({ qos: 1, retain: true });
    expect(TOPIC_OPTIONS['games/<game>/events']).toEqual({ qos: 1, retain: false });
    expect(TOPIC_OPTIONS.alerts).toEqual({ qos: 1, retain: false });
  });

  it('sends PGN as text and everything else as JSON', () => {
    expect(makePayload(t.gamePgn('g1'), '1. e4 *')).toBe('1. e4 *');
    expect(makePayload(t.bridgeState(), { state: 'online' })).toBe('{"state":"online"}');
  });
});

describe('matchesFilter', () => {
  it.each([
    ['a/+/c', 'a/b/c', true],
    ['a/+/c', 'a/b/d', false],
    ['a/#', 'a', true],
    ['a/#', 'a/b/c', true],
    ['a/+', 'a/b/c', false],
    ['a/b', 'a/b', true],
    ['a/b', 'a/b/c', false],
    ['+/x', '$SYS/x', false],
    ['#', '$SYS/x', false],
    ['chessbridge/bridge/request/#', 'chessbridge/bridge/request/start_game', true],
  ])('%s matches %s: %s', (filter, topic, expected) => {
    expect(matchesFilter(filter, topic)).toBe(expected);
  });
});
