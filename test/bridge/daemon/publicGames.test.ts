/**
 * The delayed public snapshots on a virtual clock (the daemon's scheduler, injected): each move
 * reaches the public topic exactly when the delay releases it, a change that shows nothing new
 * publishes nothing, and the live moves are never published early.
 */
import { VirtualAction, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { PublicGames } from '../../../src/bridge/daemon/publicGames.js';
import { type FeedState, makeFeedState, setRound, upsertGame } from '../../../src/bridge/feed/feedState.js';
import type { WebGameSnapshot } from '../../../src/bridge/web/contract.js';
import { Game } from '../../../src/engine/game.js';

const DELAY = 10_000;

const gameOf = (...sans: string[]): Game => sans.reduce((g, san) => g.playSan(san).unwrap(), Game.standard());

const snapshotOf = (game: Game, id = 'r1-b1'): WebGameSnapshot => ({
  game: id,
  seq: game.length,
  at: 0,
  board: 'b-1',
  board_number: 1,
  round: '1',
  event: null,
  variant: 'standard',
  start_fen: game.start.fen,
  white: null,
  black: null,
  fen: game.fenAt(game.length),
  moves: game.moves.map(m => m.san),
  last_move: null,
  clocks: null,
  result: '*',
  reason: null,
  reason_text: null,
  termination: null,
  status: 'playing',
});

describe('delayed public snapshots', () => {
  it('publishes each move when the delay releases it, on the injected clock', async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
    let feed: FeedState = setRound(makeFeedState({ name: 'Open' }, 0), 1, { delayMs: DELAY }, 0);
    let live = snapshotOf(Game.standard());
    const published: [number, number][] = [];
    const pub = new PublicGames({
      feed: () => feed,
      live: () => live,
      publish: s => published.push([scheduler.now(), s.moves.length]),
      clear: () => undefined,
      scheduler,
      now: () => scheduler.now(),
    });
    const play = (at: number, ...sans: string[]) =>
      scheduler.schedule(() => {
        const game = gameOf(...sans);
        live = snapshotOf(game);
        feed = upsertGame(feed, { round: 1, board: 1, white: { name: 'A' }, black: { name: 'B' }, game }, at);
        pub.changed();
      }, at);
    /** Runs the virtual clock to `target` one timer at a time, letting each sync's promise settle. */
    const advanceTo = async (target: number) => {
      for (;;) {
        const next = Math.min(...scheduler.actions.map(a => a.delay));
        if (!(next <= target)) return;
        scheduler.maxFrames = next;
        scheduler.flush();
        await new Promise(r => setImmediate(r));
      }
    };
    play(0);
    play(1_000, 'e4');
    play(4_000, 'e4', 'e5');
    play(4_500, 'e4', 'e5'); // nothing new
    await advanceTo(60_000);
    expect(published).toEqual([
      [0, 0],
      [1_000 + DELAY, 1],
      [4_000 + DELAY, 2],
    ]);
    await pub.stop();
  });

  it("clears a game's public copy once another game takes its round and board", async () => {
    const scheduler = new VirtualTimeScheduler(VirtualAction, Infinity);
    let feed: FeedState = setRound(makeFeedState({ name: 'Open' }, 0), 1, { delayMs: DELAY }, 0);
    let live = snapshotOf(gameOf('e4'), 'first');
    const log: string[] = [];
    const pub = new PublicGames({
      feed: () => feed,
      live: () => live,
      publish: s => log.push(`publish ${s.game}`),
      clear: game => log.push(`clear ${game}`),
      scheduler,
      now: () => scheduler.now(),
    });
    const players = { round: 1, board: 1, white: { name: 'A' }, black: { name: 'B' } };
    feed = upsertGame(feed, { ...players, game: gameOf('e4') }, 0);
    pub.changed();
    scheduler.flush();
    await new Promise(r => setImmediate(r));
    expect(log).toEqual(['publish first']);
    // The board's game was stopped and another one started on the same round and board.
    live = snapshotOf(Game.standard(), 'second');
    feed = upsertGame(feed, { ...players, game: Game.standard() }, 1);
    pub.changed();
    scheduler.maxFrames = 2;
    scheduler.flush();
    await new Promise(r => setImmediate(r));
    expect(log).toEqual(['publish first', 'publish second', 'clear first']);
    await pub.stop();
  });
});
