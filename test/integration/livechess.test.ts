/**
 * Acceptance 1 of the LiveChess API (docs/livechess-api.md): the message sequences of
 * ../shared/reference/broadcast-sites.md §5 against the daemon (in-process, `livechess.enabled`)
 * reading an emulated DGT board and an emulated Millennium board on socat PTY pairs. The Lichess
 * board page's: eboards (id 1), subscribe (id 2, feed 1) to the first board, setup, moves on the
 * board, a takeback; a livechess client's, logged in: sources, subscribe, flip, unsubscribe.
 * Every reply, error and feed message is checked against the reference's shapes; no feed ever
 * shows a move that was not played.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllPtyPairs } from '../support/pty.js';
import {
  ARBITER,
  DISPLAY,
  type Family,
  LcClient,
  type LcMessage,
  type LiveChessVenue,
  move,
  startLiveChessVenue,
} from './livechessKit.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const START_PLACEMENT = START.split(' ')[0];
const STATES = ['ACTIVE', 'INACTIVE', 'NOTRESPONDING', 'DELAYED', null];
const FEED_KEYS = ['serialnr', 'flipped', 'board', 'clock', 'start', 'san', 'match'];

const isClock = (c: unknown): boolean => {
  const k = c as Record<string, unknown>;
  return (
    typeof k.white === 'number' &&
    typeof k.black === 'number' &&
    (k.run === true || k.run === false || k.run === null) &&
    typeof k.time === 'number'
  );
};

/** `{"response":"call","id":N,"param":…,"time":MS}`. */
const expectReply = (m: LcMessage, id: number): void => {
  expect(Object.keys(m).sort()).toEqual(['id', 'param', 'response', 'time']);
  expect(m.response).toBe('call');
  expect(m.id).toBe(id);
  expect(typeof m.time).toBe('number');
};

/** `{"response":"error","id":N,"param":{"message":"…","stacktrace":"…"}}`. */
const expectError = (m: LcMessage, id: number | null, message: RegExp): void => {
  expect(m.response).toBe('error');
  expect(m.id).toBe(id);
  const p = m.param as Record<string, unknown>;
  expect(Object.keys(p).sort()).toEqual(['message', 'stacktrace']);
  expect(p.message).toMatch(message);
};

/** `{"response":"feed","id":F,"param":{serialnr, flipped, board?, clock?, start?, san, match},"time":MS}`. */
const expectFeed = (m: LcMessage, feed: number, serial: string): void => {
  expect(Object.keys(m).sort()).toEqual(['id', 'param', 'response', 'time']);
  expect(m.id).toBe(feed);
  expect(typeof m.time).toBe('number');
  const p = m.param as Record<string, unknown>;
  for (const k of Object.keys(p)) expect(FEED_KEYS).toContain(k);
  expect(p.serialnr).toBe(serial);
  expect(typeof p.flipped).toBe('boolean');
  expect(typeof p.match).toBe('boolean');
  expect(Array.isArray(p.san) && p.san.every(s => typeof s === 'string')).toBe(true);
  if ('board' in p) expect(p.board).toMatch(/^([pnbrqkPNBRQK1-8]+\/){7}[pnbrqkPNBRQK1-8]+$/);
  if ('clock' in p) expect(isClock(p.clock)).toBe(true);
  if ('start' in p) expect(typeof p.start).toBe('string');
};

const sanOf = (m: LcMessage): string[] => (m.param as { san: string[] }).san;
const sameSan = (want: readonly string[]) => (m: LcMessage) =>
  m.response === 'feed' && JSON.stringify(sanOf(m)) === JSON.stringify(want);

