/**
 * The rules state after every ply, kept in step with the recognised game: a published move adds a
 * ply, a correction or takeback cuts back to the first ply that differs and replays from there.
 * Each ply keeps its status (status.ts: automatic endings, claimable draws).
 *
 *   const plies = syncPlies(st.plies, st.rec.game, madeAt);
 *   plies[plies.length - 1].status.end;   // e.g. a checkmate outcome
 */
import type { EditionProfile } from '../editions.js';
import type { Game } from '../game.js';
import { applyPly, startRules } from '../status.js';
import type { PlyInfo } from './state.js';

/** Ply 0: the start position of `game`. */
export const startPlies = (game: Game, profile: EditionProfile): PlyInfo[] => {
  const { state, status } = startRules(game.positionAt(0), profile);
  return [{ fen: game.fenAt(0), rules: state, status, madeAt: undefined }];
};

/**
 * `plies` brought in line with `game` up to ply `upTo` (default: all of it): plies that still
 * match are kept, the rest recomputed. `madeAt(ply)` gives the made time of a new ply.
 */
export const syncPlies = (
  plies: readonly PlyInfo[],
  game: Game,
  madeAt: (ply: number) => number | undefined,
  upTo: number = game.length,
): readonly PlyInfo[] => {
  const last = Math.min(upTo, game.length);
  let keep = 1;
  const n = Math.min(plies.length - 1, last);
  while (keep <= n && plies[keep]?.fen === game.moveAt(keep)?.fen) keep++;
  if (keep === plies.length && plies.length === last + 1) return plies;
  const out = plies.slice(0, keep);
  for (let ply = keep; ply <= last; ply++) {
    const prev = out[ply - 1];
    const pos = game.positionView(ply);
    const rec = game.moveAt(ply);
    if (!prev || !pos || !rec) throw new RangeError(`syncPlies: no ply ${ply}`);
    const { state, status } = applyPly(prev.rules, pos);
    out.push({ fen: rec.fen, rules: state, status, madeAt: madeAt(ply) });
  }
  return out;
};
