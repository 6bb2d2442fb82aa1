/**
 * Acceptance 3 of the LiveChess API: 10,000 malformed and random messages from a seeded generator
 * (cut JSON, JSON that is no call, bad ids, unknown calls and methods, bad params, feeds that do
 * not exist, oversized and binary messages) sent to the daemon reading an emulated DGT board on a
 * PTY. Each gets an error reply, in order and with its id where it had one; the connection stays
 * open and answers a good call after them; another client, subscribed meanwhile, still receives
 * the moves played on the board.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeAllPtyPairs } from '../support/pty.js';
import { LcClient, type LiveChessVenue, move, startLiveChessVenue } from './livechessKit.js';

const COUNT = 10_000;
const MAX_BYTES = 4096;

/** mulberry32: a small seeded generator, so a failure replays. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

interface Case {
  readonly data: string | Buffer;
  /** The id the error reply must carry. */
  readonly id: number | null;
}

const makeCases = (seed: number): Case[] => {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const junk = (n: number): string =>
    Array.from({ length: n }, () => String.fromCharCode(1 + Math.floor(rnd() * 0x2fff))).join('');
  const weird = (): unknown =>
    pick([null, true, -1, 1.5, 'x', [], {}, { a: 1 }, 'eboardEvent', 2 ** 60, junk(3)]);
  const cases: Case[] = [];
  for (let i = 1; cases.length < COUNT; i++) {
    const good = {
      id: i,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 1, param: { serialnr: '24100' } },
    };
    switch (Math.floor(rnd() * 10)) {
      case 0: {
        const text = JSON.stringify(good);
        cases.push({ data: text.slice(0, 1 + Math.floor(rnd() * (text.length - 2))), id: null });
        break;
      }
      case 1:
        cases.push({ data: JSON.stringify(pick([null, 1, 'eboards', [good], true])), id: null });
        break;
      case 2:
        cases.push({
          data: JSON.stringify({ id: pick([-1, 1.5, 'one', null, [1]]), call: 'eboards' }),
          id: null,
        });
        break;
      case 3:
        cases.push({
          data: JSON.stringify({ id: i, call: pick(['', 'EBOARDS', 'reboot', junk(6)]) }),
          id: i,
        });
        break;
      case 4:
        cases.push({
          data: JSON.stringify({
            id: i,
            call: 'subscribe',
            param: { feed: weird(), id: 1, param: { serialnr: '24100' } },
          }),
          id: i,
        });
        break;
      case 5:
        cases.push({
          data: JSON.stringify({
            id: i,
            call: 'subscribe',
            param: {
              feed: 'eboardevent',
              id: 1,
              param: pick([weird(), { serialnr: pick(['NOPE', '', junk(70)]) }]),
            },
          }),
          id: i,
        });
        break;
      case 6:
        cases.push({
          data: JSON.stringify({
            id: i,
            call: 'call',
            param: {
              id: 1 + Math.floor(rnd() * 100),
              method: pick(['setup', 'flip', 'erase', weird()]),
              param: weird(),
            },
          }),
          id: i,
        });
        break;
      case 7:
        cases.push({
          data: JSON.stringify({ id: i, call: 'unsubscribe', param: pick([weird(), { id: 500 + i }]) }),
          id: i,
        });
        break;
      case 8:
        cases.push({ data: `{"id":${i},"call":"eboards","pad":"${'x'.repeat(MAX_BYTES)}"}`, id: null });
        break;
      case 9:
        cases.push(
          rnd() < 0.5
            ? { data: Buffer.from(junk(20)), id: null }
            : { data: `${pick(['<', '#', '\u0000', 'x'])}${junk(Math.floor(rnd() * 200))}`, id: null },
        );
        break;
    }
  }
  return cases;
};

let dir: string;
let venue: LiveChessVenue;
const clients: LcClient[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chessbridge-livechess-fuzz-'));
  venue = await startLiveChessVenue('dgt', dir, {
    maxMessageBytes: MAX_BYTES,
    messagesPerSecond: 100_000,
    burst: 100_000,
  });
}, 30_000);

afterAll(async () => {
  await Promise.all(clients.map(c => c.close()));
  await venue.stop();
  await closeAllPtyPairs();
  await rm(dir, { recursive: true, force: true });
});

it('10,000 malformed messages: an error reply to each, no crash, and another client keeps its feed', async () => {
  const watcher = await LcClient.open(venue.url);
  const fuzzer = await LcClient.open(venue.url);
  clients.push(watcher, fuzzer);
  watcher.send({
    id: 1,
    call: 'subscribe',
    param: { feed: 'eboardevent', id: 1, param: { serialnr: venue.serial } },
  });
  watcher.send({ id: 2, call: 'call', param: { id: 1, method: 'setup', param: { fen: 'startpos' } } });
  await watcher.next(m => m.id === 2, 'the refused setup');
  watcher.send({
    id: 3,
    call: 'call',
    param: {
      id: 1,
      method: 'setup',
      param: { fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' },
    },
  });
  await watcher.next(m => m.id === 3 && m.response === 'call', 'the setup');

  const cases = makeCases(20261204);
  const started = Date.now();
  for (const c of cases) fuzzer.ws.send(c.data, { binary: typeof c.data !== 'string' });
  // Moves on the board while the flood is read.
  const before = watcher.messages.length;
  const played = venue.play(move('e2', 'e4', 'P'));
  await fuzzer.next(() => fuzzer.messages.length >= COUNT, `${COUNT} replies`, 0, 5000);
  const ms = Date.now() - started;
  await played;
  expect(fuzzer.messages).toHaveLength(COUNT);
  const wrong = fuzzer.messages.flatMap((m, i) =>
    m.response === 'error' &&
    m.id === cases[i]?.id &&
    typeof (m.param as { message?: unknown }).message === 'string'
      ? []
      : [`${JSON.stringify(cases[i]?.data).slice(0, 200)} → ${JSON.stringify(m)}`],
  );
  expect(wrong).toEqual([]);
  expect(fuzzer.closed).toBeUndefined();
  fuzzer.send({ id: 99_999, call: 'eboards' });
  const reply = await fuzzer.next(m => m.id === 99_999, 'a good call after the flood');
  expect(reply.response).toBe('call');
  await watcher.next(
    m => m.response === 'feed' && JSON.stringify((m.param as { san: string[] }).san) === '["e4"]',
    'the move, on the other client',
    before,
  );
  expect(watcher.closed).toBeUndefined();
  expect(venue.lines().filter(l => l.includes('ERROR'))).toEqual([]);
  console.log(`${COUNT} malformed messages answered in ${ms} ms`);
}, 30_000);