describe.each<Family>(['dgt', 'millennium'])('the LiveChess API on a %s board', family => {
  let dir: string;
  let venue: LiveChessVenue;
  const clients: LcClient[] = [];
  const open = async (...args: Parameters<typeof LcClient.open>): Promise<LcClient> => {
    const c = await LcClient.open(...args);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `chessbridge-livechess-${family}-`));
    venue = await startLiveChessVenue(family, dir);
  }, 30_000);

  afterAll(async () => {
    await Promise.all(clients.map(c => c.close()));
    await venue.stop();
    await closeAllPtyPairs();
    await rm(dir, { recursive: true, force: true });
  });

  it("the Lichess board page's sequence: eboards, subscribe to the first board, setup, moves, a takeback", async () => {
    const page = await open(venue.url); // home use: no credentials from this machine
    page.send({ id: 1, call: 'eboards' });
    const eboards = await page.next(m => m.id === 1, 'the eboards reply');
    expectReply(eboards, 1);
    const boards = eboards.param as Record<string, unknown>[];
    expect(boards).toHaveLength(1);
    const first = boards[0]!;
    expect(Object.keys(first).sort()).toEqual(
      ['battery', 'board', 'clock', 'comment', 'flipped', 'serialnr', 'source', 'state'].sort(),
    );
    expect(first).toMatchObject({
      serialnr: venue.serial,
      state: 'ACTIVE',
      flipped: false,
      board: START_PLACEMENT,
    });
    expect(STATES).toContain(first.state);

    page.send({
      id: 2,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 1, param: { serialnr: first.serialnr } },
    });
    const ack = await page.next(m => m.id === 2 && m.response === 'call', 'the subscribe reply');
    expectReply(ack, 2);
    expect(ack.param).toBeNull();
    // At once, a feed message with the board as it stands: no game yet, so no moves.
    const firstFeed = await page.next(m => m.response === 'feed', 'the first feed message');
    expect(page.messages.indexOf(firstFeed)).toBeGreaterThan(page.messages.indexOf(ack));
    expectFeed(firstFeed, 1, venue.serial);
    expect(firstFeed.param).toMatchObject({ board: START_PLACEMENT, san: [], flipped: false });

    // A game starts online: the page sends setup; the board, with no game, gets a free one.
    page.send({ id: 3, call: 'call', param: { id: 1, method: 'setup', param: { fen: START } } });
    expectReply(await page.next(m => m.id === 3, 'the setup reply'), 3);
    const started = await page.next(
      m => m.response === 'feed' && (m.param as { start?: string }).start === START,
      'the new start',
    );
    expect(started.param).toMatchObject({ san: [], match: true });
    const game = venue.daemon.boards?.get(venue.boardId)?.status.game;
    expect(game).toMatch(/^livechess-/);

    await venue.play([
      ...move('e2', 'e4', 'P'),
      ...move('e7', 'e5', 'p').map(s => ({ ...s, at: s.at + 600 })),
    ]);
    await page.next(sameSan(['e4', 'e5']), '1. e4 e5');
    // The takeback: Black's pawn goes back to e7; the list gets shorter.
    const before = page.messages.length;
    await venue.play(move('e5', 'e7', 'p'));
    await page.next(sameSan(['e4']), 'the takeback', before);
    // Black plays another move instead: the list changes.
    await venue.play(move('d7', 'd5', 'p'));
    const changed = await page.next(sameSan(['e4', 'd5']), '1...d5', before);
    expect(changed.param).toMatchObject({ match: true });

    const feeds = page.feeds(1);
    for (const f of feeds) expectFeed(f, 1, venue.serial);
    // Never a move of pieces in the air: every list is one of the positions the game went through.
    const allowed = [[], ['e4'], ['e4', 'e5'], ['e4', 'd5']].map(s => JSON.stringify(s));
    for (const f of feeds) expect(allowed).toContain(JSON.stringify(sanOf(f)));
    // Unchanged board and clock are left out: no two successive messages carry the same board.
    const withBoard = feeds.map(f => (f.param as { board?: string }).board);
    for (let i = 1; i < withBoard.length; i++)
      if (withBoard[i] !== undefined)
        expect(withBoard[i]).not.toBe(
          withBoard
            .slice(0, i)
            .filter(b => b !== undefined)
            .at(-1),
        );
    // An unknown call and a bad feed id get error replies; the connection stays.
    page.send({ id: 9, call: 'reboot' });
    expectError(await page.next(m => m.id === 9, 'the unknown call'), 9, /unknown call "reboot"/);
    page.send({ id: 10, call: 'call', param: { id: 5, method: 'flip', param: { flip: true } } });
    expectError(await page.next(m => m.id === 10, 'a call on no feed'), 10, /no feed 5/);
    expect(page.closed).toBeUndefined();
  }, 30_000);

  it("a livechess client's sequence, logged in: sources, subscribe, flip, unsubscribe; roles decide", async () => {
    await expect(
      LcClient.open(venue.url, LcClient.basic({ user: 'anna', secret: 'wrong wrong wrong' })),
    ).rejects.toThrow('HTTP 401');
    await expect(LcClient.open(venue.url, { origin: 'https://elsewhere.example' })).rejects.toThrow(
      'HTTP 403',
    );
    const wall = await open(venue.url, LcClient.basic(DISPLAY));
    const anna = await open(
      `${venue.url}?user=${ARBITER.user}&password=${encodeURIComponent(ARBITER.secret)}`,
    );

    wall.send({ id: 1, call: 'sources' });
    const sources = await wall.next(m => m.id === 1, 'the sources reply');
    expectReply(sources, 1);
    const [source] = sources.param as Record<string, unknown>[];
    expect(Object.keys(source!).sort()).toEqual(['active', 'device', 'name', 'present', 'status', 'type']);
    expect(source).toMatchObject({ type: family, name: venue.boardId, present: true, active: true });

    wall.send({
      id: 2,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 7, param: { serialnr: venue.serial } },
    });
    expectReply(await wall.next(m => m.id === 2, 'the subscribe reply'), 2);
    // The whole list since start at once, with the board.
    const now = await wall.next(m => m.response === 'feed', 'the first feed message');
    expectFeed(now, 7, venue.serial);
    expect(now.param).toMatchObject({ san: ['e4', 'd5'], match: true });
    expect(now.param).toHaveProperty('board');

    // A display may read but not flip.
    wall.send({ id: 3, call: 'call', param: { id: 7, method: 'flip', param: { flip: true } } });
    expectError(
      await wall.next(m => m.id === 3, 'the refused flip'),
      3,
      /not allowed: wall \(role display\)/,
    );
    wall.send({
      id: 4,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 8, param: { serialnr: 'NOPE' } },
    });
    expectError(await wall.next(m => m.id === 4, 'an unknown board'), 4, /no board NOPE/);

    anna.send({
      id: 1,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 1, param: { serialnr: venue.serial } },
    });
    await anna.next(m => m.response === 'feed', "anna's first feed message");
    anna.send({ id: 2, call: 'call', param: { id: 1, method: 'flip', param: { flip: true } } });
    expectReply(await anna.next(m => m.id === 2, 'the flip reply'), 2);
    for (const [c, feed] of [
      [anna, 1],
      [wall, 7],
    ] as const) {
      const flipped = await c.next(
        m => m.response === 'feed' && (m.param as { flipped: boolean }).flipped,
        'flipped',
      );
      expectFeed(flipped, feed, venue.serial);
    }
    anna.send({ id: 3, call: 'unsubscribe', param: { id: 1 } });
    expectReply(await anna.next(m => m.id === 3, 'the unsubscribe reply'), 3);
    const after = anna.messages.length;
    const wallBefore = wall.messages.length;
    await venue.play(move('g1', 'f3', 'N'));
    await wall.next(sameSan(['e4', 'd5', 'Nf3']), '2. Nf3', wallBefore);
    expect(anna.messages.slice(after).filter(m => m.response === 'feed')).toEqual([]);
    anna.send({ id: 4, call: 'unsubscribe', param: { id: 1 } });
    expectError(await anna.next(m => m.id === 4, 'a second unsubscribe'), 4, /no feed 1/);

    // A new setup on the free game: a new game from that position, the list starts again.
    anna.send({
      id: 5,
      call: 'subscribe',
      param: { feed: 'eboardevent', id: 2, param: { serialnr: venue.serial } },
    });
    anna.send({ id: 6, call: 'call', param: { id: 2, method: 'setup', param: { fen: START } } });
    expectReply(await anna.next(m => m.id === 6, 'the second setup'), 6);
    await wall.next(
      m => sameSan([])(m) && (m.param as { start?: string }).start === START,
      'the new game',
      wallBefore,
    );
  }, 30_000);
});

describe('the LiveChess API while a broadcast delay holds the public back', () => {
  it('is live, so a display user is refused (403) and an arbiter or home use gets in', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chessbridge-livechess-delay-'));
    const venue = await startLiveChessVenue('dgt', dir, {}, { broadcast: { delayMinutes: 15 } });
    const clients: LcClient[] = [];
    try {
      await expect(LcClient.open(venue.url, LcClient.basic(DISPLAY))).rejects.toThrow('HTTP 403');
      clients.push(await LcClient.open(venue.url, LcClient.basic(ARBITER)));
      clients.push(await LcClient.open(venue.url));
      const [anna] = clients;
      anna!.send({ id: 1, call: 'eboards' });
      expectReply(await anna!.next(m => m.id === 1, 'the eboards reply'), 1);
    } finally {
      await Promise.all(clients.map(c => c.close()));
      await venue.stop();
      await closeAllPtyPairs();
      await rm(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
