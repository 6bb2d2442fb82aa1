/**
 * Turns a game read from PGN into a live game of the feed: players with FIDE id, title, rating and
 * federation from the tags, the recorded result, and the TimeControl tag when it is valid. Used by
 * the demo, replays and benchmarks to feed recorded games through the live feed.
 *
 *   const imported = readPgn(text).flatMap(r => (r.isOk ? [r.value] : []));
 *   const live = imported.map((g, i) => liveGameFromPgn(g, { round: 1, board: i + 1 }));
 */
import type { PgnResult } from '../../engine/outcome.js';
import type { ImportedGame } from '../../engine/pgnRead.js';
import { parseTimeControl } from '../../engine/timeControl.js';
import { type Player, isFideId, normalizeName } from '../pairings/types.js';
import type { LiveGame } from './types.js';

const playerOf = (headers: ReadonlyMap<string, string>, side: 'White' | 'Black'): Player => {
  const id = headers.get(`${side}FideId`)?.trim() ?? '';
  const title = headers.get(`${side}Title`)?.trim() ?? '';
  const elo = Number(headers.get(`${side}Elo`) ?? '');
  const fed = headers.get(`${side}Fed`)?.trim() ?? '';
  return {
    name: normalizeName(headers.get(side) ?? '?') || '?',
    ...(isFideId(id) ? { fideId: id } : {}),
    ...(title !== '' && title !== '-' ? { title } : {}),
    ...(Number.isInteger(elo) && elo > 0 ? { rating: elo } : {}),
    ...(/^[A-Za-z]{3}$/.test(fed) ? { federation: fed.toUpperCase() } : {}),
  };
};

export const liveGameFromPgn = (imported: ImportedGame, at: { round: number; board: number }): LiveGame => {
  const tc = parseTimeControl(imported.headers.get('TimeControl') ?? '?');
  const result = imported.result as PgnResult;
  return {
    round: at.round,
    board: at.board,
    white: playerOf(imported.headers, 'White'),
    black: playerOf(imported.headers, 'Black'),
    game: imported.game,
    ...(result !== '*' ? { result } : {}),
    ...(tc.isOk && tc.value.kind !== 'unknown' ? { timeControl: tc.value } : {}),
  };
};
