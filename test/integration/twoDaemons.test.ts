/**
 * Acceptance 5: two daemons, each with its own boards, client id, journal and topic base under one
 * venue prefix, share one mosquitto. A subscriber to the whole venue sees every game of both, no
 * id collides, and SIGKILLing one daemon leaves every game of the other untouched.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  writeConfig,
  type Subscriber,
  type Venue,
} from './support.js';

const SPEED = 6;

describe('acceptance 5: two daemons on one broker', () => {
  let broker: Mosquitto;
  let hallA: Venue;
  let hallB: Venue;
  let sub: Subscriber;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept5-'));
    broker = await startMosquitto({ persistence: true });
    hallA = await startVenue({ count: 3, firstBoard: 1, serialBase: 45000, speed: SPEED, maxPlies: 30 });
    hallB = await startVenue({ count: 3, firstBoard: 4, serialBase: 45000, speed: SPEED, maxPlies: 30 });
    sub = await subscribe(
      broker.url,
      ['venue/+/games/+/events', 'venue/+/games/+', 'venue/+/bridge/state'],
      'accept5-sub',
    );
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await hallA.stop();
    await hallB.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('shows every game of both, without collisions, and one crash spares the other', async () => {
    const a = startDaemon(
      await writeConfig({ dir, venue: hallA, url: broker.url, base: 'venue/hall-a', clientId: 'hall-a' }),
    );
    const b = startDaemon(
      await writeConfig({ dir, venue: hallB, url: broker.url, base: 'venue/hall-b', clientId: 'hall-b' }),
    );
    const gamesOf = (v: Venue, base: string) =>
      v.boards.map(x => ({ board: x, game: `r1-b${x.number}`, base }));
    const all = [...gamesOf(hallA, 'venue/hall-a'), ...gamesOf(hallB, 'venue/hall-b')];
    await waitFor(
      () => all.every(g => sub.latest(`${g.base}/games/${g.game}`) !== undefined),
      40_000,
      'all six games',
    );
    const moves = (game: string) => movesFromEvents(sub.firstArrivals().get(game) ?? []);
    const playingA = Promise.all(hallA.boards.map(x => x.pty.runner.play(stepsOf(x, SPEED).first)));
    const playingB = Promise.all(hallB.boards.map(x => x.pty.runner.play(stepsOf(x, SPEED).first)));
    await waitFor(
      () => hallA.boards.every(x => moves(`r1-b${x.number}`).length >= 10),
      30_000,
      'hall A under way',
    );
    await a.kill();
    await waitFor(
      () => sub.latest('venue/hall-a/bridge/state') === '{"state":"offline"}',
      10_000,
      "hall A's last will",
    );
    await Promise.all([playingA, playingB]);
    await waitFor(
      () => hallB.boards.every(x => moves(`r1-b${x.number}`).length >= x.plies.length),
      30_000,
      'every move of hall B',
    );

    // Every game of hall B is complete and in order: the crash of A did nothing to it.
    for (const g of gamesOf(hallB, 'venue/hall-b')) {
      const events = sub.firstArrivals().get(g.game) ?? [];
      expect(
        events.map(e => e.seq),
        g.game,
      ).toEqual(events.map((_, i) => i + 1));
      expect(movesFromEvents(events), g.game).toEqual(g.board.plies);
    }
    expect(sub.latest('venue/hall-b/bridge/state')).toBe('{"state":"online"}');
    expect(b.child.exitCode).toBeNull();
    // No id collides: each game's events come under one daemon's base only.
    const basesOf = new Map<string, Set<string>>();
    for (const m of sub.seen.filter(s => s.topic.endsWith('/events'))) {
      const [, base, , game] = m.topic.split('/');
      basesOf.set(game ?? '', new Set([...(basesOf.get(game ?? '') ?? []), base ?? '']));
    }
    expect([...basesOf.keys()].sort()).toEqual(all.map(g => g.game).sort());
    for (const [game, bases] of basesOf) expect([...bases], game).toHaveLength(1);
    // Hall A's games got as far as the crash, in order and without gaps.
    for (const g of gamesOf(hallA, 'venue/hall-a')) {
      const events = sub.firstArrivals().get(g.game) ?? [];
      expect(
        events.map(e => e.seq),
        g.game,
      ).toEqual(events.map((_, i) => i + 1));
      expect(g.board.plies.slice(0, moves(g.game).length), g.game).toEqual(moves(g.game));
    }
    expect(await b.stop()).toBe(0);
  });
});
