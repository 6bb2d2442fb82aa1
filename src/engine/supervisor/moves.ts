/**
 * Published moves and corrections: each recognised move becomes a `move` event with its clock,
 * each revision a `correction`; the rules state follows (plies.ts) and an automatic ending of the
 * new position (mate, stalemate, dead position, fivefold, 75 moves) ends the game, provided the
 * move obeyed Art. 4 where the edition requires it (E14+ 5.1.1 / 5.2: Art. 3 and 4.2-4.7).
 *
 *   onMove(tx, out);          // out: a recognition 'move' output
 *   onCorrection(tx, out);    // out: a recognition 'correction' output
 */
import type { MoveEventBody } from '../events.js';
import type { PublishedMove, RecognitionOutput } from '../recognition/outputs.js';
import { type Art4Finding, checkArt4, publishArt4 } from './art4.js';
import { adjust, clocksAt } from './clockFeed.js';
import { citeTopic } from '../editions.js';
import { endWith } from './ending.js';
import { afterMoveMade } from './pending.js';
import { syncPlies } from './plies.js';
import { rebase } from './rebase.js';
import { type Tx, emit, patch } from './tx.js';

type CorrectionOutput = Extract<RecognitionOutput, { type: 'correction' }>;

/** The rules state brought up to `ply` of the recognised game. */
const syncTo = (tx: Tx, upTo: number, made: ReadonlyMap<number, number>): void => {
  const { st } = tx;
  const plies = syncPlies(st.plies, st.rec.game, ply => made.get(ply), upTo);
  if (plies !== st.plies) patch(tx, { plies });
};

const bodyOf = (tx: Tx, m: PublishedMove): MoveEventBody => {
  const prev = tx.st.plies[m.ply - 1]?.madeAt;
  const clocks = clocksAt(tx.st, m.at);
  return {
    ply: m.ply,
    san: m.san,
    uci: m.uci,
    fen: m.fen,
    ...(clocks ? { clocks } : {}),
    ...(prev !== undefined ? { elapsedMs: Math.max(0, m.at - prev) } : {}),
  };
};

/** Ends the game if the position after `ply` ends it by itself and the move may end it. */
const automaticEnd = (tx: Tx, ply: number, at: number, art4: Art4Finding | undefined): void => {
  const end = tx.st.plies[ply]?.status.end;
  if (!end || tx.st.ended) return;
  if (art4?.breach && tx.st.profile.moving.gameEndRequiresArticle4) return;
  endWith(tx, at, end);
};

/** A move taken back under an Art. 4 duty, seen again on the board: not accepted (enforce mode). */
const isForbidden = (tx: Tx, m: PublishedMove): boolean => {
  const ob = tx.st.obligation;
  return ob !== undefined && ob.ply === m.ply && ob.forbidden.includes(m.uci);
};

/** A newly published move. */
export const onMove = (tx: Tx, m: PublishedMove): void => {
  if (isForbidden(tx, m)) {
    rebase(tx, tx.st.rec.game.truncate(m.ply - 1).unwrap());
    return;
  }
  syncTo(tx, m.ply, new Map([[m.ply, m.at]]));
  emit(tx, m.at, { type: 'move', ...bodyOf(tx, m) });
  const art4 = checkArt4(tx, m);
  if (publishArt4(tx, m, art4)) return;
  if (tx.st.obligation?.ply === m.ply) patch(tx, { obligation: undefined });
  afterMoveMade(tx, m);
  automaticEnd(tx, m.ply, m.at, art4);
};

/** After plies from `fromPly` were removed: completions forgotten, the clock of the side to move running. */
const afterCut = (tx: Tx, fromPly: number, at: number): void => {
  const keep = fromPly - 1;
  const { completed, clock } = tx.st;
  patch(tx, {
    completed: { white: Math.min(completed.white, keep), black: Math.min(completed.black, keep) },
  });
  const turn = tx.st.rec.game.positionsView()[keep]?.turn;
  if (clock && turn && clock.phase !== 'stopped' && clock.toMove !== turn) adjust(tx, at, { toMove: turn });
};

/** Published plies replaced from `fromPly` (a revision, takeback or gesture: never a branch). */
export const onCorrection = (tx: Tx, out: CorrectionOutput): void => {
  syncTo(tx, out.fromPly - 1 + out.moves.length, new Map(out.moves.map(m => [m.ply, m.at])));
  emit(tx, out.at, {
    type: 'correction',
    fromPly: out.fromPly,
    moves: out.moves.map(m => bodyOf(tx, m)),
    reason: out.reason,
  });
  afterCut(tx, out.fromPly, out.at);
  if (out.reason === 'takeback') {
    // Only the arbiter reinstates a position (7.5.1, 7.6): the players' takeback is for him to confirm.
    emit(tx, out.at, {
      type: 'alert',
      code: 'board-mismatch',
      article: citeTopic(tx.st.profile, 'displacedFoundLater'),
      color: tx.st.rec.game.turn,
      detail: `The board shows the position after ply ${out.fromPly - 1} again (${out.confidence === 'repeated' ? 'the latest of several plies with that position' : 'a unique match'}): plies from ${out.fromPly} are taken back.`,
    });
  }
  let last: Art4Finding | undefined;
  for (const m of out.moves) {
    last = checkArt4(tx, m);
    if (publishArt4(tx, m, last)) return;
    afterMoveMade(tx, m);
  }
  const tip = out.moves[out.moves.length - 1];
  if (tip) automaticEnd(tx, tip.ply, tip.at, last);
};
