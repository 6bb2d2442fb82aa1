/**
 * Art. 4 (the act of moving) judged on a made move, from the trace of the player's turn
 * (touch.ts): touch-move for own and opponent pieces (4.3.1-4.3.3), a touched piece that cannot
 * move (4.5, for information), the rook touched before the king when castling (4.4.2), king and
 * rook touched together (4.4.1), the promotion piece final once it touched the square (4.4.4), and
 * a piece released on a legal square then moved on (4.7; the king on its castling square 4.7.2).
 * In 'advise' mode the arbiter gets an alert with the evidence; in 'enforce' mode a breach also
 * takes the move back (a correction) and the player must make a move that obeys Art. 4.
 *
 *   const finding = checkArt4(tx, publishedMove);
 *   if (publishArt4(tx, publishedMove, finding)) return;   // enforced: the move was taken back
 */
import type { Color, NormalMove, Position, Square } from 'chessops';
import { kingCastlesTo, makeSquare, squareFile } from 'chessops';
import { castlingSide } from 'chessops/chess';
import { type ArticleTopic, type EditionProfile, citeTopic } from '../editions.js';
import type { AlertCode, Grade } from '../events.js';
import type { BoardEvent } from '../recognition/boardEvent.js';
import type { PublishedMove } from '../recognition/outputs.js';
import { rebase } from './rebase.js';
import { positionAt } from './state.js';
import {
  type Attendance,
  type Touch,
  type TurnTrace,
  attendance,
  isAttended,
  madeWithin,
  traceTurn,
  turnOpenAt,
} from './touch.js';
import { type Tx, emit, emitOnce, patch } from './tx.js';
import { type Sentence, englishList, say } from '../texts.js';

export interface Art4Alert {
  readonly code: AlertCode;
  readonly topic: ArticleTopic;
  readonly detail: string;
  /** The detail as data (texts.ts). */
  readonly text: Sentence;
  /** A breach (false: information for the arbiter, such as 4.5). */
  readonly breach: boolean;
  /**
   * 'proven': the board shows it beyond any handling (an own piece lifted and put back with none
   * of the player's pieces in hand, then another moved; the rook lifted before the king, then
   * castling). 'possible': inferred from timing, or from a piece whose hand the board cannot tell
   * (an opponent's piece lifted and put back may be the opponent adjusting it).
   */
  readonly grade: Grade;
}

export interface Art4Finding {
  readonly breach: boolean;
  readonly alerts: readonly Art4Alert[];
  readonly events: readonly BoardEvent[];
}

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };
const sq = (s: Square): string => makeSquare(s);

/** The square of the piece a move captures (en passant: beside the destination), if any. */
const captureSquare = (pos: Position, m: NormalMove): Square | undefined => {
  if (castlingSide(pos, m)) return undefined;
  if (pos.board.has(m.to)) return m.to;
  const piece = pos.board.get(m.from);
  if (piece?.role === 'pawn' && m.to === pos.epSquare && squareFile(m.from) !== squareFile(m.to))
    return m.to + (piece.color === 'white' ? -8 : 8);
  return undefined;
};

/** Every legal move of the position, castling as king to rook. */
const legalMoves = (pos: Position): NormalMove[] => {
  const out: NormalMove[] = [];
  for (const [from, dests] of pos.allDests()) for (const to of dests) out.push({ from, to });
  return out;
};

interface Judge {
  readonly pos: Position;
  readonly move: NormalMove;
  readonly moves: readonly NormalMove[];
  readonly profile: EditionProfile;
  readonly settleMs: number;
  readonly now: number;
  /** Whether the opponent's hand may still have been at the board (touch.ts). */
  readonly attendance: Attendance;
}

/** `proven` for a touch of the mover's own piece made once only he can have been at the board. */
const ownGrade = (j: Judge, t: Touch): Grade =>
  isAttended(j.attendance, t.origin, t.at) ? 'proven' : 'possible';

const movable = (j: Judge, origin: Square): boolean => j.moves.some(m => m.from === origin);
const capturable = (j: Judge, victim: Square): boolean =>
  j.moves.some(m => captureSquare(j.pos, m) === victim);
const canCapture = (j: Judge, origin: Square, victim: Square): boolean =>
  j.moves.some(m => m.from === origin && captureSquare(j.pos, m) === victim);

const label = (t: Touch): string => `${t.piece.role} on ${sq(t.origin)}`;

