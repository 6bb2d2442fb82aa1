/**
 * The push to Lichess broadcasts against a local server that enforces the push contract
 * (test/support/lichessServer.ts): bodies of at most 100 games that replay with chessops, the
 * bearer token, only the bodies that changed, retries after failures, and the errors Lichess
 * reports per game kept for the operator and logged, never with the token.
 */
import { asyncScheduler } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { LichessPush } from '../../../src/bridge/daemon/lichessPush.js';
import { type FeedState, makeFeedState, upsertGame } from '../../../src/bridge/feed/feedState.js';
import { memoryLogger } from '../../../src/bridge/logger.js';
import { Game } from '../../../src/engine/game.js';
import { parseReadableTimeControl } from '../../../src/engine/timeControl.js';
import { waitFor } from '../../support/mosquitto.js';
import { LICHESS_MAX_GAMES, type LichessServer, startLichessServer } from '../../support/lichessServer.js';

const TOKEN = 'lip_secretpushtoken42';
const ROUND_ID = 'abcd1234';
const OPENING = ['e2e4', 'e7e5', 'g1f3', 'b8c6', 'f1b5', 'a7a6'];

const gameOf = (plies: number): Game => {
  let game = Game.standard();
  for (const uci of OPENING.slice(0, plies)) game = game.playUci(uci, { clockMs: 900_000 }).unwrap();
  return game;
};

/** A round of `boards` games, board b having played (b % 5) plies. */
const roundOf = (boards: number, now: number): FeedState => {
  let feed = makeFeedState(
    { name: 'Push Open', timeControl: parseReadableTimeControl('90+30').unwrap() },
    now,
  );
  for (let b = 1; b <= boards; b++)
    feed = upsertGame(
      feed,
      {
        round: 1,
        board: b,
        white: { name: `White, Player${b}` },
        black: { name: `Black, Player${b}` },
        game: gameOf(b % 5),
      },
      now,
    );
  return feed;
};

let server: LichessServer | undefined;
let push: LichessPush | undefined;
afterEach(async () => {
  await push?.stop();
  await server?.stop();
});

const start = async (feed: () => FeedState, token = TOKEN) => {
  server = await startLichessServer({ token: TOKEN, rounds: [ROUND_ID] });
  const { logger, lines } = memoryLogger('info');
  push = new LichessPush({
    url: server.url,
    rounds: [{ round: 1, id: ROUND_ID }],
    token,
    feed,
    scheduler: asyncScheduler,
    now: () => Date.now(),
    log: logger,
    backoffMs: { first: 20, max: 200 },
  });
  return { server, push, lines };
};

describe('push to Lichess broadcasts', () => {
  it('splits a round into bodies of at most 100 games, pushes only what changed, and retries', async () => {
    const feed = roundOf(130, Date.now());
    const { server, push } = await start(() => feed);
    push.changed();
    await waitFor(() => server.pushes.length >= 2, 10_000, 'two bodies');
    expect(server.pushes.map(p => [p.status, p.games.length])).toEqual([
      [200, LICHESS_MAX_GAMES],
      [200, 30],
    ]);
    expect(server.pushes.every(p => p.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const games = server.pushes.flatMap(p => p.games);
    expect(games.map(g => g.error).filter(e => e !== undefined)).toEqual([]);
    expect(games.map(g => g.round)).toEqual(Array.from({ length: 130 }, (_, i) => `1.${i + 1}`));
    expect(games.map(g => g.plies)).toEqual(Array.from({ length: 130 }, (_, i) => (i + 1) % 5));

    // Nothing changed: nothing is pushed.
    push.changed();
    await push.stop();
    expect(server.pushes).toHaveLength(2);
  });

  it('pushes again only the body whose game changed, after failures with backoff', async () => {
    let feed = roundOf(130, Date.now());
    const { server, push, lines } = await start(() => feed);
    push.changed();
    await waitFor(() => server.pushes.length >= 2, 10_000, 'two bodies');
    server.failNext(2, 503);
    feed = upsertGame(
      feed,
      {
        round: 1,
        board: 120,
        white: { name: 'White, Player120' },
        black: { name: 'Black, Player120' },
        game: gameOf(6),
      },
      Date.now(),
    );
    push.changed();
    await waitFor(() => push.status()[0]!.pushes === 3, 10_000, 'the changed body after the retries');
    const after = server.pushes.slice(2);
    expect(after.map(p => p.status)).toEqual([503, 503, 200]);
    expect(after.at(-1)!.games.find(g => g.round === '1.120')?.plies).toBe(6);
    expect(push.status()[0]).toMatchObject({ failures: 0, error: null, pushes: 3 });
    expect(lines.filter(l => l.includes('HTTP 503'))).toHaveLength(1);
    expect(lines.some(l => l.includes('works again'))).toBe(true);
  });

  it('reports the games Lichess refuses, and a refused token, without logging the token', async () => {
    const feed = roundOf(3, Date.now());
    const { server, push, lines } = await start(() => feed);
    server.refuseGame('1.2', 'Illegal move');
    push.changed();
    await waitFor(() => push.status()[0]!.pushes === 1, 10_000, 'one push');
    expect(push.status()[0]!.gameErrors).toEqual([{ game: '1.2', error: 'Illegal move' }]);
    expect(push.problems().join()).toContain('1.2: Illegal move');
    expect(lines.some(l => l.includes('game 1.2 refused: Illegal move'))).toBe(true);

    await push.stop();
    await server.stop();
    const other = await start(() => feed, 'lip_wrongwrongwrong');
    other.push.changed();
    await waitFor(() => other.push.status()[0]!.failures >= 2, 10_000, 'refused twice');
    expect(other.push.status()[0]!.error).toContain('HTTP 401, the token was refused');
    expect(other.push.problems().join()).toContain('HTTP 401');
    expect(other.lines.join('\n')).not.toContain('lip_wrong');
    expect(lines.join('\n')).not.toContain(TOKEN);
  });
});
