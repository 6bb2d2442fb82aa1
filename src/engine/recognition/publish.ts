/**
 * Publishing recognised moves: extending the game, replacing revisable plies (a `correction`,
 * never a branch), and making plies final (by the clock press or the opponent's reply), with the
 * evidence of each move cut from the event log.
 *
 *   const { state, outputs } = publishLine(st, st.game.length, [{ from: 12, to: 28 }], [after], 600, 'revision');
 *   outputs[0];   // { type: 'move', ply: 1, san: 'e4', ... }
 *   finalizeByPress(state, 'white', 900).outputs;   // [{ type: 'final', ply: 1, by: 'press', ... }]
 */
import type { Chess, Color, NormalMove } from 'chessops';
import { SquareSet } from 'chessops';
import type { CorrectionReason, FinalBy, PublishedMove, RecognitionOutput } from './outputs.js';
import { changedBy } from './search.js';
import { replayBase, replayEvent, touchedBy } from './evidence.js';
import { diffSquares } from './sensedBoard.js';
import { type RecognitionState, madeIndexOf } from './state.js';

export interface Step {
  readonly state: RecognitionState;
  readonly outputs: readonly RecognitionOutput[];
}

export const NO_OUTPUTS: readonly RecognitionOutput[] = Object.freeze([]);

/** Makes plies up to `to` final: emits `final` for each, drops their evidence. */
export const advanceAnchor = (st: RecognitionState, to: number, at: number, by: FinalBy): Step => {
  if (to <= st.anchor) return { state: st, outputs: NO_OUTPUTS };
  const outputs: RecognitionOutput[] = [];
  for (let ply = st.anchor + 1; ply <= to; ply++) outputs.push({ type: 'final', at, ply, by });
  const cut = madeIndexOf(st, to) + 1;
  const evidence = cut > 0 ? st.evidence.slice(cut) : st.evidence;
  const shift = (i: number): number => (i - cut >= 0 ? i - cut : -1);
  const base = st.game.positionView(to);
  // The revisable plies' own squares stay touched: a catch-up's last ply was seen only in the
  // snapshot, cut away here, and may still be revised (the bishop caught on d2 goes on to e3).
  let own = SquareSet.empty();
  for (let ply = to + 1; ply <= st.game.length; ply++) {
    const pos = st.game.positionView(ply - 1);
    const move = st.game.moveAt(ply)?.move;
    if (pos && move && 'from' in move) own = own.union(changedBy(pos, move));
  }
  const state: RecognitionState = {
    ...st,
    anchor: to,
    evidence,
    made: st.made.slice(to - st.anchor).map(shift),
    lastChange: shift(st.lastChange),
    touched: base ? touchedBy(evidence, base.board).union(own) : st.touched,
  };
  return { state, outputs };
};

/** The ply whose mover is `side` last among the revisable plies, made final by his press. */
export const finalizeByPress = (st: RecognitionState, side: Color, at: number): Step => {
  let last = 0;
  for (let ply = st.game.length; ply > 0; ply--) {
    if (st.game.positionView(ply - 1)?.turn === side) {
      last = ply;
      break;
    }
  }
  const pressed: RecognitionState = { ...st, pressSeen: true, pressedPly: Math.max(st.pressedPly, last) };
  if (last <= st.anchor) return { state: pressed, outputs: NO_OUTPUTS };
  return advanceAnchor(pressed, last, at, 'press');
};

const sameMove = (a: NormalMove, b: NormalMove): boolean =>
  a.from === b.from && a.to === b.to && a.promotion === b.promotion;

interface MadeTimes {
  readonly made: number[];
  readonly observed: boolean[];
}

/**
 * When each new ply was made: the last one by the latest board change; earlier ones (several
 * plies between quiet moments) by replaying the evidence and finding when the board showed them.
 */
