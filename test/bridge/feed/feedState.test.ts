import { describe, expect, it } from 'vitest';
import { getProfile } from '../../../src/engine/editions.js';
import { Game } from '../../../src/engine/game.js';
import { makeOutcome } from '../../../src/engine/outcome.js';
import { readPgn } from '../../../src/engine/pgnRead.js';
import { parseTimeControl } from '../../../src/engine/timeControl.js';
import { FeedFiles } from '../../../src/bridge/feed/feedFiles.js';
import {
  type FeedState,
  gameEntry,
  makeFeedState,
  pgnDate,
  removeGame,
  setRound,
  setTournament,
  upsertGame,
} from '../../../src/bridge/feed/feedState.js';
import { makeFeedPgn, makeFeedTags } from '../../../src/bridge/feed/gamePgn.js';
import type { LiveGame } from '../../../src/bridge/feed/types.js';
import { nextReleaseAt, viewGame } from '../../../src/bridge/feed/visible.js';

const T0 = Date.UTC(2025, 2, 1, 14, 0, 0);
const MIN = 60_000;
const TC = parseTimeControl('5400+30').unwrap();

/** Plays SAN moves, giving each a clock reading that drops by a minute per move. */
const play = (game: Game, ...sans: string[]): Game =>
  sans.reduce((g, san) => g.playSan(san, { clockMs: 5_400_000 - (g.length + 1) * MIN }).unwrap(), game);

const live = (game: Game, over: Partial<LiveGame> = {}): LiveGame => ({
  round: 1,
  board: 3,
  white: { name: 'Carlsen, Magnus', fideId: '1503014', title: 'GM', rating: 2830 },
  black: { name: 'Doe, Jane' },
  game,
  timeControl: TC,
  ...over,
});

const feed = (delayMs = 0): FeedState =>
  setRound(
    makeFeedState({ name: 'Spring Open', site: 'Oslo, Norway' }, T0),
    1,
    { date: '2025-03-01', delayMs },
    T0,
  );

const pgnAt = (state: FeedState, now: number, round = 1, board = 3): string =>
  makeFeedPgn(state, viewGame(state, gameEntry(state, round, board)!, now));

