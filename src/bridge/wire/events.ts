/**
 * The one serializer of game events: the engine's camelCase `GameEvent`s become the messages of
 * the wire (schema.ts): the event stream (`games/<game>/events`, the journal's `replay --json`),
 * and for alerts (and claims waiting for the arbiter) an `alerts` message the console shows with
 * its evidence. Every key and value is spelt here or in words.ts, nowhere else.
 *
 *   publisher.publishEvent(makeEventMessage(event));
 *   const alert = makeAlertMessage(event, { board: 'b-01', ply: 12 }); // undefined for a move
 *
 * Times: `at` is the board's monotonic time, which the daemon takes as milliseconds since the
 * Unix epoch (performance.timeOrigin + performance.now()), so it is written as it is.
 */
import type { Static } from '@sinclair/typebox';
import type { AlertCode, GameEvent, MoveEventBody } from '../../engine/events.js';
import type { ArticleRef, Color } from '../../engine/types.js';
import type { EventMessage, MovePly, WireAlert, WireAlertEvidence, WireClocks } from './schema.js';
import type { Sentence } from '../../engine/texts.js';
import { Text } from './textSchema.js';
import { alertCode, endDetail, endReason, wholeMs, wireWord } from './words.js';

const article = (ref: ArticleRef): { article: string; edition: string } => ({
  article: ref.article,
  edition: ref.edition,
});

/** The side to move in a FEN (the running clock right after a move). */
export const turnOf = (fen: string): Color => (fen.split(' ')[1] === 'b' ? 'black' : 'white');

/** Both clocks on the wire (whole milliseconds), read at `at`. */
export const wireClocks = (
  whiteMs: number,
  blackMs: number,
  running: Color | null,
  at: number,
): WireClocks => ({
  white_ms: wholeMs(whiteMs),
  black_ms: wholeMs(blackMs),
  running,
  at,
});

/** The clocks right after a move (the opponent's running), when the move carries them. */
export const moveClocks = (m: MoveEventBody, at: number): WireClocks | null =>
  m.clocks === undefined ? null : wireClocks(m.clocks.whiteMs, m.clocks.blackMs, turnOf(m.fen), at);

const moveWire = (m: MoveEventBody, at: number): Static<typeof MovePly> => ({
  ply: m.ply,
  san: m.san,
  uci: m.uci,
  fen: m.fen,
  clocks: moveClocks(m, at),
  elapsed_ms: m.elapsedMs === undefined ? null : wholeMs(m.elapsedMs),
});

/** The reason of an `end` event in words (a display's). */
export const terminationWords = (reason: string): string => endReason(reason).text;

/** Alert codes of the engine as the wire's codes. */
export const wireAlertCode = (code: AlertCode | 'claim'): string => alertCode(code);

type WireText = Static<typeof Text>;

/** The sentences of a detail (engine/texts.ts): already in the wire's spelling, copied. */
const textWire = (text: readonly Sentence[]): WireText =>
  text.map(s => ({ key: s.key, params: structuredClone(s.params) as WireText[number]['params'] }));

type WireEvidence = Extract<EventMessage, { type: 'alert' }>['evidence'];

const evidenceWire = (e: Extract<GameEvent, { type: 'alert' }>['evidence']): WireEvidence => {
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
        reason: wireWord(e.reason),
      };
    case 'clock':
      return {
        ...head,
        type: 'clock',
        clocks: wireClocks(e.whiteMs, e.blackMs, e.running ?? null, e.at),
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
        text: textWire(e.text),
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
        text: textWire(e.text),
        evidence: evidenceWire(e.evidence),
      };
    case 'claim':
      return {
        ...head,
        type: 'claim',
        by: e.by,
        claim: wireWord(e.claim),
        status: e.status,
        ...article(e.article),
        detail: e.detail ?? null,
        ...(e.text === undefined ? {} : { text: textWire(e.text) }),
      };
    case 'offer':
      return {
        ...head,
        type: 'offer',
        by: e.by,
        status: e.status,
        article: e.article?.article ?? null,
        edition: e.article?.edition ?? null,
      };
    case 'end': {
      const { reason, text, termination } = endReason(e.reason);
      return {
        ...head,
        type: 'end',
        result: e.result,
        reason,
        reason_text: text,
        termination,
        winner: e.winner ?? null,
        ...article(e.article),
        detail: endDetail(e.reason) ?? null,
      };
    }
  }
};

export interface AlertContext {
  /** The board the game is played on. */
  readonly board: string | undefined;
  /** The game's length when the alert was raised. */
  readonly ply: number;
}

/** The message on `alerts` for an alert or a claim waiting for the arbiter; undefined for other events. */
export const makeAlertMessage = (e: GameEvent, ctx: AlertContext): WireAlert | undefined => {
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
    const evidence: WireAlertEvidence = {
      ...(ev?.fenBefore === undefined ? {} : { fen_before: ev.fenBefore }),
      ...(ev?.boardFen === undefined ? {} : { placement: ev.boardFen }),
      ...(ev?.move === undefined ? {} : { move: ev.move }),
      ...(ev?.squares === undefined ? {} : { squares: [...ev.squares] }),
      ...(ev?.orders === undefined ? {} : { orders: ev.orders.map(line => [...line]) }),
      ...(ev?.ordersAfterPly === undefined ? {} : { orders_after_ply: ev.ordersAfterPly }),
      ...(e.color === undefined ? {} : { color: e.color }),
      detail: e.detail,
    };
    return {
      ...base,
      ...(e.ply === undefined ? {} : { ply: e.ply }),
      code: wireAlertCode(e.code),
      message: e.detail,
      text: textWire(e.text),
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
      text: textWire(e.text),
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
      ...(e.text === undefined ? {} : { text: textWire(e.text) }),
      ...article(e.article),
      evidence: { claim_seq: e.seq, color: e.by, ...(e.detail === undefined ? {} : { detail: e.detail }) },
    };
  }
  return undefined;
};
