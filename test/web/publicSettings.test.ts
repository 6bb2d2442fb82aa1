/**
 * How a public page (display, round page) learns the broadcast delay (web/shared/live.js
 * `publicSettings`, run in Node): with a delay it reads the public topics; a page served without
 * the daemon's API keeps its settings; a failing API (the daemon restarting, a proxy's 502, a
 * network error) is asked again with a growing wait, and the page never falls back to the live
 * topics meanwhile. The pages through the daemon are in test/web/publicDisplay.test.ts.
 */
import { describe, expect, it } from 'vitest';

interface Settings {
  readonly transport: string;
  readonly url: string;
  readonly base: string;
  readonly delayMs?: number;
}
type PublicSettings = (
  settings: Settings,
  fetchInfo: () => Promise<Response>,
  wait: (ms: number) => Promise<void>,
  protocol: string,
) => Promise<Settings>;
const live = new URL('../../web/shared/live.js', import.meta.url).href;
const { publicSettings } = (await import(live)) as { publicSettings: PublicSettings };

const MQTT: Settings = { transport: 'mqtt', url: 'ws://hall:9001/mqtt', base: 'chessbridge' };
const DELAY = { delay_ms: 900_000, public_base: 'chessbridge/public', public_events: '/events/public' };
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers in order; records the waits asked for. */
const script = (...answers: (() => Response)[]) => {
  const waits: number[] = [];
  let asked = 0;
  const fetchInfo = (): Promise<Response> => {
    const next = answers[asked++];
    if (next === undefined) throw new Error('asked once too often');
    return Promise.resolve().then(next);
  };
  const wait = (ms: number): Promise<void> => {
    waits.push(ms);
    return Promise.resolve();
  };
  return { fetchInfo, wait, waits, asked: () => asked };
};

describe('publicSettings', () => {
  it('reads the public topics and the delay when the daemon has one', async () => {
    const s = script(() => json(DELAY));
    expect(await publicSettings(MQTT, s.fetchInfo, s.wait, 'http:')).toEqual({
      ...MQTT,
      base: 'chessbridge/public',
      delayMs: 900_000,
    });
    const none = script(() => json({ delay_ms: 0 }));
    expect(await publicSettings(MQTT, none.fetchInfo, none.wait, 'http:')).toEqual({ ...MQTT, delayMs: 0 });
  });

  it('keeps its settings when served without the daemon (404, or opened as a file)', async () => {
    const s = script(() => new Response('no such page', { status: 404 }));
    expect(await publicSettings(MQTT, s.fetchInfo, s.wait, 'https:')).toBe(MQTT);
    const file = script();
    expect(await publicSettings(MQTT, file.fetchInfo, file.wait, 'file:')).toBe(MQTT);
    expect(file.asked()).toBe(0);
  });

  it('asks again after a 502, a network error or a body that is not JSON, and never takes the live topics', async () => {
    const s = script(
      () => new Response('bad gateway', { status: 502 }),
      () => {
        throw new TypeError('network error');
      },
      () => new Response('<html>', { status: 200 }),
      () => new Response('restarting', { status: 503 }),
      () => new Response('restarting', { status: 503 }),
      () => new Response('restarting', { status: 503 }),
      () => json(DELAY),
    );
    const got = await publicSettings(MQTT, s.fetchInfo, s.wait, 'http:');
    expect(got.base).toBe('chessbridge/public');
    expect(s.asked()).toBe(7);
    expect(s.waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000]);
  });
});