describe('feed headers and movetext', () => {
  it('writes the broadcast headers, Round "r.b", FIDE ids only when known and [%clk] on every move', () => {
    const s = upsertGame(feed(), live(play(Game.standard(), 'e4', 'e5', 'Nf3')), T0 + MIN);
    const text = pgnAt(s, T0 + MIN);
    const tags = readPgn(text)[0]!.unwrap().headers;
    expect(Object.fromEntries(tags)).toEqual({
      Event: 'Spring Open',
      Site: 'Oslo, Norway',
      Date: '2025.03.01',
      Round: '1.3',
      White: 'Carlsen, Magnus',
      Black: 'Doe, Jane',
      Result: '*',
      Board: '3',
      TimeControl: '5400+30',
      WhiteElo: '2830',
      WhiteFideId: '1503014',
      WhiteTitle: 'GM',
    });
    expect(text).not.toContain('BlackFideId');
    expect(text).not.toContain('Termination');
    expect(text).toContain('1. e4 { [%clk 1:29:00] } 1... e5 { [%clk 1:28:00] } 2. Nf3 { [%clk 1:27:00] } *');
  });

  it('adds Termination and the result once the game is over, from the engine outcome', () => {
    const mate = play(Game.standard(), 'f3', 'e5', 'g4', 'Qh4#');
    const outcome = makeOutcome('checkmate', 'black', getProfile('E23', 'standard')).unwrap();
    const s = upsertGame(feed(), live(mate, { outcome }), T0);
    const tags = makeFeedTags(s, viewGame(s, gameEntry(s, 1, 3)!, T0));
    expect(tags.Termination).toBe('normal');
    expect(pgnAt(s, T0)).toMatch(/\[Result "0-1"\][\s\S]*2\.\.\. Qh4# \{ \[%clk 1:26:00\] \} 0-1\n$/);
  });

  it('writes a bare arbiter result with Termination "normal" unless told otherwise', () => {
    const s1 = upsertGame(feed(), live(Game.standard(), { result: '1-0', termination: 'abandoned' }), T0);
    expect(pgnAt(s1, T0)).toContain('[Termination "abandoned"]');
    const s2 = upsertGame(feed(), live(Game.standard(), { result: '1/2-1/2' }), T0);
    expect(pgnAt(s2, T0)).toContain('[Termination "normal"]');
    expect(pgnAt(s2, T0).trimEnd().endsWith('1/2-1/2')).toBe(true);
  });

  it('refuses a malformed round date and a negative delay as programmer errors', () => {
    expect(pgnDate('2025.03.01')).toBe('2025.03.01');
    expect(() => setRound(feed(), 2, { date: '1/3/2025' }, T0)).toThrow(TypeError);
    expect(() => setRound(feed(), 2, { delayMs: -1 }, T0)).toThrow(TypeError);
    expect(() => upsertGame(feed(), live(Game.standard(), { board: 0 }), T0)).toThrow(TypeError);
  });
});

describe('updates, corrections and Last-Modified', () => {
  it('returns the same state for an update that changes nothing', () => {
    const g = play(Game.standard(), 'd4', 'd5');
    const s = upsertGame(feed(), live(g), T0);
    expect(upsertGame(s, live(play(Game.standard(), 'd4', 'd5')), T0 + MIN)).toBe(s);
    expect(setTournament(s, { name: 'Spring Open', site: 'Oslo, Norway' }, T0 + MIN)).toBe(s);
    expect(setRound(s, 1, { date: '2025-03-01', delayMs: 0 }, T0 + MIN)).toBe(s);
  });

  it('replaces the moves from the corrected ply on, in the file, without a variation', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Nf3', 'Nc6');
    let s = upsertGame(feed(), live(g), T0);
    expect(pgnAt(s, T0)).toContain('2. Nf3');
    const corrected = g.replaceFrom(3, ['Bc4', 'Nf6']).unwrap();
    s = upsertGame(s, live(corrected), T0 + MIN);
    const text = pgnAt(s, T0 + MIN);
    expect(text).toContain('1... e5 { [%clk 1:28:00] } 2. Bc4 Nf6 *');
    expect(text).not.toContain('Nf3');
    expect(text).not.toContain('(');
    const entry = gameEntry(s, 1, 3)!;
    expect(entry.seenAt).toEqual([T0, T0, T0 + MIN, T0 + MIN]);
    expect(viewGame(s, entry, T0 + MIN).lastModified).toBe(T0 + MIN);
  });

  it('dates Last-Modified at the last change of the game, not at the time of the request', () => {
    let s = upsertGame(feed(), live(play(Game.standard(), 'c4')), T0 + 1000);
    s = upsertGame(s, live(play(Game.standard(), 'c4', 'e5')), T0 + 5000);
    const entry = gameEntry(s, 1, 3)!;
    expect(viewGame(s, entry, T0 + 99_000).lastModified).toBe(T0 + 5000);
    // a clock reading arriving after the move changes the file at once
    const annotated = entry.live.game.annotate(2, { clockMs: 1000 }).unwrap();
    s = upsertGame(s, live(annotated), T0 + 7000);
    expect(viewGame(s, gameEntry(s, 1, 3)!, T0 + 99_000).lastModified).toBe(T0 + 7000);
    expect(pgnAt(s, T0 + 99_000)).toContain('e5 { [%clk 0:00:01] }');
  });

  it('changes the round file when a game is removed, and leaves the other game files alone', () => {
    let s = upsertGame(feed(), live(play(Game.standard(), 'e4'), { board: 1 }), T0);
    s = upsertGame(s, live(play(Game.standard(), 'd4'), { board: 2 }), T0);
    const files = new FeedFiles();
    const before = files.get(s, 'round-1/games.pgn', T0)!;
    const game1 = files.get(s, 'round-1/game-1.pgn', T0)!;
    s = removeGame(s, 1, 2, T0 + 3000);
    const after = files.get(s, 'round-1/games.pgn', T0 + 3000)!;
    expect(after.etag).not.toBe(before.etag);
    expect(after.lastModified).toBe(T0 + 3000);
    expect(after.body.toString()).not.toContain('1. d4');
    expect(files.get(s, 'round-1/game-1.pgn', T0 + 3000)).toBe(game1);
    expect(files.get(s, 'round-1/game-2.pgn', T0 + 3000)).toBeUndefined();
  });
});

