/**
 * The feed's routes: `/` (the tournament index page), `/tournament.json`, `/round-N/index.json`,
 * `/round-N/games.pgn` and `/round-N/game-K.pgn`, served from the feed renderer with ETag,
 * Last-Modified, conditional GET and a CORS header, so broadcast sites and browsers can poll them.
 *
 *   feedReply('/round-1/games.pgn', { state, now, files, headers, cors: '*' }); // HttpReply | undefined
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FeedFiles } from '../feed/feedFiles.js';
import type { FeedState } from '../feed/feedState.js';
import { type HttpReply, representationReply } from './reply.js';

/** What a route needs to answer: the feed as it is now and the request's headers. */
export interface RouteContext {
  readonly state: FeedState;
  readonly now: number;
  readonly files: FeedFiles;
  readonly headers: IncomingHttpHeaders;
  /** Access-Control-Allow-Origin for public routes; undefined = none. */
  readonly cors: string | undefined;
  /** The language of the index page (the reader's, else the venue's; docs/i18n.md). */
  readonly lang?: string;
}

/** The reply for a feed path (raw, with its leading '/'), or undefined when it names no feed file. */
export const feedReply = (path: string, ctx: RouteContext): HttpReply | undefined => {
  const index = path === '/' || path === '/index.html';
  const file = ctx.files.get(ctx.state, index ? 'index.html' : path.slice(1), ctx.now, ctx.lang);
  const reply = file && representationReply(ctx.headers, file, { cors: ctx.cors });
  // The index page is written in the reader's language: caches keep one copy a language.
  return reply && index && ctx.lang !== undefined
    ? { ...reply, headers: { ...reply.headers, vary: 'Accept-Language', 'content-language': ctx.lang } }
    : reply;
};

/** Route name of a feed path for metrics (a bounded set, never the raw path). */
export const feedRouteName = (path: string): string =>
  path === '/' || path === '/index.html'
    ? 'feed_index'
    : path.endsWith('.pgn')
      ? 'feed_pgn'
      : path.endsWith('.json')
        ? 'feed_json'
        : 'other';
