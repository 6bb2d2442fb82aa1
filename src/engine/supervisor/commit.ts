/**
 * Judging at the commit point. A recognised move stays revisable while pieces may still be moving:
 * d3 on the way to d4, Rd1 on the way to Rf1, a rook's stop before it captures. So its Art. 4
 * findings, and an automatic ending of its position (mate, stalemate, dead position, fivefold, 75
 * moves), are decided only once the move is final: its mover's press, the opponent's reply made on
 * top of it, the end of the game, or, for a move that ends the game, the board left quiet on it for
 * `quietMs` (nobody presses a clock after mate in a game without one). Nothing provisional is
 * judged, so nothing provisional is ever an alert.
 *
 *   holdMove(tx, published);          // at publication: waits
 *   judgeUpTo(tx, 7, 12_400);         // ply 7 final (press): its alerts or findings, its ending
 */
import type { BoardEvent } from '../recognition/boardEvent.js';
import type { PublishedMove } from '../recognition/outputs.js';
import type { Color, Square } from 'chessops';
import { opposite } from 'chessops/util';
import { DEFAULT_QUIET_MS } from '../events.js';
import { advanceAnchor } from '../recognition/publish.js';
import { tipWentOn } from '../recognition/revise.js';
import { diffSquares, isRemovalOnly, pieceAt } from '../recognition/sensedBoard.js';
import { madeIndexOf } from '../recognition/state.js';
import { type Art4Finding, checkArt4, publishArt4 } from './art4.js';
import { endWith } from './ending.js';
import { positionAt } from './state.js';
import { type Tx, emit, emitOnce, patch } from './tx.js';
import { say } from '../texts.js';

/** The quiet time after which the daemon acts on a board without a press (GameSettings.quietMs). */
export const quietMsOf = (tx: Tx): number => tx.st.settings.quietMs ?? DEFAULT_QUIET_MS;

/** A newly published move waits for its judgement (it replaces a waiting move of the same ply). */
export const holdMove = (tx: Tx, m: PublishedMove): void => {
  patch(tx, { unjudged: [...tx.st.unjudged.filter(u => u.ply < m.ply), m] });
};

/** Withdraws the alerts about plies from `fromPly` on (they were taken back). */
export const withdrawPlyAlerts = (tx: Tx, fromPly: number, at: number): void => {
  const gone = tx.st.plyAlerts.filter(a => a.ply >= fromPly);
  if (gone.length === 0) return;
  patch(tx, { plyAlerts: tx.st.plyAlerts.filter(a => a.ply < fromPly) });
  for (const a of gone)
    emit(tx, at, { type: 'alert-withdrawn', alert: a.seq, code: a.code, reason: 'replaced' });
};

/**
 * Plies from `fromPly` replaced by `moves` (a correction, a takeback, an arbiter's restore): the
 * replaced plies' waiting moves are dropped, judged ones are forgotten; with `withdraw`, the alerts
 * about them are withdrawn (a takeback the board tracker found: those plies may never have been).
 */
export const replacePlies = (
  tx: Tx,
  fromPly: number,
  moves: readonly PublishedMove[],
  at: number,
  withdraw: boolean,
): void => {
  const { st } = tx;
  // Alerts exist only about judged plies: a correction reaching them takes those plies back.
  withdraw &&= fromPly <= st.judged;
  patch(tx, {
    unjudged: [...st.unjudged.filter(u => u.ply < fromPly), ...moves],
    judged: Math.min(st.judged, fromPly - 1),
    suspicion: st.suspicion && st.suspicion.ply >= fromPly ? undefined : st.suspicion,
    breach: st.breach && st.breach.ply >= fromPly ? undefined : st.breach,
  });
  if (withdraw) withdrawPlyAlerts(tx, fromPly, at);
};

/** Ends the game if the position after `ply` ends it by itself and the move may end it. */
const automaticEnd = (tx: Tx, ply: number, at: number, art4: Art4Finding | undefined): void => {
  const end = tx.st.plies[ply]?.status.end;
  if (!end || tx.st.ended) return;
  // Only a proven breach keeps the position from ending the game (E14+ 5.1.1): an inferred one is
  // the arbiter's to weigh, never a decision of the daemon's.
  const proven = art4?.alerts.some(a => a.breach && a.grade === 'proven') ?? false;
  if (proven && tx.st.profile.moving.gameEndRequiresArticle4) return;
  // Plies read off a board re-read after a gap prove the position, not whose move it is (a rook
  // goes to a3 in one move or two): only a checkmate, where the mated side must be the one to
  // move, ends the game by itself; any other ending there is the arbiter's.
  const read = tx.st.readOff;
  if (read && ply >= read.from && ply <= read.to && end.kind !== 'checkmate') {
    const turn = positionAt(tx.st, ply).turn;
    const plies = read.from === read.to ? `ply ${read.from}` : `plies ${read.from}-${read.to}`;
    emitOnce(tx, `read-off-end:${ply}:${tx.st.epoch}`, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: end.article,
      color: turn,
      detail: `The board shows a position that ends the game if ${turn === 'white' ? 'White' : 'Black'} is to move, after ${plies} read off the board after a gap: the board does not show whose move it is, nor the moves that led there. The arbiter decides whether the game ended; no result from the daemon.`,
      text: [
        read.from === read.to
          ? say('end.read_off_one', { color: turn, ply: read.from })
          : say('end.read_off', { color: turn, from_ply: read.from, to_ply: read.to }),
      ],
    });
    return;
  }
  endWith(tx, at, end);
};