/** 4.4.1 / 4.4.2: the order of king and rook when castling. */
const castlingOrder = (j: Judge, trace: TurnTrace): Art4Alert | undefined => {
  const side = castlingSide(j.pos, j.move);
  if (!side || !j.profile.moving.rookFirstBarsCastling) return undefined;
  const own = trace.touches.filter(t => t.own);
  const rook = own[own.findIndex(t => t.origin === j.move.to)];
  const king = own[own.findIndex(t => t.origin === j.move.from)];
  // The king moved: when its lift is not in the turn's trace, it came before the turn was seen to
  // open (the opponent's press reported after it), so before the rook's.
  if (!rook || !king || king.at < rook.at || (king.at === rook.at && own.indexOf(king) < own.indexOf(rook)))
    return undefined;
  // Lifted together, the two are reported one after the other in the board's scan order (a1 before
  // e1): the board cannot tell "rook first" from "at the same time" when nothing else happened
  // between the two lifts, within one settle window.
  const sameTime =
    king.at - rook.at < j.settleMs &&
    !rook.returned &&
    !trace.placements.some(p => p.since <= king.at && p.since >= rook.at) &&
    !own.some(t => t !== rook && t !== king && t.at >= rook.at && t.at <= king.at);
  if (sameTime && j.profile.moving.simultaneousKingRookTouch === 'kingFirst') return undefined;
  return {
    code: 'castling-order',
    topic: 'castlingRookFirst',
    breach: true,
    grade: 'proven',
    detail: `${NAME[j.pos.turn]} touched the rook on ${sq(j.move.to)} before the king: castling on that side is not allowed on this move; the rook must be moved.`,
    text: say('castling.rook_first', { color: j.pos.turn, square: sq(j.move.to) }),
  };
};

/**
 * 4.4.1 / 4.4.3: the king and then (or at the same time) a rook that can castle were touched:
 * castling on that side must follow if legal; if it is illegal, another king move.
 */
const kingAndRook = (j: Judge, trace: TurnTrace): Art4Alert | undefined => {
  const color = j.pos.turn;
  const kingSq = j.pos.board.kingOf(color);
  if (kingSq === undefined) return undefined;
  const own = trace.touches.filter(t => t.own);
  const king = own.find(t => t.origin === kingSq);
  if (!king) return undefined;
  for (const s of ['a', 'h'] as const) {
    const rookSq = j.pos.castles.rook[color][s];
    const rook = rookSq === undefined ? undefined : own.find(t => t.origin === rookSq);
    if (rookSq === undefined || !rook || rook.at < king.at) continue;
    if (rook.at === king.at && j.profile.moving.simultaneousKingRookTouch !== 'kingFirst') continue;
    const legal = j.moves.some(m => m.from === kingSq && m.to === rookSq);
    if (legal && !(j.move.from === kingSq && j.move.to === rookSq)) {
      return {
        code: 'touch-move',
        topic: 'castlingKingAndRook',
        breach: true,
        grade: 'proven',
        detail: `${NAME[color]} touched the king and the rook on ${sq(rookSq)}: castling on that side was legal and had to be made.`,
        text: say('castling.must_castle', { color, square: sq(rookSq) }),
      };
    }
    if (!legal && j.move.from !== kingSq && j.moves.some(m => m.from === kingSq)) {
      return {
        code: 'touch-move',
        topic: 'castlingIllegalKingTouched',
        breach: true,
        grade: 'proven',
        detail: `${NAME[color]} touched the king and the rook on ${sq(rookSq)}; castling on that side is illegal, so another king move had to be made.`,
        text: say('castling.illegal_king_touched', { color, square: sq(rookSq) }),
      };
    }
  }
  return undefined;
};

/** 4.4.4: the first promotion piece that touched the square is the choice. */
const promotionChoice = (j: Judge, trace: TurnTrace): Art4Alert | undefined => {
  const chosen = j.move.promotion;
  if (!chosen || !j.profile.moving.promotion.choiceFinalOnTouch) return undefined;
  const first = trace.newPieces.get(j.move.to);
  if (!first || first === chosen) return undefined;
  return {
    code: 'touch-move',
    topic: 'promotionChoiceFinal',
    breach: true,
    grade: 'proven',
    detail: `A ${first} touched ${sq(j.move.to)} first: the promotion is to a ${first}, not a ${chosen}.`,
    text: say('promotion.first_piece', { first, chosen, square: sq(j.move.to) }),
  };
};