describe('broadcast delay', () => {
  const delay = 15 * MIN;

  it('withholds moves younger than the delay, then shows them in order', () => {
    let s = upsertGame(feed(delay), live(play(Game.standard(), 'e4')), T0);
    s = upsertGame(s, live(play(Game.standard(), 'e4', 'c5')), T0 + 2 * MIN);
    const entry = gameEntry(s, 1, 3)!;
    expect(viewGame(s, entry, T0 + delay - 1).plies).toBe(0);
    expect(pgnAt(s, T0 + delay - 1)).not.toContain('e4');
    expect(viewGame(s, entry, T0 + delay).plies).toBe(1);
    expect(pgnAt(s, T0 + delay)).toContain('1. e4 { [%clk 1:29:00] } *');
    expect(pgnAt(s, T0 + delay + 2 * MIN)).toContain('1. e4 { [%clk 1:29:00] } 1... c5');
    expect(viewGame(s, entry, T0 + delay + 2 * MIN).lastModified).toBe(T0 + 2 * MIN + delay);
    expect(nextReleaseAt(s, T0 + delay)).toBe(T0 + 2 * MIN + delay);
    expect(nextReleaseAt(s, T0 + delay + 2 * MIN)).toBeUndefined();
  });

  it('withholds the result until the last move and the result are older than the delay', () => {
    const mate = play(Game.standard(), 'f3', 'e5', 'g4');
    let s = upsertGame(feed(delay), live(mate), T0);
    const outcome = makeOutcome('checkmate', 'black', getProfile('E23', 'standard')).unwrap();
    s = upsertGame(s, live(play(mate, 'Qh4#'), { outcome }), T0 + MIN);
    const view = (now: number) => viewGame(s, gameEntry(s, 1, 3)!, now);
    expect(view(T0 + delay)).toMatchObject({
      plies: 3,
      result: '*',
      termination: undefined,
      withholding: true,
    });
    expect(pgnAt(s, T0 + delay)).not.toContain('Qh4');
    expect(view(T0 + MIN + delay)).toMatchObject({
      plies: 4,
      result: '0-1',
      termination: 'normal',
      withholding: false,
    });
  });

  it('shows a correction of moves already shown at once (old moves gone), the new moves after the delay', () => {
    const g = play(Game.standard(), 'e4', 'e5', 'Nf3');
    let s = upsertGame(feed(delay), live(g), T0);
    expect(pgnAt(s, T0 + delay)).toContain('2. Nf3');
    s = upsertGame(s, live(g.replaceFrom(3, ['Bc4']).unwrap()), T0 + delay + MIN);
    const now = T0 + delay + MIN;
    const text = pgnAt(s, now);
    expect(text).toContain('1... e5 { [%clk 1:28:00] } *');
    expect(text).not.toContain('Nf3');
    expect(viewGame(s, gameEntry(s, 1, 3)!, now).lastModified).toBe(now);
    expect(pgnAt(s, now + delay)).toContain('2. Bc4');
  });

  it('keeps every ply visible once a delayed round drops its delay', () => {
    let s = upsertGame(feed(delay), live(play(Game.standard(), 'e4', 'e5')), T0);
    expect(viewGame(s, gameEntry(s, 1, 3)!, T0 + 1).plies).toBe(0);
    s = setRound(s, 1, { date: '2025-03-01', delayMs: 0 }, T0 + 2);
    const view = viewGame(s, gameEntry(s, 1, 3)!, T0 + 2);
    expect(view.plies).toBe(2);
    expect(view.lastModified).toBe(T0 + 2);
  });
});

describe('FeedFiles cache and validators', () => {
  it('keeps ETag and Last-Modified while the bytes stay the same, and flags a shared second', () => {
    let s = upsertGame(feed(), live(play(Game.standard(), 'e4')), T0 + 100);
    const files = new FeedFiles();
    const first = files.get(s, 'round-1/game-3.pgn', T0 + 100)!;
    expect(first.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(first.contentType).toBe('application/x-chess-pgn; charset=utf-8');
    expect(files.get(s, 'round-1/game-3.pgn', T0 + 9000)).toBe(first);
    s = upsertGame(s, live(play(Game.standard(), 'e4', 'e6')), T0 + 600);
    const second = files.get(s, 'round-1/game-3.pgn', T0 + 700)!;
    expect(second.etag).not.toBe(first.etag);
    expect(second.lastModified).toBe(T0 + 600);
    expect(second.lastModifiedShared).toBe(true);
    s = upsertGame(s, live(play(Game.standard(), 'e4', 'e6', 'd4')), T0 + 2500);
    const third = files.get(s, 'round-1/game-3.pgn', T0 + 2500)!;
    expect(third.lastModifiedShared).toBe(false);
  });

  it('answers only the paths of the layout, each with a single spelling', () => {
    const s = upsertGame(feed(), live(Game.standard()), T0);
    const files = new FeedFiles();
    for (const path of [
      'tournament.json',
      'index.html',
      'round-1/index.json',
      'round-1/games.pgn',
      'round-1/game-3.pgn',
    ]) {
      expect(files.get(s, path, T0), path).toBeDefined();
    }
    for (const path of [
      'round-01/games.pgn',
      'round-1/game-03.pgn',
      'round-2/games.pgn',
      'round-1/game-4.pgn',
      '/tournament.json',
      'round-1/',
    ]) {
      expect(files.get(s, path, T0), path).toBeUndefined();
    }
  });
});
