/** What each role may publish and read on the embedded broker, and the request topics it writes. */
import { describe, expect, it } from 'vitest';
import {
  maySubscribe,
  originAllowed,
  publishVerdict,
  readRequestTopic,
} from '../../../src/bridge/mqtt/brokerAccess.js';

const attempt = (
  role: 'daemon' | 'arbiter' | 'operator' | 'display' | 'broadcast',
  topic: string,
  retain = false,
) => publishVerdict({ role, user: 'u1', base: 'cb', topic, retain, sender: 'web-1@192.0.2.4' });

describe('publishing', () => {
  it('lets only the daemon publish games, boards and bridge state, retained or not', () => {
    for (const topic of [
      'cb/games/r1-b1',
      'cb/boards/b1/state',
      'cb/bridge/state',
      'cb/bridge/info',
      'cb/alerts',
    ])
      for (const retain of [false, true]) {
        expect(attempt('daemon', topic, retain)).toEqual({ ok: true, topic });
        for (const role of ['arbiter', 'operator', 'display', 'broadcast'] as const)
          expect(attempt(role, topic, retain).ok).toBe(false);
      }
  });

  it('writes who sent a request into its topic, for arbiters and operators only', () => {
    expect(attempt('arbiter', 'cb/bridge/request/set_result')).toEqual({
      ok: true,
      topic: 'cb/bridge/request/u1/set_result/web-1%40192.0.2.4',
    });
    expect(attempt('operator', 'cb/bridge/request/u1/start_game')).toEqual({
      ok: true,
      topic: 'cb/bridge/request/u1/start_game/web-1%40192.0.2.4',
    });
    expect(attempt('display', 'cb/bridge/request/set_result')).toEqual({
      ok: false,
      why: 'display may not publish on cb/bridge/request/set_result',
    });
    // Another user's name, a forged sender, a retained request, the system topics: refused.
    expect(attempt('arbiter', 'cb/bridge/request/anna/set_result').ok).toBe(false);
    expect(attempt('arbiter', 'cb/bridge/request/u1/set_result/forged').ok).toBe(false);
    expect(attempt('arbiter', 'cb/bridge/request/set_result', true)).toEqual({
      ok: false,
      why: 'a request may not be retained (cb/bridge/request/set_result)',
    });
    expect(attempt('daemon', '$SYS/x').ok).toBe(false);
  });

  it('reads the sender back as the daemon sees it', () => {
    expect(readRequestTopic('cb', 'cb/bridge/request/u1/set_result/web-1%40192.0.2.4')).toEqual({
      user: 'u1',
      action: 'set_result',
      sender: 'web-1@192.0.2.4',
    });
    expect(readRequestTopic('cb', 'cb/bridge/request/u1/claim')).toEqual({ user: 'u1', action: 'claim' });
    expect(readRequestTopic('cb', 'cb/bridge/request/claim')).toEqual({ action: 'claim' });
    expect(readRequestTopic('cb', 'cb/bridge/request/u1/claim/%E0%A4%A')).toBeUndefined();
    expect(readRequestTopic('cb', 'cb/bridge/request//claim')).toBeUndefined();
    expect(readRequestTopic('cb', 'cb/games/r1-b1')).toBeUndefined();
  });
});

describe('reading and origins', () => {
  it('keeps everyone but the daemon under the base', () => {
    expect(maySubscribe('display', 'cb', 'cb/#')).toBe(true);
    expect(maySubscribe('display', 'cb', '#')).toBe(false);
    expect(maySubscribe('arbiter', 'cb', '$SYS/#')).toBe(false);
    expect(maySubscribe('daemon', 'cb', '#')).toBe(true);
  });

  it('keeps displays and broadcast tools to the public topics while a delay is set', () => {
    for (const role of ['display', 'broadcast'] as const) {
      expect(maySubscribe(role, 'cb', 'cb/public/games/+', true)).toBe(true);
      expect(maySubscribe(role, 'cb', 'cb/public/#', true)).toBe(true);
      expect(maySubscribe(role, 'cb', 'cb/bridge/state', true)).toBe(true);
      expect(maySubscribe(role, 'cb', 'cb/#', true)).toBe(false);
      expect(maySubscribe(role, 'cb', 'cb/games/+', true)).toBe(false);
      expect(maySubscribe(role, 'cb', 'cb/+/games/+', true)).toBe(false);
      expect(maySubscribe(role, 'cb', 'cb/boards/+/state', true)).toBe(false);
      expect(maySubscribe(role, 'cb', 'cb/bridge/+', true)).toBe(false);
    }
    expect(maySubscribe('operator', 'cb', 'cb/games/+', true)).toBe(true);
    expect(maySubscribe('arbiter', 'cb', 'cb/#', true)).toBe(true);
  });

  it("accepts the daemon's own pages, listed origins and clients that are not browsers", () => {
    expect(originAllowed(undefined, 'hall:9001', [], 8080)).toBe(true);
    expect(originAllowed('http://hall:8080', 'hall:9001', [], 8080)).toBe(true);
    expect(originAllowed('http://evil.example', 'hall:9001', [], 8080)).toBe(false);
    expect(originAllowed('http://hall:8081', 'hall:9001', [], 8080)).toBe(false);
    expect(originAllowed('http://screens.local', 'hall:9001', ['http://screens.local'], 8080)).toBe(true);
    expect(originAllowed('http://hall:8080', 'hall:9001', [], undefined)).toBe(false);
  });
});
