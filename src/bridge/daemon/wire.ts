/**
 * Game events on the wire: the engine's camelCase `GameEvent`s become the snake_case messages of
 * docs/mqtt.md and docs/web.md — the event stream (`games/<game>/events`), and for alerts (and
 * claims waiting for the arbiter) an `alerts` message the console shows with its evidence.
 *
 *   publisher.publishEvent(makeEventMessage(event, { clockAt }));
 *   const alert = makeAlertMessage(event, { board: 'b-01', ply: 12 }); // undefined for a move
 *
 * Times: `at` is the board's monotonic time, which the daemon takes as milliseconds since the
 * Unix epoch (performance.timeOrigin + performance.now()), so it is written as it is.
 */
import type { AlertCode, GameEvent, MoveEventBody } from '../../engine/events.js';
import type { ArticleRef, Color } from '../../engine/types.js';
import type { EventMessage, JsonObject } from '../mqtt/topics.js';
import type { WebAlert, WebClocks, WebEvidence } from '../web/contract.js';

const article = (ref: ArticleRef): { article: string; edition: string } => ({
  article: ref.article,
  edition: ref.edition,
});

/** The side to move in a FEN (the running clock right after a move). */
export const turnOf = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

const moveClocks = (m: MoveEventBody, at: number): WebClocks | null =>
  m.clocks === undefined
    ? null
    : { white_ms: m.clocks.whiteMs, black_ms: m.clocks.blackMs, running: turnOf(m.fen), at };

const moveWire = (m: MoveEventBody, at: number): JsonObject => ({
  ply: m.ply,
  san: m.san,
  uci: m.uci,
  fen: m.fen,
  clocks: moveClocks(m, at),
  ...(m.elapsedMs === undefined ? {} : { elapsed_ms: m.elapsedMs }),
});

/** Outcome kinds in the words a display shows. */
const TERMINATION_WORDS: Readonly<Record<string, string>> = {
  checkmate: 'checkmate',
  resignation: 'resignation',
  flag: 'time forfeit',
  illegalMoves: 'illegal moves',
  defaultTime: 'default time',
  forfeit: 'forfeit',
  stalemate: 'stalemate',
  deadPosition: 'dead position',
  threefold: 'threefold repetition',
  fiftyMoves: 'fifty-move rule',
  fivefold: 'fivefold repetition',
  seventyFiveMoves: 'seventy-five-move rule',
  agreement: 'agreement',
  flagVsCannotMate: 'time forfeit, opponent cannot mate',
  bothFlags: 'both flags fell',
  bothLose: 'both players lose',
};

/** The reason of an `end` event in words. */
export const terminationWords = (reason: string): string =>
  TERMINATION_WORDS[reason] ?? reason.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

/** Alert codes of the engine (hyphenated) as the console's codes. */
export const wireAlertCode = (code: AlertCode | 'claim'): string =>
  code === 'board-mismatch' ? 'board_differs' : code.replace(/-/g, '_');

const evidenceWire = (e: Extract<GameEvent, { type: 'alert' }>['evidence']): JsonObject | null => {
  if (e === undefined) return null;
  return {
    ...(e.fenBefore === undefined ? {} : { fen_before: e.fenBefore }),
    ...(e.boardFen === undefined ? {} : { placement: e.boardFen }),
    ...(e.move === undefined ? {} : { move: e.move }),
    ...(e.squares === undefined ? {} : { squares: [...e.squares] }),
    ...(e.orders === undefined ? {} : { orders: e.orders.map(line => [...line]) }),
    ...(e.ordersAfterPly === undefined ? {} : { orders_after_ply: e.ordersAfterPly }),
    ...(e.events === undefined ? {} : { events: e.events.length }),
  };
};

