/**
 * Published moves and corrections: each recognised move becomes a `move` event with its clock,
 * each revision a `correction`; the rules state follows (plies.ts). A move is judged (Art. 4, and
 * an automatic ending of its position) only once it is final: commit.ts.
 *
 *   onMove(tx, out);          // out: a recognition 'move' output
 *   onCorrection(tx, out);    // out: a recognition 'correction' output
 */
import type { MoveEventBody } from '../events.js';
import { endWith } from './ending.js';
import type { PublishedMove, RecognitionOutput } from '../recognition/outputs.js';
import { adjust, clocksAt } from './clockFeed.js';
import { citeTopic } from '../editions.js';
import { beforeMoveOnTop, endsGame, holdMove, judgeUpTo, replacePlies } from './commit.js';
import { afterMoveMade } from './pending.js';
import { syncPlies } from './plies.js';
import { rebase } from './rebase.js';
import { type Tx, emit, isOver, patch } from './tx.js';
import { type Sentence, say } from '../texts.js';

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
  // A move on top of a position that ends the game proves it final: the game may end there.
  beforeMoveOnTop(tx, m.ply, m.at);
  if (tx.st.ended) return;
  syncTo(tx, m.ply, new Map([[m.ply, m.at]]));
  emit(tx, m.at, { type: 'move', ...bodyOf(tx, m) });
  holdMove(tx, m);
  afterMoveMade(tx, m);
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
  beforeMoveOnTop(tx, out.fromPly, out.at);
  if (tx.st.ended) return;
  syncTo(tx, out.fromPly - 1 + out.moves.length, new Map(out.moves.map(m => [m.ply, m.at])));
  // The new line stops at a position that ends the game: a move on top of it proves it final.
  const stop = out.moves.findIndex((m, i) => i < out.moves.length - 1 && endsGame(tx, m.ply));
  const moves = stop < 0 ? out.moves : out.moves.slice(0, stop + 1);
  emit(tx, out.at, {
    type: 'correction',
    fromPly: out.fromPly,
    moves: moves.map(m => bodyOf(tx, m)),
    reason: out.reason,
  });
  afterCut(tx, out.fromPly, out.at);
  replacePlies(tx, out.fromPly, moves, out.at, true);
  if (out.reason === 'takeback') {
    // Only the arbiter reinstates a position (7.5.1, 7.6): the players' takeback is for him to confirm.
    emit(tx, out.at, {
      type: 'alert',
      code: 'board-mismatch',
      article: citeTopic(tx.st.profile, 'displacedFoundLater'),
      color: tx.st.rec.game.turn,
      detail: `The board shows the position after ply ${out.fromPly - 1} again (${out.confidence === 'repeated' ? 'the latest of several plies with that position' : 'a unique match'}): plies from ${out.fromPly} are taken back.`,
      text: [
        say(out.confidence === 'repeated' ? 'board.takeback_repeated' : 'board.takeback_unique', {
          ply: out.fromPly - 1,
          from_ply: out.fromPly,
        }),
      ],
    });
  }
  for (const m of moves) afterMoveMade(tx, m);
  const end = moves[stop];
  if (!end) return;
  judgeUpTo(tx, end.ply, out.at);
  // The ending did not stand (E14+: the move broke Art. 4): the rest of the line is published.
  for (const m of out.moves.slice(stop + 1)) {
    if (isOver(tx) || tx.st.rec.game.length < m.ply) return;
    emit(tx, m.at, { type: 'move', ...bodyOf(tx, m) });
    holdMove(tx, m);
    afterMoveMade(tx, m);
  }
};

/**
 * The arbiter's record of the moves after `afterPly` (SAN): they replace the published plies from
 * `afterPly + 1` (a `correction` with reason `arbiter`) and are final; the recogniser goes on from
 * the new line (the board may already show moves played on from it). Moves that are not legal
 * change nothing and tell the arbiter so. Returns false then.
 */
export const arbiterMoves = (tx: Tx, afterPly: number, sans: readonly string[], at: number): boolean => {
  const { game } = tx.st.rec;
  const refuse = (why: string, text: Sentence): false => {
    emit(tx, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(tx.st.profile, 'displacedFoundLater'),
      detail: `The moves given after ply ${afterPly} were not recorded: ${why}.`,
      text: [text],
    });
    return false;
  };
  if (!Number.isInteger(afterPly) || afterPly < 0 || afterPly > game.length)
    return refuse(
      `the game has ${game.length} plies`,
      say('arbiter.moves_not_recorded_length', { ply: afterPly, count: game.length }),
    );
  let line = game.truncate(afterPly).unwrap();
  for (const san of sans) {
    const next = line.playSan(san, { at });
    if (next.isErr)
      return refuse(
        `${san} is not a legal move after ply ${line.length}`,
        say('arbiter.moves_not_recorded_illegal', { ply: afterPly, given: san, to_ply: line.length }),
      );
    line = next.value;
  }
  rebase(tx, line);
  const made = new Map<number, number>();
  for (let ply = afterPly + 1; ply <= line.length; ply++) made.set(ply, at);
  syncTo(tx, line.length, made);
  const moves: MoveEventBody[] = [];
  for (let ply = afterPly + 1; ply <= line.length; ply++) {
    const rec = line.moveAt(ply);
    if (rec) moves.push({ ply, san: rec.san, uci: rec.uci, fen: rec.fen });
  }
  emit(tx, at, { type: 'correction', fromPly: afterPly + 1, moves, reason: 'arbiter' });
  patch(tx, {
    unjudged: [],
    judged: line.length,
    completed: { white: line.length, black: line.length },
    claimable: undefined,
    obligation: undefined,
    breach: undefined,
    suspicion: undefined,
  });
  const turn = line.turn;
  const { clock } = tx.st;
  if (clock && clock.phase !== 'stopped' && clock.toMove !== turn) adjust(tx, at, { toMove: turn });
  const end = tx.st.plies[line.length]?.status.end;
  if (end) endWith(tx, at, end);
  return true;
};