/** 4.7 / 4.7.2: the moved piece was released on another square that was a legal move (or the castling square). */
const release = (j: Judge, trace: TurnTrace): Art4Alert | undefined => {
  const color = j.pos.turn;
  const side = castlingSide(j.pos, j.move);
  const dest = side ? kingCastlesTo(color, side) : j.move.to;
  for (const p of trace.placements) {
    // Placements of an illegal move already completed (and reinstated) lock nothing.
    if (p.origin !== j.move.from || p.square === dest || p.since < trace.reinstatedAt) continue;
    if ((p.until ?? j.now) - p.since < j.settleMs) continue;
    const castleTo = (['a', 'h'] as const).find(s => {
      const rook = j.pos.castles.rook[color][s];
      return (
        rook !== undefined &&
        kingCastlesTo(color, s) === p.square &&
        j.moves.some(m => m.from === j.move.from && m.to === rook)
      );
    });
    if (
      castleTo &&
      j.profile.moving.kingOnCastlingSquareCommits &&
      j.pos.board.get(j.move.from)?.role === 'king'
    ) {
      return {
        code: 'release',
        topic: 'castlingMade',
        breach: true,
        grade: 'possible',
        detail: `The king was released on ${sq(p.square)}: only castling on that side may complete the move.`,
        text: say('release.king', { square: sq(p.square) }),
      };
    }
    if (j.moves.some(m => m.from === p.origin && m.to === p.square)) {
      return {
        code: 'release',
        topic: 'moveMade',
        breach: true,
        grade: 'possible',
        detail: `The piece from ${sq(p.origin)} was released on ${sq(p.square)}, a legal move, and then moved on: the move was ${sq(p.origin)}-${sq(p.square)}.`,
        text: say('release.moved_on', { from: sq(p.origin), to: sq(p.square) }),
      };
    }
  }
  return undefined;
};

const noLegalMove = (touched: readonly Touch[]): Art4Alert => ({
  code: 'touched-no-legal-move',
  topic: 'touchedPieceCannotMove',
  breach: false,
  grade: touched.every(t => t.own) ? 'proven' : 'possible',
  detail: `The touched ${englishList(touched.map(label))} cannot be moved or captured: any legal move may be made.`,
  text: say('touch.no_legal_move', {
    touched: touched.map(t => ({ piece: t.piece.role, square: sq(t.origin) })),
  }),
});

/**
 * 4.3 and 4.5: which touched piece had to be moved or captured. The piece the move captured, taken
 * off as part of the capture (not put back first), is part of the move, not an earlier touch; an
 * own piece taken off and not put back is not on the board at all (a result ritual); an
 * opponent piece touched before any own piece makes the duty one of capturing it (4.3.2), even if
 * the piece then moved was touched afterwards.
 */
