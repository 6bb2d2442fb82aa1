/**
 * Read-only JSON API over the feed (as the public sees it, under the broadcast delay), with ETags
 * and conditional GET like the PGN files:
 *
 *   GET /api/tournament                       the event and its rounds
 *   GET /api/rounds                           rounds: date, delay, games, games in progress
 *   GET /api/rounds/N                         a round and its games (players, result, position, clocks)
 *   GET /api/rounds/N/games/K                 one game, with its moves
 *   GET /api/rounds/N/games/K/moves?from=P    its moves from ply P on (for clients that keep the rest)
 *
 *   apiReply('/api/rounds/1', new URLSearchParams(), ctx); // HttpReply
 */
import { gameEntry, roundGames } from '../feed/feedState.js';
import type { Rendered } from '../feed/feedFiles.js';
import { viewGame } from '../feed/visible.js';
import { makeApiGame, makeApiMoves, makeApiRounds, makeApiTournament } from './apiJson.js';
import type { RouteContext } from './feedRoutes.js';
import { type HttpReply, errorReply, representationReply } from './reply.js';

const NUMBER = '([1-9]\\d{0,3})';
const ROUND = new RegExp(`^/api/rounds/${NUMBER}$`);
const GAME = new RegExp(`^/api/rounds/${NUMBER}/games/${NUMBER}(/moves)?$`);

const json = (data: unknown): Rendered => ({
  body: `${JSON.stringify(data)}\n`,
  contentType: 'application/json; charset=utf-8',
});

/** Latest Last-Modified of anything in the feed (for documents that summarise it all). */
const wholeLastModified = (ctx: RouteContext): number => {
  let lm = ctx.state.tournamentAt;
  for (const round of ctx.state.rounds.values()) {
    lm = Math.max(lm, round.structureAt, round.settingsAt);
    for (const entry of round.games.values())
      lm = Math.max(lm, viewGame(ctx.state, entry, ctx.now).lastModified);
  }
  return lm;
};

const notFound = (what: string): HttpReply => errorReply(404, `no such ${what}`, 'json');

export const apiReply = (path: string, query: URLSearchParams, ctx: RouteContext): HttpReply => {
  const { state, now, files } = ctx;
  const reply = (memoPath: string, key: string | undefined, lm: number, data: () => unknown): HttpReply =>
    representationReply(
      ctx.headers,
      files.memo(`api:${memoPath}`, key, lm, () => json(data())),
      { cors: ctx.cors },
    );
  if (path === '/api/tournament')
    return reply(path, undefined, wholeLastModified(ctx), () => makeApiTournament(state, now));
  if (path === '/api/rounds')
    return reply(path, undefined, wholeLastModified(ctx), () => makeApiRounds(state, now));
  const roundMatch = ROUND.exec(path);
  if (roundMatch) {
    const round = Number(roundMatch[1]);
    const entry = state.rounds.get(round);
    if (!entry) return notFound('round');
    const views = roundGames(state, round).map(e => viewGame(state, e, now));
    const key = `${entry.structureRevision}.${entry.settingsRevision}|${views.map(v => v.key).join(',')}`;
    const lm = Math.max(entry.structureAt, entry.settingsAt, ...views.map(v => v.lastModified));
    return reply(path, key, lm, () => ({
      round,
      date: entry.settings.date?.replace(/\./g, '-') ?? null,
      delay_ms: entry.settings.delayMs ?? 0,
      games: views.map(v => makeApiGame(state, v)),
    }));
  }
  const gameMatch = GAME.exec(path);
  if (gameMatch) {
    const entry = gameEntry(state, Number(gameMatch[1]), Number(gameMatch[2]));
    if (!entry) return notFound('game');
    const view = viewGame(state, entry, now);
    if (gameMatch[3] === undefined) {
      return reply(path, view.key, view.lastModified, () => ({
        ...makeApiGame(state, view),
        moves: makeApiMoves(view),
      }));
    }
    const fromText = query.get('from') ?? '1';
    if (!/^[1-9]\d{0,4}$/.test(fromText))
      return errorReply(400, `'from' must be a ply number (1, 2, ...), got '${fromText}'`, 'json');
    const from = Number(fromText);
    return reply(`${path}?from=${from}`, view.key, view.lastModified, () => makeApiMoves(view, from));
  }
  return notFound('API route');
};
