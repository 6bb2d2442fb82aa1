/**
 * Renders the feed's files from a feed state at time `now`, each with a strong ETag (hash of the
 * bytes) and a Last-Modified (when its bytes last changed), and remembers what it rendered: a file
 * whose inputs did not change is not rendered again, and a file rendered again to the same bytes
 * keeps its ETag and Last-Modified.
 *
 *   const files = new FeedFiles();
 *   files.get(state, 'round-3/games.pgn', now);  // FeedFile | undefined
 *   files.exportFiles(state, now);               // what the folder export writes
 *
 * Layout (docs/broadcast.md): tournament.json, round-N/index.json, round-N/games.pgn,
 * round-N/game-K.pgn (K = board number), and index.html (the page served at `/`).
 */
import { type FeedState, type GameEntry, gameEntry, roundGames } from './feedState.js';
import { makeEtag } from './etag.js';
import { makeJsonText, makeRoundIndexJson, makeTournamentJson } from './exportJson.js';
import { makeFeedPgn } from './gamePgn.js';
import { makeIndexPage } from './indexPage.js';
import type { FeedFile } from './types.js';
import { gameReleaseAt, nextReleaseAt, roundReleaseAt, viewGame } from './visible.js';

export type FeedPath =
  | { readonly kind: 'indexPage'; readonly lang?: string }
  | { readonly kind: 'tournament' }
  | { readonly kind: 'roundIndex'; readonly round: number }
  | { readonly kind: 'roundPgn'; readonly round: number }
  | { readonly kind: 'gamePgn'; readonly round: number; readonly board: number };

export const CONTENT_TYPES = {
  pgn: 'application/x-chess-pgn; charset=utf-8',
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
} as const;

/** Numbers in paths: 1..9999 without leading zeros, so each file has exactly one path. */
const NUMBER = '([1-9]\\d{0,3})';
const ROUND_FILE = new RegExp(`^round-${NUMBER}/(?:(index\\.json)|(games\\.pgn)|game-${NUMBER}\\.pgn)$`);

/** Reads a feed path ('round-3/game-12.pgn', no leading slash). */
export const parseFeedPath = (path: string): FeedPath | undefined => {
  if (path === 'index.html') return { kind: 'indexPage' };
  if (path === 'tournament.json') return { kind: 'tournament' };
  const m = ROUND_FILE.exec(path);
  if (!m) return undefined;
  const round = Number(m[1]);
  if (m[2] !== undefined) return { kind: 'roundIndex', round };
  if (m[3] !== undefined) return { kind: 'roundPgn', round };
  return { kind: 'gamePgn', round, board: Number(m[4]) };
};

export const makeFeedPath = (p: FeedPath): string => {
  switch (p.kind) {
    case 'indexPage':
      return 'index.html';
    case 'tournament':
      return 'tournament.json';
    case 'roundIndex':
      return `round-${p.round}/index.json`;
    case 'roundPgn':
      return `round-${p.round}/games.pgn`;
    case 'gamePgn':
      return `round-${p.round}/game-${p.board}.pgn`;
  }
};

/** Where a file is remembered: its path, and for the index page its language too. */
const cacheKey = (p: FeedPath): string =>
  p.kind === 'indexPage' && p.lang !== undefined ? `index.html#${p.lang}` : makeFeedPath(p);

const hasGames = (state: FeedState, round: number): boolean => (state.rounds.get(round)?.games.size ?? 0) > 0;

interface CacheEntry {
  readonly key: string | undefined;
  readonly file: FeedFile;
}

/** A file valid for one state object over a span of time (until the next delayed release). */
interface Snapshot {
  readonly state: FeedState;
  readonly from: number;
  readonly until: number;
  readonly file: FeedFile | undefined;
}

/** Rendered content of a file before it is hashed. */
export interface Rendered {
  readonly body: string | Buffer;
  readonly contentType: string;
}

/** Above this many cached paths the cache starts again (API paths with queries could grow it). */
const CACHE_LIMIT = 20_000;

export class FeedFiles {
  private readonly cache = new Map<string, CacheEntry>();
  /** Fast path: the answer for a path while the state object and the visible extent stay the same. */
  private readonly snapshots = new Map<string, Snapshot>();

  /**
   * The file at `path` (feed layout, no leading slash), or undefined when there is none; the index
   * page in `lang` (docs/i18n.md; default English).
   */
  get(state: FeedState, path: string, now: number, lang?: string): FeedFile | undefined {
    const p = parseFeedPath(path);
    return p && this.file(state, p.kind === 'indexPage' && lang !== undefined ? { ...p, lang } : p, now);
  }

  file(state: FeedState, p: FeedPath, now: number): FeedFile | undefined {
    const path = cacheKey(p);
    const snap = this.snapshots.get(path);
    if (snap && snap.state === state && snap.from <= now && now < snap.until) return snap.file;
    const { file, until } = this.render(state, p, now);
    if (this.snapshots.size >= CACHE_LIMIT && !snap) this.snapshots.clear();
    this.snapshots.set(path, { state, from: now, until: until ?? Infinity, file });
    return file;
  }

