/**
 * The public snapshot under the broadcast delay (src/bridge/game/publicView.ts): moves, FEN, last
 * move and clocks cut to what the feed shows; the result, reason and Termination only once shown,
 * or at once with `delayResults: false`.
 */
import { describe, expect, it } from 'vitest';
import {
  type FeedState,
  gameEntry,
  makeFeedState,
  setRound,
  upsertGame,
} from '../../../src/bridge/feed/feedState.js';
import type { LiveGame } from '../../../src/bridge/feed/types.js';
import { viewGame } from '../../../src/bridge/feed/visible.js';
import { publicSnapshot } from '../../../src/bridge/game/publicView.js';
import type { WebGameSnapshot } from '../../../src/bridge/web/contract.js';
import { getProfile } from '../../../src/engine/editions.js';
import { Game } from '../../../src/engine/game.js';
import { makeOutcome } from '../../../src/engine/outcome.js';

const T0 = Date.UTC(2025, 2, 1, 14, 0, 0);
const MIN = 60_000;
const DELAY = 15 * MIN;

const play = (game: Game, ...sans: string[]): Game =>
  sans.reduce((g, san) => g.playSan(san, { clockMs: 5_400_000 - (g.length + 1) * MIN }).unwrap(), game);

const live = (game: Game, over: Partial<LiveGame> = {}): LiveGame => ({
  round: 1,
  board: 1,
  white: { name: 'Carlsen, Magnus' },
  black: { name: 'Doe, Jane' },
  game,
  ...over,
});

/** The live snapshot of the game as the console sees it (only the fields the cut keeps matter). */
const liveSnapshot = (game: Game, over: Partial<WebGameSnapshot> = {}): WebGameSnapshot => ({
  game: 'r1-b1',
  seq: 40,
  at: T0,
  board: 'b-1',
  board_number: 1,
  round: '1',
  event: 'Spring Open',
  white: { name: 'Carlsen, Magnus', title: null, rating: null, federation: null },
  black: { name: 'Doe, Jane', title: null, rating: null, federation: null },
  variant: 'standard',
  start_fen: game.fenAt(0),
  fen: game.fenAt(game.length),
  moves: game.moves.map(m => m.san),
  last_move: null,
  clocks: { white_ms: 1, black_ms: 1, running: 'white', at: T0 },
  result: '*',
  reason: null,
  reason_text: null,
  termination: null,
  status: 'playing',
  ...over,
});

const feed = (delayResults: boolean): FeedState =>
  setRound(makeFeedState({ name: 'Spring Open' }, T0), 1, { delayMs: DELAY, delayResults }, T0);

describe('public snapshot', () => {
  it('shows only the delayed moves, with the clocks they carry, the side to move running', () => {
    let s = upsertGame(feed(true), live(play(Game.standard(), 'e4')), T0);
    const three = play(Game.standard(), 'e4', 'e5', 'Nf3');
    s = upsertGame(s, live(three), T0 + 2 * MIN);
    const now = T0 + DELAY + MIN;
    const pub = publicSnapshot(liveSnapshot(three), viewGame(s, gameEntry(s, 1, 1)!, now), DELAY, now);
    expect(pub.moves).toEqual(['e4']);
    expect(pub.fen).toBe(three.fenAt(1));
    expect(pub.last_move).toEqual({ ply: 1, san: 'e4', uci: 'e2e4' });
    // White's reading after e4; Black has none yet and shows White's; Black runs since e4's release.
    expect(pub.clocks).toEqual({
      white_ms: 5_340_000,
      black_ms: 5_340_000,
      running: 'black',
      at: T0 + DELAY,
    });
    expect(pub).toMatchObject({ seq: now, at: now, status: 'playing', result: '*' });
  });

  it('withholds the result with its moves, or shows it at once with delayResults false', () => {
    const mate = play(Game.standard(), 'f3', 'e5', 'g4', 'Qh4#');
    const outcome = makeOutcome('checkmate', 'black', getProfile('E23', 'standard')).unwrap();
    const finished = liveSnapshot(mate, {
      result: '0-1',
      reason: 'checkmate',
      reason_text: 'checkmate',
      termination: 'normal',
      status: 'finished',
    });
    for (const delayResults of [true, false]) {
      const s = upsertGame(feed(delayResults), live(mate, { outcome }), T0);
      const early = T0 + DELAY - 1;
      const pub = publicSnapshot(finished, viewGame(s, gameEntry(s, 1, 1)!, early), DELAY, early);
      expect(pub.moves).toEqual([]);
      if (delayResults)
        expect(pub).toMatchObject({ result: '*', reason: null, termination: null, status: 'playing' });
      else
        expect(pub).toMatchObject({
          result: '0-1',
          reason: 'checkmate',
          termination: 'normal',
          status: 'finished',
        });
      const late = T0 + DELAY;
      const shown = publicSnapshot(finished, viewGame(s, gameEntry(s, 1, 1)!, late), DELAY, late);
      expect(shown).toMatchObject({ moves: ['f3', 'e5', 'g4', 'Qh4#'], result: '0-1', status: 'finished' });
      expect(shown.clocks?.running).toBeNull();
    }
  });
});