/** The event on `games/<game>/events`. */
export const makeEventMessage = (e: GameEvent): EventMessage => {
  const head = { game: e.game, seq: e.seq, at: e.at };
  switch (e.type) {
    case 'move':
      return { ...head, type: 'move', ...moveWire(e, e.at) };
    case 'correction':
      return {
        ...head,
        type: 'correction',
        from_ply: e.fromPly,
        moves: e.moves.map(m => moveWire(m, e.at)),
        reason: e.reason,
      };
    case 'clock':
      return {
        ...head,
        type: 'clock',
        clocks: { white_ms: e.whiteMs, black_ms: e.blackMs, running: e.running ?? null, at: e.at },
      };
    case 'alert':
      return {
        ...head,
        type: 'alert',
        code: wireAlertCode(e.code),
        ...article(e.article),
        color: e.color ?? null,
        grade: e.grade ?? null,
        ply: e.ply ?? null,
        claimed: e.claimed === true,
        detail: e.detail,
        evidence: evidenceWire(e.evidence),
      };
    case 'alert-withdrawn':
      return {
        ...head,
        type: 'alert_withdrawn',
        alert: e.alert,
        code: wireAlertCode(e.code),
        reason: e.reason,
      };
    case 'finding':
      return {
        ...head,
        type: 'finding',
        ply: e.ply,
        code: wireAlertCode(e.code),
        ...article(e.article),
        color: e.color,
        grade: e.grade,
        breach: e.breach,
        detail: e.detail,
        evidence: evidenceWire(e.evidence),
      };
    case 'claim':
      return {
        ...head,
        type: 'claim',
        by: e.by,
        claim: e.claim,
        status: e.status,
        ...article(e.article),
        detail: e.detail ?? null,
      };
    case 'offer':
      return {
        ...head,
        type: 'offer',
        by: e.by,
        status: e.status,
        ...(e.article === undefined ? {} : article(e.article)),
      };
    case 'end':
      return {
        ...head,
        type: 'end',
        result: e.result,
        reason: e.reason,
        termination: terminationWords(e.reason),
        winner: e.winner ?? null,
        ...article(e.article),
      };
  }
};

export interface AlertContext {
  /** The board the game is played on. */
  readonly board: string | undefined;
  /** The game's length when the alert was raised. */
  readonly ply: number;
}

/** The message on `alerts` for an alert or a claim waiting for the arbiter; undefined for other events. */
export const makeAlertMessage = (e: GameEvent, ctx: AlertContext): WebAlert | undefined => {
  const base = {
    id: `${e.game}-${e.seq}`,
    at: e.at,
    game: e.game,
    seq: e.seq,
    ply: ctx.ply,
    ...(ctx.board === undefined ? {} : { board: ctx.board }),
  };
  if (e.type === 'alert') {
    const ev = e.evidence;
    const evidence: WebEvidence = {
      ...(ev?.fenBefore === undefined ? {} : { fen_before: ev.fenBefore }),
      ...(ev?.boardFen === undefined ? {} : { placement: ev.boardFen }),
      ...(ev?.move === undefined ? {} : { move: ev.move }),
      ...(ev?.squares === undefined ? {} : { squares: ev.squares }),
      ...(ev?.orders === undefined ? {} : { orders: ev.orders }),
      ...(ev?.ordersAfterPly === undefined ? {} : { orders_after_ply: ev.ordersAfterPly }),
      ...(e.color === undefined ? {} : { color: e.color }),
      detail: e.detail,
    };
    return {
      ...base,
      ...(e.ply === undefined ? {} : { ply: e.ply }),
      code: wireAlertCode(e.code),
      message: e.detail,
      ...article(e.article),
      ...(e.grade === undefined ? {} : { grade: e.grade }),
      ...(e.claimed === true ? { claimed: true } : {}),
      evidence,
    };
  }
  if (e.type === 'alert-withdrawn') {
    return {
      ...base,
      code: wireAlertCode(e.code),
      message:
        e.reason === 'resolved'
          ? 'Withdrawn: the board shows a position of the game again.'
          : 'Withdrawn: the ply it judged was taken back.',
      withdraws: `${e.game}-${e.alert}`,
      reason: e.reason,
    };
  }
  if (e.type === 'finding') {
    const ev = e.evidence;
    return {
      ...base,
      ply: e.ply,
      code: wireAlertCode(e.code),
      message: e.detail,
      ...article(e.article),
      finding: true,
      grade: e.grade,
      breach: e.breach,
      evidence: {
        ...(ev?.fenBefore === undefined ? {} : { fen_before: ev.fenBefore }),
        ...(ev?.move === undefined ? {} : { move: ev.move }),
        color: e.color,
        detail: e.detail,
      },
    };
  }
  if (e.type === 'claim' && e.status === 'pending') {
    return {
      ...base,
      code: 'claim',
      message: e.detail ?? `${e.by} claims ${e.claim}`,
      ...article(e.article),
      evidence: { claim_seq: e.seq, color: e.by, ...(e.detail === undefined ? {} : { detail: e.detail }) },
    };
  }
  return undefined;
};
