/**
 * Boards held until a press or the quiet time (issue: judge only what the board proves): a board
 * that is no position, or a half-made move that cannot be completed, seen at a quiet moment while
 * pieces may still be moving. Held as the supervisor's `Irregular`, it becomes an alert at a press
 * (illegal.ts completes the illegal move) or once the board has stayed so, quiet, for `quietMs`,
 * and that alert is withdrawn when the board shows a position of the game again. A board re-read
 * after a gap is a board mismatch at once: that is a fact, not handling.
 *
 *   onMismatch(tx, mismatchOutput);       // held
 *   checkIrregular(tx, now, 4000);        // the alert once quiet for 4 s; withdrawn once set right
 */
import { makeSquare, opposite } from 'chessops';
import { citeTopic } from '../editions.js';
import type { AlertCode } from '../events.js';
import type { RecognitionOutput } from '../recognition/outputs.js';
import type { ArticleRef, Color } from '../types.js';
import { diffSquares, pieceAt } from '../recognition/sensedBoard.js';
import { attemptEvents, sensedFen } from './boardFacts.js';
import { type BoardIrregularity, classifyBoard } from './irregular.js';
import { positionAt } from './state.js';
import { type Tx, emit, emitOnce, patch } from './tx.js';
import { type Sentence, englishList, say } from '../texts.js';
import { onUndecided } from './undecided.js';

type MismatchOutput = Extract<RecognitionOutput, { type: 'mismatch' }>;
type PendingOutput = Extract<RecognitionOutput, { type: 'pending' }>;

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };

const tipFen = (tx: Tx): string => tx.st.rec.game.fenAt(tx.st.rec.game.length);

/**
 * A half-made move: only an illegal one is worth an alert (castling or promotion that cannot be
 * completed), and only once the board has stayed so, quiet (see Irregular): a king may be set down
 * on g1 on its way elsewhere.
 */
export const onPending = (tx: Tx, out: PendingOutput): void => {
  const p = out.pending;
  if ((p.kind === 'castling' || p.kind === 'promotion') && !p.legal)
    patch(tx, { irregular: { out, alert: undefined } });
};

/** The alert for an illegal half-made move (castling or promotion), published at `at`. */
const pendingAlert = (tx: Tx, out: PendingOutput, at: number): void => {
  const p = out.pending;
  const { profile } = tx.st;
  if (p.kind === 'castling' && !p.legal) {
    emitOnce(tx, `pending:${out.ply}:${tx.st.epoch}:${p.king}`, at, {
      type: 'alert',
      code: 'illegal-position',
      article: citeTopic(profile, 'castlingIllegalKingTouched'),
      color: p.color,
      grade: 'proven',
      detail: `${NAME[p.color]}'s king stands on ${makeSquare(p.king)} but castling on that side is illegal: another king move must be made (castling on the other side if legal).`,
      text: [say('castling.king_on_square', { color: p.color, square: makeSquare(p.king) })],
      evidence: {
        fenBefore: tipFen(tx),
        boardFen: sensedFen(tx.st.rec.sensed),
        squares: [makeSquare(p.king)],
      },
    });
    patch(tx, { illegalShown: true });
  }
  if (p.kind === 'promotion' && !p.legal) {
    emitOnce(tx, `pending:${out.ply}:${tx.st.epoch}:${p.to}`, at, {
      type: 'alert',
      code: 'illegal-position',
      article: citeTopic(profile, 'illegalMove'),
      color: p.color,
      grade: 'proven',
      detail: `A pawn stands on ${makeSquare(p.to)}, which is not a legal promotion.`,
      text: [say('promotion.not_legal', { square: makeSquare(p.to) })],
      evidence: { fenBefore: tipFen(tx), boardFen: sensedFen(tx.st.rec.sensed), squares: [makeSquare(p.to)] },
    });
  }
};