/**
 * Judges every waiting move up to `ply`, in order, at `at`: its Art. 4 findings (alerts when proven,
 * findings otherwise), then an automatic ending of its position. Returns true when enforce mode
 * took a move back (the recogniser is then on another line).
 */
export const judgeUpTo = (tx: Tx, ply: number, at: number): boolean => {
  for (;;) {
    const u = tx.st.unjudged[0];
    if (!u || u.ply > ply || tx.st.ended) return false;
    patch(tx, { unjudged: tx.st.unjudged.slice(1), judged: u.ply });
    if (u.ply > tx.st.rec.game.length) continue;
    const f = checkArt4(tx, u);
    if (publishArt4(tx, u, f, at)) return true;
    if (tx.st.obligation?.ply === u.ply) patch(tx, { obligation: undefined });
    automaticEnd(tx, u.ply, u.at, f);
  }
};

/** Judges everything published: the game ends (a result, a resignation, a claim), so every move is final. */
export const judgeAll = (tx: Tx, at: number): boolean => judgeUpTo(tx, tx.st.rec.game.length, at);

/** Does the position after `ply` end the game by itself? */
export const endsGame = (tx: Tx, ply: number): boolean => tx.st.plies[ply]?.status.end !== undefined;

/**
 * A move on top of `ply - 1` proves that ply final: if that ply's position ends the game, it is
 * judged now (and the game may end there, so the move on top is no move of the game).
 */
export const beforeMoveOnTop = (tx: Tx, ply: number, at: number): void => {
  const prev = ply - 1;
  if (prev > tx.st.judged && endsGame(tx, prev)) judgeUpTo(tx, prev, at);
};

/**
 * The board shows the position after the last ply, or that position with only pieces of the side
 * to move lifted (the mated player tipping his king, pieces being put away): the mover is done.
 */
const moverDone = (tx: Tx): boolean => {
  const { rec } = tx.st;
  const tip = positionAt(tx.st, rec.game.length);
  const diff = diffSquares(tip.board, rec.sensed);
  if (diff.isEmpty()) return true;
  return isRemovalOnly(tip.board, rec.sensed, diff) && diff.subsetOf(tip.board[tip.turn]);
};

/**
 * Is the game played with a clock (a physical clock's readings, presses seen, or a time control on
 * a board with a clock)? A hall's boards without a clock have the tournament's time control too
 * (GameSettings.clock false): nothing there marks a move complete until the reply.
 */
export const isClocked = (tx: Tx): boolean =>
  tx.st.reading !== undefined ||
  tx.st.pressSeen ||
  (tx.st.settings.timeControl !== undefined && tx.st.settings.clock !== false);

/**
 * The last move, left quiet on the board for `quietMs` with its mover done, is final when it ends
 * the game (no press is needed after mate), or in a game without a clock (nothing else marks a
 * move complete until the reply): judged, and an ending dated when the move was made.
 */
export const commitQuiet = (tx: Tx, now: number): void => {
  const { st } = tx;
  const tip = st.rec.game.length;
  if (st.ended || tip <= st.judged || (!endsGame(tx, tip) && isClocked(tx))) return;
  // A board nobody saw stood quiet for nobody: not before it was seen again after a gap (a ply
  // replayed from the board's log, its piece resting on the way when the board was read back).
  const since = Math.max(st.plies[tip]?.madeAt ?? 0, st.rec.lastChangeAt, st.gap?.boardAt ?? 0);
  const due = since + quietMsOf(tx);
  if (now < due || st.rec.dirty || !moverDone(tx)) return;
  judgeUpTo(tx, tip, due);
  // Without a clock nothing else makes the move final before the reply is published: having stood
  // this long, it is final for recognition too, and no later board (a ghost of a captured piece, a
  // capturer resting on one of its squares) revises it.
  if (!isClocked(tx) && !tx.st.ended && tx.st.rec.anchor < tip)
    patch(tx, { rec: advanceAnchor(tx.st.rec, tip, due, 'reply').state });
};