const madeTimes = (
  st: RecognitionState,
  before: Chess,
  moves: readonly NormalMove[],
  positions: readonly Chess[],
  baseIndex: number,
  complete: boolean,
): MadeTimes => {
  const n = moves.length;
  const made = new Array<number>(n).fill(st.lastChange);
  const observed = new Array<boolean>(n).fill(true);
  // The board shows the last position now: the latest change made it.
  const last = complete ? n - 1 : n;
  if (last === 0) return { made, observed };
  const seen = new Array<number>(n).fill(-2);
  let s = replayBase(st, before.board);
  for (let j = baseIndex + 1; j <= st.lastChange; j++) {
    const e = st.evidence[j];
    if (!e) continue;
    s = replayEvent(s, e);
    for (let i = 0; i < last; i++) {
      const pos = positions[i];
      if (pos && diffSquares(pos.board, s).isEmpty()) seen[i] = j;
    }
  }
  for (let i = last - 1; i >= 0; i--) {
    const next = made[i + 1] ?? st.lastChange;
    const when = seen[i] ?? -2;
    if (when > baseIndex && when <= next) {
      made[i] = when;
      continue;
    }
    // Never seen alone: the last event on a square this ply changed, before the next ply was made.
    const prior = i === 0 ? before : positions[i - 1];
    const move = moves[i];
    const squares = prior && move ? changedBy(prior, move) : SquareSet.empty();
    let found = next;
    for (let j = next - 1; j > baseIndex; j--) {
      const e = st.evidence[j];
      if (e?.kind === 'square' && squares.has(e.square)) {
        found = j;
        break;
      }
    }
    made[i] = found;
    observed[i] = false;
  }
  return { made, observed };
};

/**
 * Publishes the line `root` + `path`: new plies beyond the published tip become `move` outputs;
 * if it departs from published plies, they are replaced by one `correction`. The ply before the
 * new tip becomes final (the reply was made on top of it). `complete`: the board shows the new
 * tip's position now (not with pieces of the next move already lifted or half moved).
 */
export const publishLine = (
  st: RecognitionState,
  root: number,
  path: readonly NormalMove[],
  positions: readonly Chess[],
  publishedAt: number,
  reason: CorrectionReason,
  complete = true,
): Step => {
  const tip = st.game.length;
  let k = 0;
  while (k < path.length && root + k < tip) {
    const rec = st.game.moveAt(root + k + 1);
    const move = path[k];
    if (!rec || !move || !('from' in rec.move) || !sameMove(rec.move, move)) break;
    k++;
  }
  const newTip = root + path.length;
  if (k === path.length && newTip === tip) return { state: st, outputs: NO_OUTPUTS };
  const keep = root + k;
  const before = k === 0 ? st.game.positionView(root) : positions[k - 1];
  if (!before) throw new RangeError(`publishLine: no position at ply ${keep}`);
  const fresh = path.slice(k);
  const baseIndex = madeIndexOf(st, keep);
  const times = madeTimes(st, before, fresh, positions.slice(k), baseIndex, complete);

  let game = st.game.truncate(keep).unwrap();
  const published: PublishedMove[] = [];
  fresh.forEach((move, i) => {
    const index = times.made[i] ?? st.lastChange;
    const at = st.evidence[index]?.at ?? st.lastChangeAt;
    game = game.play(move, { at }).unwrap();
    const rec = game.moveAt(game.length);
    if (!rec) throw new RangeError('publishLine: move not recorded');
    const start = (i === 0 ? baseIndex : (times.made[i - 1] ?? baseIndex)) + 1;
    published.push({
      ply: rec.ply,
      san: rec.san,
      uci: rec.uci,
      fen: rec.fen,
      at,
      publishedAt,
      evidence: st.evidence.slice(start, index + 1),
      observed: times.observed[i] ?? true,
    });
  });

  const outputs: RecognitionOutput[] =
    keep < tip
      ? [{ type: 'correction', at: publishedAt, fromPly: keep + 1, moves: published, reason }]
      : published.map(m => ({ type: 'move', ...m }));
  const made = [...st.made.slice(0, Math.max(0, keep - st.anchor)), ...times.made];
  // A published move ends an undecided catch-up (the board was explained). The plies a catch-up
  // found were made while no press could be seen: they count as pressed for, all but the last,
  // which the board may have caught on its way (a bishop resting on d2 on its way to e3).
  const extended = {
    ...st,
    game,
    made,
    undecided: fresh.length > 0 ? undefined : st.undecided,
    catchUp: fresh.length > 0 ? false : st.catchUp,
    shown: fresh.length > 0 || st.shown,
    missedTried: fresh.length > 0 ? false : st.missedTried,
    beyondReach: fresh.length > 0 ? false : st.beyondReach,
    pressedPly:
      st.catchUp && fresh.length > 0 ? Math.max(st.pressedPly, newTip - 1) : Math.min(st.pressedPly, newTip),
  };
  const finalTo = Math.max(st.anchor, newTip - 1);
  if (fresh.length === 0 || finalTo <= st.anchor) return { state: extended, outputs };
  const final = advanceAnchor(extended, finalTo, publishedAt, 'reply');
  return { state: final.state, outputs: [...outputs, ...final.outputs] };
};