const touchMove = (j: Judge, trace: TurnTrace): Art4Alert | undefined => {
  const from = j.move.from;
  const cap = captureSquare(j.pos, j.move);
  // Own pieces taken off and never put back are not on the board (a result ritual under way).
  const touches = trace.touches.filter(t =>
    t.own ? t.returned || t.origin === from : t.origin !== cap || t.returned,
  );
  const own = touches.filter(t => t.own);
  const opp = touches.filter(t => !t.own);
  const who = NAME[j.pos.turn];
  const lastOpp = opp[opp.length - 1];
  const ownBefore = lastOpp
    ? own.filter(t => t.at < lastOpp.at || (t.at === lastOpp.at && t.origin !== from))
    : own;
  if (opp.length === 0) {
    const req = own.find(t => movable(j, t.origin));
    if (!req) return own.length > 0 ? noLegalMove(own) : undefined;
    if (req.origin === from) {
      const before = own.slice(0, own.indexOf(req));
      return before.length > 0 ? noLegalMove(before) : undefined;
    }
    return {
      code: 'touch-move',
      topic: 'touchMoveOwn',
      breach: true,
      grade: ownGrade(j, req),
      detail: `${who} touched the ${label(req)} first, which can be moved, but moved the piece from ${sq(from)}.`,
      text: say('touch.own', {
        color: j.pos.turn,
        piece: req.piece.role,
        square: sq(req.origin),
        from: sq(from),
      }),
    };
  }
  if (ownBefore.length === 0) {
    const req = opp.find(t => capturable(j, t.origin));
    if (!req) return noLegalMove(opp);
    if (cap === req.origin) return undefined;
    return {
      code: 'touch-move',
      topic: 'touchMoveOpponent',
      breach: true,
      grade: 'possible',
      detail: `${who} touched the opponent's ${label(req)}, which can be captured, but did not capture it.`,
      text: say('touch.opponent', { color: j.pos.turn, victim: req.piece.role, square: sq(req.origin) }),
    };
  }
  const o1 = own[0];
  const v1 = opp[0];
  if (!o1 || !v1) return undefined;
  if (canCapture(j, o1.origin, v1.origin)) {
    if (from === o1.origin && cap === v1.origin) return undefined;
    return {
      code: 'touch-move',
      topic: 'touchMoveBoth',
      breach: true,
      grade: 'possible',
      detail: `${who} touched the ${label(o1)} and the opponent's ${label(v1)}: the capture ${sq(o1.origin)}x${sq(v1.origin)} had to be made.`,
      text: say('touch.capture_due', {
        color: j.pos.turn,
        piece: o1.piece.role,
        victim: v1.piece.role,
        from: sq(o1.origin),
        to: sq(v1.origin),
      }),
    };
  }
  const req = touches.find(t => (t.own ? movable(j, t.origin) : capturable(j, t.origin)));
  if (!req) return noLegalMove(touches);
  if (req.own ? from === req.origin : cap === req.origin) return undefined;
  return {
    code: 'touch-move',
    topic: 'touchMoveBoth',
    breach: true,
    grade: req.own ? ownGrade(j, req) : 'possible',
    detail: `${who} touched pieces of both colours; the ${label(req)} was the first that could be ${req.own ? 'moved' : 'captured'}.`,
    text: req.own
      ? say('touch.both_colours_move', { color: j.pos.turn, piece: req.piece.role, square: sq(req.origin) })
      : say('touch.both_colours_capture', {
          color: j.pos.turn,
          victim: req.piece.role,
          square: sq(req.origin),
        }),
  };
};

/**
 * The common case, decided without generating moves: only the moved piece (and what it captured)
 * was touched, nothing was set down for a settle window on the way, no promotion piece tried.
 */
const isPlainTurn = (trace: TurnTrace, move: NormalMove, settleMs: number): boolean => {
  if (move.promotion !== undefined || trace.newPieces.size > 0) return false;
  if (trace.touches.some(t => t.own && t.origin !== move.from)) return false;
  if (trace.touches.some(t => !t.own && (t.returned || t.origin !== move.to))) return false;
  return trace.placements.every(
    p =>
      p.origin !== move.from ||
      p.square === move.to ||
      (p.until !== undefined && p.until - p.since < settleMs),
  );
};

/** The Art. 4 finding for a published move, or undefined when its evidence cannot be judged. */
export const checkArt4 = (tx: Tx, m: PublishedMove): Art4Finding | undefined => {
  const { st } = tx;
  const rec = st.rec.game.moves[m.ply - 1];
  if (!rec || !('from' in rec.move)) return undefined;
  const pos = positionAt(st, m.ply - 1);
  const mover = pos.turn;
  const ob = st.obligation;
  const all = ob?.ply === m.ply && ob.color === mover ? [...ob.events, ...m.evidence] : m.evidence;
  // What was touched once the board showed the move belongs to no duty of this move.
  const made = madeWithin(pos, positionAt(st, m.ply), all);
  const events = made < all.length ? all.slice(0, made) : all;
  const settleMs = st.rec.options.settleMs;
  const previousMadeAt = st.plies[m.ply - 1]?.madeAt;
  const openAt = turnOpenAt(pos, events, previousMadeAt, settleMs);
  const trace = traceTurn(pos, events, { openAt, settleMs });
  if (trace.uncertain || isPlainTurn(trace, rec.move, settleMs)) return undefined;
  // Replayed from the board's log: the order is the board's, the times are made up.
  const r = st.recovered;
  if (r && events.some(e => e.at >= r.from && e.at <= r.until)) return undefined;
  const j: Judge = {
    pos,
    move: rec.move,
    moves: legalMoves(pos),
    profile: st.profile,
    settleMs,
    now: st.now,
    attendance: attendance(
      m.ply >= 2 ? positionAt(st, m.ply - 2) : undefined,
      pos,
      events,
      previousMadeAt,
      openAt,
      st.rec.pressSeen,
    ),
  };
  const first = castlingOrder(j, trace) ?? kingAndRook(j, trace) ?? promotionChoice(j, trace);
  const alerts = [first, release(j, trace), first ? undefined : touchMove(j, trace)].filter(
    (a): a is Art4Alert => a !== undefined,
  );
  return { breach: alerts.some(a => a.breach), alerts, events };
};