/** The last evidence event on `square` since the event that made `ply` (undefined: none). */
const lastOn = (tx: Tx, ply: number, square: Square): BoardEvent | undefined => {
  const { rec } = tx.st;
  const made = madeIndexOf(rec, ply);
  for (let i = rec.evidence.length - 1; i > made; i--) {
    const e = rec.evidence[i];
    if (e?.kind === 'square' && e.square === square) return e;
  }
  return undefined;
};

/** Whether a piece of `color` was set down on `square` since the event that made `ply`. */
const placedSince = (tx: Tx, ply: number, square: Square, color: Color): boolean => {
  const { rec } = tx.st;
  for (let i = madeIndexOf(rec, ply) + 1; i < rec.evidence.length; i++) {
    const e = rec.evidence[i];
    if (e?.kind === 'square' && e.square === square && typeof e.piece !== 'string' && e.piece.color === color)
      return true;
  }
  return false;
};

/**
 * Without a clock, a reply seen under way proves the last move finished: the board shows that
 * move's position except that one piece of the side to move, lifted since the move stood, stands
 * on a square it can go to, and one piece of the mover's, which it can capture, is off the board
 * (or is replaced by it). That is the opponent capturing the move's piece: the captured piece
 * taken off first, then the capturer landing on it or resting on its line, once it has stood twice
 * the settle window: a captured piece carried off by the mover registers for a moment on the
 * squares it passes, and one passing the mover's lifted piece's square looks like a capture of it.
 * The move is then judged and made final for recognition, so a board the reply passes through
 * (the capturer resting on a square the move crossed, a ghost of the captured piece) no longer
 * revises it. Under Art. 4.7 the mover could not change a move his
 * opponent is answering; a position of an earlier ply left standing is still read as a takeback
 * (evaluate.ts). With a clock the presses decide; boards that report occupancy only cannot show
 * whose piece stands where, and are left to the quiet time.
 *
 *   commitOnReply(tx, 485_251);   // Rg5 stood; g5 emptied, ...Rb5 resting on d5 for 1.2 s: Rg5 final
 */
export const commitOnReply = (tx: Tx, now: number): void => {
  const { st } = tx;
  const { rec } = st;
  if (st.ended || isClocked(tx) || st.linkLost || st.resync || st.recovering || st.inferred !== false) return;
  if (rec.undecided || rec.awaitSetup || rec.catchUp || rec.result || rec.sensed.unknown.nonEmpty()) return;
  const tip = rec.game.length;
  if (tip <= rec.anchor) return;
  const pos = positionAt(st, tip);
  const mover = opposite(pos.turn);
  const diff = diffSquares(pos.board, rec.sensed);
  const added = [...diff.intersect(rec.sensed.occupied)];
  const to = added[0];
  if (added.length !== 1 || to === undefined) return;
  const piece = pieceAt(rec.sensed, to);
  if (piece?.color !== pos.turn) return;
  const victims = [...diff.intersect(pos.board[mover])];
  const victim = victims[0];
  if (victims.length !== 1 || victim === undefined) return;
  const from = [...diff.diff(rec.sensed.occupied).intersect(pos.board[pos.turn])];
  const origin = from[0];
  if (from.length !== 1 || origin === undefined || pos.board.get(origin)?.role !== piece.role) return;
  if (diff.size() !== (victim === to ? 2 : 3)) return;
  const lifted = lastOn(tx, tip, origin);
  if (lifted?.kind !== 'square' || lifted.piece !== 'empty') return;
  if (!pos.dests(origin).has(to) || !pos.dests(origin).has(victim)) return;
  const placed = lastOn(tx, tip, to);
  if (!placed || now - placed.at < 2 * rec.options.settleMs) return;
  // A piece of the mover's set down where the capturer now stands: the move went on from where it
  // rested to that square and was captured there (...Rg6 resting, then Rf5, Qxf5), not final.
  if (victim !== to && placedSince(tx, tip, to, mover)) return;
  // Or the move's piece went on from its square, the board showing it standing elsewhere, before
  // the reply began (b3 published, the pawn then resting on b4 and taken en passant): not final.
  if (tipWentOn(rec)) return;
  if (judgeUpTo(tx, tip, now) || tx.st.ended || tx.st.rec.game.length !== tip) return;
  patch(tx, { rec: advanceAnchor(tx.st.rec, tip, now, 'reply').state });
};

/**
 * A flag falls at `at`: a move made before it that ends the game stands (mate before the flag,
 * S60), even if its mover has not pressed. Returns true when the game ended that way.
 */
export const commitEndBefore = (tx: Tx, at: number): boolean => {
  const { st } = tx;
  const tip = st.rec.game.length;
  if (st.ended || tip <= st.judged || !endsGame(tx, tip)) return false;
  const made = st.plies[tip]?.madeAt;
  if (made === undefined || made > at) return false;
  judgeUpTo(tx, tip, at);
  return tx.st.ended !== undefined;
};