const irregularityAlert = (
  tx: Tx,
  irr: BoardIrregularity,
): { code: AlertCode; article: ArticleRef; detail: string; text: Sentence[] } | undefined => {
  const { profile } = tx.st;
  const movesEach = Math.floor(tx.st.rec.game.length / 2);
  switch (irr.kind) {
    case 'kingMissing':
      return {
        code: 'king-capture',
        article: citeTopic(profile, 'kingCapture', 'illegalMove'),
        detail: `${NAME[irr.color]}'s king has been taken off the board.`,
        text: [say('king.taken_off', { color: irr.color })],
      };
    case 'coloursReversed': {
      const limit = profile.irregularities.coloursReversedNewGameBeforeMoves;
      const newGame = limit !== undefined && movesEach < limit;
      return {
        code: 'board-mismatch',
        article: citeTopic(profile, 'coloursReversed'),
        detail: newGame
          ? `The colours are reversed after ${movesEach} moves each: a new game with the correct colours.`
          : `The colours are reversed after ${movesEach} moves each: the game continues unless the arbiter rules otherwise.`,
        text: [
          say(newGame ? 'colours_reversed.new_game' : 'colours_reversed.continue', { count: movesEach }),
        ],
      };
    }
    case 'orientation':
      return {
        code: 'board-mismatch',
        article: citeTopic(profile, 'boardOrientation'),
        detail:
          'The board is turned round: the position is transferred to a correctly placed board and the game continues.',
        text: [say('board.turned', {})],
      };
    case 'wrongInitialPosition': {
      const deadline = profile.irregularities.setupClaimDeadlineMoves;
      const late = deadline !== undefined && movesEach >= deadline;
      return {
        code: 'board-mismatch',
        article: citeTopic(
          profile,
          late ? 'setupClaimDeadline' : 'wrongInitialPosition',
          'wrongInitialPosition',
        ),
        detail: late
          ? `Pieces on ${englishList(irr.squares.map(makeSquare))} were set up wrongly; after ${movesEach} moves each no claim is possible (castling with a misplaced king or rook is not allowed).`
          : `Pieces on ${englishList(irr.squares.map(makeSquare))} were set up wrongly: the game is annulled and a new game played.`,
        text: [
          late
            ? say('setup.late', { squares: irr.squares.map(makeSquare), count: movesEach })
            : say('setup.new_game', { squares: irr.squares.map(makeSquare) }),
        ],
      };
    }
    case 'displaced':
      return {
        code: 'displaced-pieces',
        article: citeTopic(profile, 'displacedPieces'),
        detail: `Pieces displaced on ${englishList(irr.squares.map(makeSquare))}: the player who displaced them restores them on his own time.`,
        text: [say('displaced.restore', { squares: irr.squares.map(makeSquare) })],
      };
  }
};

/**
 * The board differs from the record's last position only as the side to move's hands make it
 * while he moves, on four squares at most: pieces taken off (his own lifted, one captured piece
 * taken off first) and at most two of his own set down (a knight set down beside its square, king
 * and rook castling). Moves
 * made meanwhile would show a piece of the other side set down. Re-read after a gap, that is a
 * move under way, judged as in play, not a mismatch: a board read back while 15. Nxe4 was being
 * played, the knight resting on f3, or while a captured piece was off and the capturer in hand.
 */
const moveUnderWay = (tx: Tx): boolean => {
  const { rec } = tx.st;
  const tip = positionAt(tx.st, rec.game.length);
  const diff = diffSquares(tip.board, rec.sensed);
  // One move's squares at most (castling: four), one captured piece at most.
  if (diff.isEmpty() || diff.size() > 4 || diff.intersect(tip.board[opposite(tip.turn)]).size() > 1)
    return false;
  let placed = 0;
  for (const sq of diff) {
    if (!rec.sensed.occupied.has(sq)) continue;
    if (rec.sensed.unknown.has(sq) || pieceAt(rec.sensed, sq)?.color !== tip.turn) return false;
    placed++;
  }
  return placed <= 2;
};

/**
 * A quiet board that is no position. A board re-read after a gap (link back, restart, an arbiter's
 * restore) is a board mismatch at once: that is a fact, not handling. Otherwise pieces may still be
 * moving (a knight set down beside its square, a king carried over the board): it is held as an
 * Irregular and becomes an alert only at a press, or once it has stayed so, quiet, for `quietMs`.
 */
export const onMismatch = (tx: Tx, out: MismatchOutput): void => {
  if (out.trigger === 'press') return;
  // Only with the board's log replayed over the gap: the record then holds what was played, and
  // the board can differ from it by a move under way only; a snapshot alone may be plies ahead.
  const { gap, recovered } = tx.st;
  const logged = gap !== undefined && recovered !== undefined && recovered.until >= gap.from;
  if (tx.st.resync && !(logged && moveUnderWay(tx))) {
    holdAlert(tx, out, () => mismatchAlert(tx, out, out.at));
    return;
  }
  // Still irregular, otherwise: an alert already out for it stays (to be withdrawn once set right).
  const shown = tx.st.irregular?.alert;
  patch(tx, { irregular: { out, alert: shown && shown.seq > 0 ? shown : undefined } });
};

/**
 * Publishes an alert about the board now on it (`publish`), kept as the Irregular so that it is
 * withdrawn once the board shows a position of the game again.
 */
