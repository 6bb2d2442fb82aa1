import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ImportedGame, decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { FeedFiles } from '../../../src/bridge/feed/feedFiles.js';
import { type FeedState, makeFeedState, setRound, upsertGame } from '../../../src/bridge/feed/feedState.js';
import { liveGameFromPgn } from '../../../src/bridge/feed/fromPgn.js';
import { extractGames } from '../../support/pgnExtract.js';
import { sharedPath } from '../../support/shared.js';

const T0 = Date.UTC(2024, 11, 26, 15, 0, 0);

/** The first `n` games of the FIDE Women's World Rapid 2024 broadcast export (every move has [%clk]). */
const rapidGames = (n: number): ImportedGame[] => {
  const text = decodePgnBytes(readFileSync(sharedPath('data/pgn/fide-womens-world-rapid-2024.pgn')));
  const starts = [...text.matchAll(/^\[Event /gm)].map(m => m.index);
  const cut = starts[n] ?? text.length;
  return readPgn(text.slice(0, cut)).map(r => r.unwrap());
};

const games = rapidGames(20);
const dir = mkdtempSync(join(tmpdir(), 'feed-round-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Round 1 with 20 boards: even boards still in progress (cut at half their moves), odd boards finished. */
const buildRound = (): FeedState => {
  let s = makeFeedState(
    { name: 'FIDE Women’s World Rapid Championships 2024', site: 'New York, United States' },
    T0,
  );
  s = setRound(s, 1, { date: '2024-12-26' }, T0);
  for (const [i, g] of games.entries()) {
    const board = i + 1;
    const base = liveGameFromPgn(g, { round: 1, board });
    const inProgress = board % 2 === 0;
    const game = inProgress ? g.game.truncate(Math.floor(g.game.length / 2)).unwrap() : g.game;
    const { result: _result, ...rest } = base;
    s = upsertGame(s, inProgress ? { ...rest, game } : base, T0 + board * 1000);
  }
  return s;
};

const check = (name: string, body: Buffer) => {
  const file = join(dir, name);
  writeFileSync(file, body);
  return extractGames(file);
};

describe('a round of 20 real games', () => {
  const state = buildRound();
  const files = new FeedFiles();
  const now = T0 + 60_000;

  it('serves round-1/games.pgn that pgn-extract reads with no errors, game for game as the model', () => {
    const round = files.get(state, 'round-1/games.pgn', now)!;
    const out = check('games.pgn', round.body);
    expect(out.errors).toEqual([]);
    expect(out.games).toHaveLength(20);
    for (const [i, g] of games.entries()) {
      const board = i + 1;
      const plies = board % 2 === 0 ? Math.floor(g.game.length / 2) : g.game.length;
      const got = out.games[i]!;
      expect(got.tags.Round, `board ${board}`).toBe(`1.${board}`);
      expect(got.tags.Board).toBe(String(board));
      expect(got.tags.White).toBe(g.headers.get('White'));
      expect(got.tags.WhiteFideId).toBe(g.headers.get('WhiteFideId'));
      expect(got.tags.BlackFideId).toBe(g.headers.get('BlackFideId'));
      expect(got.plies, `board ${board}`).toBe(plies);
      expect(got.finalFen, `board ${board}`).toBe(g.game.fenAt(plies));
      expect(got.tags.Result).toBe(board % 2 === 0 ? '*' : g.result);
      if (board % 2 === 1) expect(got.tags.Termination).toBe('normal');
      else expect(got.tags.Termination).toBeUndefined();
    }
  });

  it('serves each round-1/game-K.pgn equal to its part of games.pgn, each passing pgn-extract', () => {
    const parts: Buffer[] = [];
    for (let board = 1; board <= 20; board++) {
      const file = files.get(state, `round-1/game-${board}.pgn`, now)!;
      parts.push(file.body);
      const out = check(`game-${board}.pgn`, file.body);
      expect(out.errors, `board ${board}`).toEqual([]);
      expect(out.games).toHaveLength(1);
    }
    expect(files.get(state, 'round-1/games.pgn', now)!.body.toString()).toBe(
      parts.map(b => b.toString()).join('\n'),
    );
  });

  it('writes [%clk] on every move, keeps lines within 80 columns and carries no engine comments', () => {
    const text = files.get(state, 'round-1/game-1.pgn', now)!.body.toString();
    const moves = games[0]!.game.length;
    expect(text.match(/\{ \[%clk \d+:\d\d:\d\d\] \}/g)).toHaveLength(moves);
    expect(text).not.toContain('%eval');
    expect(text).not.toContain('Mistake');
    expect(Math.max(...text.split('\n').map(l => l.length))).toBeLessThanOrEqual(80);
  });

  it('writes tournament.json and round-1/index.json in the export shapes', () => {
    const tournament = JSON.parse(files.get(state, 'tournament.json', now)!.body.toString()) as Record<
      string,
      unknown
    >;
    expect(tournament).toEqual({
      name: 'FIDE Women’s World Rapid Championships 2024',
      location: 'New York, United States',
      country: null,
      website: null,
      timecontrol: null,
      rules: 'STANDARD',
      chess960: 'STANDARD',
      rounds: [{ count: 20, live: 10 }],
      eboards: [],
    });
    const index = JSON.parse(files.get(state, 'round-1/index.json', now)!.body.toString()) as {
      date: string;
      pairings: { white: Record<string, unknown>; result: string; live: boolean; board: number }[];
    };
    expect(index.date).toBe('2024-12-26');
    expect(index.pairings).toHaveLength(20);
    expect(index.pairings[0]).toMatchObject({ result: games[0]!.result, live: false, board: 1 });
    expect(index.pairings[1]).toMatchObject({ result: '*', live: true, board: 2 });
    const [last, first] = games[0]!.headers.get('White')!.split(', ');
    expect(index.pairings[0]!.white).toEqual({
      fname: first,
      mname: null,
      lname: last,
      title: games[0]!.headers.get('WhiteTitle'),
      federation: null,
      gender: null,
      fideid: Number(games[0]!.headers.get('WhiteFideId')),
      rating: Number(games[0]!.headers.get('WhiteElo')),
    });
  });

  it('lists every game on the index page with its link, names escaped', () => {
    const html = files.get(state, 'index.html', now)!.body.toString();
    expect(html.match(/href="round-1\/game-\d+\.pgn"/g)).toHaveLength(20);
    expect(html).toContain('<title>FIDE Women’s World Rapid Championships 2024</title>');
    const evil = upsertGame(
      state,
      { ...liveGameFromPgn(games[0]!, { round: 2, board: 1 }), white: { name: '<script>x</script>' } },
      now,
    );
    const page = new FeedFiles().get(evil, 'index.html', now)!.body.toString();
    expect(page).not.toContain('<script>');
    expect(page).toContain('&lt;script&gt;');
  });
});