/**
 * Publishes what a finding holds, once the move is final (the press, the reply, or the end): each
 * breach graded `proven` is an alert (and each `possible` one too where the venue opted in with
 * `alertGrade: 'possible'`); the rest are `finding` events on the move (information such as 4.5,
 * and possible breaches, which a claim of the opponent makes an alert). Returns true when the move
 * was taken back (enforce mode): the caller then stops handling it.
 */
export const publishArt4 = (tx: Tx, m: PublishedMove, f: Art4Finding | undefined, at: number): boolean => {
  if (!f || f.alerts.length === 0) return false;
  const { profile } = tx.st;
  const mover = positionAt(tx.st, m.ply - 1).turn;
  const onRequest = profile.moving.touchMoveEnforcement === 'onRequest';
  const fenBefore = tx.st.rec.game.fenAt(m.ply - 1);
  const alertGrade = tx.st.settings.alertGrade ?? 'proven';
  const evidence = { events: f.events, fenBefore, move: m.san };
  let alerted: Art4Alert | undefined;
  const unclaimed: Art4Alert[] = [];
  for (const a of f.alerts) {
    const article = citeTopic(profile, a.topic);
    const detail =
      onRequest && a.breach ? `${a.detail} The arbiter rules on it only if a player asks.` : a.detail;
    const text = onRequest && a.breach ? [a.text, say('touch.on_request', {})] : [a.text];
    if (a.breach && (a.grade === 'proven' || alertGrade === 'possible')) {
      const before = tx.st.seq;
      emitOnce(tx, `art4:${m.ply}:${m.uci}:${a.code}:${article.article}`, at, {
        type: 'alert',
        code: a.code,
        article,
        color: mover,
        grade: a.grade,
        ply: m.ply,
        detail,
        text,
        evidence,
      });
      if (tx.st.seq > before) noteAlert(tx, tx.st.seq, a.code, m.ply);
      alerted ??= a;
      continue;
    }
    emit(tx, at, {
      type: 'finding',
      ply: m.ply,
      code: a.code,
      article,
      color: mover,
      grade: a.grade,
      breach: a.breach,
      detail,
      text,
      evidence,
    });
    if (a.breach) unclaimed.push(a);
  }
  if (unclaimed.length > 0) {
    patch(tx, {
      suspicion: { by: mover, ply: m.ply, alerts: unclaimed, events: f.events, fenBefore, move: m.san },
    });
  }
  if (!alerted) return false;
  if (tx.st.mode !== 'enforce' || onRequest) {
    const t = tx.st.turnTouch;
    if (t && t.color !== mover && t.ply >= m.ply) {
      // Judged at the reply: the opponent has already touched a piece, so the right to claim is lost.
      emit(tx, at, {
        type: 'alert',
        code: alerted.code,
        article: citeTopic(profile, 'article4ClaimLost'),
        color: mover,
        ply: m.ply,
        detail: `${NAME[t.color]} touched a piece before the breach was claimed: the right to claim ${NAME[mover]}'s breach of Art. 4 is lost.`,
        text: [say('touch.claim_lost', { color: t.color, opponent: mover })],
      });
      return false;
    }
    patch(tx, { breach: { by: mover, code: alerted.code, ply: m.ply } });
    return false;
  }
  const game = tx.st.rec.game.truncate(m.ply - 1).unwrap();
  rebase(tx, game);
  patch(tx, {
    plies: tx.st.plies.slice(0, m.ply),
    obligation: { color: mover, ply: m.ply, events: f.events, forbidden: [m.uci] },
  });
  emit(tx, at, { type: 'correction', fromPly: m.ply, moves: [], reason: 'arbiter' });
  return true;
};

/** Remembers an alert about `ply`, so that it can be withdrawn if that ply is taken back. */
export const noteAlert = (tx: Tx, seq: number, code: AlertCode, ply: number): void => {
  patch(tx, { plyAlerts: [...tx.st.plyAlerts, { seq, code, ply }] });
};