export const holdAlert = (tx: Tx, out: MismatchOutput, publish: () => void): void => {
  const before = tx.st.seq;
  publish();
  const alert = tx.events.find(e => e.seq > before && e.type === 'alert');
  if (alert?.type === 'alert') patch(tx, { irregular: { out, alert: { seq: alert.seq, code: alert.code } } });
};

/** The alert for a board that is no position (what it shows, when that is more than a move in progress). */
export const mismatchAlert = (tx: Tx, out: MismatchOutput, at: number): void => {
  const { st } = tx;
  const squares = out.squares.map(makeSquare);
  const pos = positionAt(st, st.rec.game.length);
  const reread = st.resync || st.recovering || st.inferred;
  // A board re-read after a lost link is compared with a record that may be behind it: what it
  // shows (a king elsewhere, pieces moved) is the moves made meanwhile, not an irregularity.
  const behind = (st.resync && st.gapped) || st.recovering || st.inferred || out.reason === 'beyondReach';
  const irr = behind ? undefined : classifyBoard(pos, positionAt(st, 0), st.rec.sensed);
  const special = irr ? irregularityAlert(tx, irr) : undefined;
  const mismatch = reread || out.reason === 'ambiguous' || out.reason === 'beyondReach';
  const alert =
    special ??
    (mismatch
      ? {
          code: 'board-mismatch' as const,
          article: citeTopic(st.profile, 'displacedFoundLater'),
          detail:
            out.reason === 'beyondReach'
              ? `The board does not show the game's position after ply ${out.ply}: presses were missed, and more plies may have been made than can be followed.`
              : `The board does not show the game's position after ply ${out.ply} (${out.reason}).`,
          text: [
            say(out.reason === 'ambiguous' ? 'board.differs_ambiguous' : 'board.differs_unreachable', {
              ply: out.ply,
            }),
          ],
        }
      : {
          code: 'illegal-position' as const,
          article: citeTopic(st.profile, 'illegalMove'),
          detail: `The board shows no legal position after ply ${out.ply}; it becomes an illegal move if the clock is pressed.`,
          text: [say('board.no_legal_position', { ply: out.ply })],
        });
  emitOnce(tx, `mismatch:${out.ply}:${st.epoch}:${alert.code}`, at, {
    type: 'alert',
    ...alert,
    color: irr?.kind === 'kingMissing' ? opposite(irr.color) : pos.turn,
    ...(mismatch ? {} : { grade: 'proven' as const }),
    evidence: {
      fenBefore: tipFen(tx),
      boardFen: sensedFen(st.rec.sensed),
      squares,
      events: attemptEvents(st.rec),
    },
  });
  patch(tx, { illegalShown: true });
};

/**
 * The held Irregular, once the board has stayed so, quiet, for `quietMs`: published as its alert
 * (kept so that it can be withdrawn when the board shows a position of the game again).
 */
export const checkIrregular = (tx: Tx, now: number, quietMs: number): void => {
  const { st } = tx;
  const irr = st.irregular;
  if (!irr || st.ended) return;
  const kind = st.rec.status.kind;
  if (kind !== 'mismatch' && kind !== 'pending') {
    // Pieces in hand, or not judged yet: it may still be set right, or go on being wrong.
    if (st.rec.dirty || kind !== 'synced') return;
    // The board shows the game's position again: nothing irregular any more.
    patch(tx, { irregular: undefined });
    if (irr.alert)
      emit(tx, now, {
        type: 'alert-withdrawn',
        alert: irr.alert.seq,
        code: irr.alert.code,
        reason: 'resolved',
      });
    return;
  }
  if (irr.alert || st.rec.dirty) return;
  // Quiet since it was seen: a board read back after a gap stood so for an unknown time (the
  // times of its log are made up), so the quiet time runs from the moment it was seen again.
  const due = Math.max(st.rec.lastChangeAt, st.gap?.boardAt ?? Number.NEGATIVE_INFINITY) + quietMs;
  if (now < due) return;
  const before = tx.st.seq;
  const out = irr.out;
  if (out.type === 'pending') pendingAlert(tx, out, due);
  else if (out.orders) onUndecided(tx, out, due);
  else mismatchAlert(tx, out, due);
  const alert = tx.events.find(e => e.seq > before && e.type === 'alert');
  patch(tx, {
    irregular: {
      out,
      alert:
        alert?.type === 'alert' ? { seq: alert.seq, code: alert.code } : { seq: 0, code: 'illegal-position' },
    },
  });
};