  private render(
    state: FeedState,
    p: FeedPath,
    now: number,
  ): { file: FeedFile | undefined; until: number | undefined } {
    switch (p.kind) {
      case 'indexPage':
      case 'tournament':
        return { file: this.whole(state, p, now), until: nextReleaseAt(state, now) };
      case 'roundIndex':
      case 'roundPgn':
        // A round without games has no games.pgn: an empty PGN fails a broadcast site's whole fetch.
        return state.rounds.has(p.round) && (p.kind === 'roundIndex' || hasGames(state, p.round))
          ? { file: this.round(state, p, now), until: roundReleaseAt(state, p.round, now) }
          : { file: undefined, until: undefined };
      case 'gamePgn': {
        const entry = gameEntry(state, p.round, p.board);
        return entry
          ? { file: this.game(state, entry, now), until: gameReleaseAt(state, entry, now) }
          : { file: undefined, until: undefined };
      }
    }
  }

  /** The files of the folder export: tournament.json, then per round index.json, games.pgn, game-K.pgn. */
  exportFiles(state: FeedState, now: number): FeedFile[] {
    const out = [this.whole(state, { kind: 'tournament' }, now)];
    for (const round of state.rounds.keys()) {
      out.push(this.round(state, { kind: 'roundIndex', round }, now));
      if (hasGames(state, round)) out.push(this.round(state, { kind: 'roundPgn', round }, now));
      for (const entry of roundGames(state, round)) out.push(this.game(state, entry, now));
    }
    return out;
  }

  /**
   * Returns the cached file for `path` when `key` matches, else renders it: same bytes keep the old
   * file (ETag and Last-Modified), new bytes get a new ETag and `lastModified` (never earlier than
   * the previous one). `key` undefined renders every time (for small files with many inputs).
   */
  memo(path: string, key: string | undefined, lastModified: number, render: () => Rendered): FeedFile {
    const hit = this.cache.get(path);
    if (hit && key !== undefined && hit.key === key) return hit.file;
    const rendered = render();
    const body = typeof rendered.body === 'string' ? Buffer.from(rendered.body, 'utf8') : rendered.body;
    const etag = makeEtag(body);
    let file: FeedFile;
    if (hit?.file.etag === etag && hit.file.contentType === rendered.contentType) file = hit.file;
    else {
      const previous = hit?.file.lastModified;
      const lm = Math.max(lastModified, previous ?? -Infinity);
      const shared = previous !== undefined && Math.floor(previous / 1000) === Math.floor(lm / 1000);
      file = {
        path,
        contentType: rendered.contentType,
        body,
        etag,
        lastModified: lm,
        lastModifiedShared: shared,
      };
    }
    if (this.cache.size >= CACHE_LIMIT && !hit) this.cache.clear();
    this.cache.set(path, { key, file });
    return file;
  }

  private game(state: FeedState, entry: GameEntry, now: number): FeedFile {
    const view = viewGame(state, entry, now);
    const path = makeFeedPath({ kind: 'gamePgn', round: entry.live.round, board: entry.live.board });
    return this.memo(path, view.key, view.lastModified, () => ({
      body: makeFeedPgn(state, view),
      contentType: CONTENT_TYPES.pgn,
    }));
  }

  private round(state: FeedState, p: FeedPath & { kind: 'roundIndex' | 'roundPgn' }, now: number): FeedFile {
    const round = state.rounds.get(p.round);
    const path = makeFeedPath(p);
    const base = Math.max(round?.structureAt ?? 0, round?.settingsAt ?? 0, state.tournamentAt);
    const entries = roundGames(state, p.round);
    if (p.kind === 'roundPgn') {
      const games = entries.map(e => this.game(state, e, now));
      const key = `${round?.structureRevision ?? 0}|${games.map(g => g.etag).join(',')}`;
      const lm = Math.max(base, ...games.map(g => g.lastModified));
      const sep = Buffer.from('\n');
      return this.memo(path, key, lm, () => ({
        body: Buffer.concat(games.flatMap((g, i) => (i === 0 ? [g.body] : [sep, g.body]))),
        contentType: CONTENT_TYPES.pgn,
      }));
    }
    const views = entries.map(e => viewGame(state, e, now));
    const key = `${round?.structureRevision ?? 0}.${round?.settingsRevision ?? 0}|${views.map(v => v.key).join(',')}`;
    const lm = Math.max(base, ...views.map(v => v.lastModified));
    return this.memo(path, key, lm, () => ({
      body: makeJsonText(makeRoundIndexJson(state, p.round, now)),
      contentType: CONTENT_TYPES.json,
    }));
  }

  /** Files that summarise the whole tournament (small: rendered on every call and compared). */
  private whole(state: FeedState, p: FeedPath & { kind: 'indexPage' | 'tournament' }, now: number): FeedFile {
    let lm = state.tournamentAt;
    for (const round of state.rounds.values()) {
      lm = Math.max(lm, round.structureAt, round.settingsAt);
      for (const entry of round.games.values()) lm = Math.max(lm, viewGame(state, entry, now).lastModified);
    }
    return this.memo(cacheKey(p), undefined, lm, () =>
      p.kind === 'indexPage'
        ? { body: makeIndexPage(state, now, p.lang), contentType: CONTENT_TYPES.html }
        : { body: makeJsonText(makeTournamentJson(state, now)), contentType: CONTENT_TYPES.json },
    );
  }
}
