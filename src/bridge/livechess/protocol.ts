/**
 * The LiveChess WebSocket API's messages, pure: a client's call parsed into a `Call` (or an error
 * naming what was wrong), and the replies, errors and feed messages built in the shapes DGT
 * LiveChess sends (docs/livechess-api.md). No socket here: server.ts carries the text.
 *
 *   const call = parseCall('{"id":1,"call":"eboards"}');
 *   if (call.isErr) send(makeError(call.error.id, call.error.message));
 *   else if (call.value.kind === 'eboards') send(makeReply(call.value.id, boards, now));
 *   const param = feedParamOf(lastSent, current);   // undefined: nothing changed
 */
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';

/** What a client may ask. */
export type Call =
  | { readonly kind: 'eboards'; readonly id: number }
  | { readonly kind: 'sources'; readonly id: number }
  | { readonly kind: 'subscribe'; readonly id: number; readonly feed: number; readonly serialnr: string }
  | { readonly kind: 'unsubscribe'; readonly id: number; readonly feed: number }
  | { readonly kind: 'setup'; readonly id: number; readonly feed: number; readonly fen: string }
  | { readonly kind: 'flip'; readonly id: number; readonly feed: number; readonly flip: boolean };

/** A call that cannot be taken: the reply's id (null when the message had none) and why. */
export type CallError = Error & { readonly kind: 'badCall'; readonly id: number | null };

const bad = (id: number | null, message: string): Result<never, CallError> =>
  Result.err(dataError({ kind: 'badCall' as const, id }, message));

/** The calls and feed methods answered, for the error that names them. */
export const CALLS = ['eboards', 'sources', 'subscribe', 'unsubscribe', 'call'] as const;
export const FEED_METHODS = ['setup', 'flip'] as const;
export const FEEDS = ['eboardevent'] as const;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const isId = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

const show = (v: unknown): string => {
  const text = (JSON.stringify(v) as string | undefined) ?? String(v);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
};

/** A serial number as clients send it: a string (a number is taken too, as some clients send one). */
const serialOf = (v: unknown): string | undefined =>
  typeof v === 'string' && v.length > 0 && v.length <= 64
    ? v
    : typeof v === 'number' && Number.isSafeInteger(v) && v >= 0
      ? String(v)
      : undefined;

const feedCall = (id: number, param: Record<string, unknown>): Result<Call, CallError> => {
  const feed = param.id;
  if (!isId(feed)) return bad(id, `param.id: the feed id, a whole number (got ${show(feed)})`);
  const method = param.method;
  const inner = param.param;
  if (method === 'setup') {
    const fen = isObject(inner) ? inner.fen : undefined;
    if (typeof fen !== 'string' || fen.length === 0 || fen.length > 100)
      return bad(id, `param.param.fen: a FEN of at most 100 characters (got ${show(fen)})`);
    return Result.ok({ kind: 'setup', id, feed, fen });
  }
  if (method === 'flip') {
    const flip = isObject(inner) ? inner.flip : undefined;
    if (typeof flip !== 'boolean') return bad(id, `param.param.flip: true or false (got ${show(flip)})`);
    return Result.ok({ kind: 'flip', id, feed, flip });
  }
  return bad(id, `param.method: unknown method ${show(method)} (known: ${FEED_METHODS.join(', ')})`);
};

/** One message of a client, read. */
export const parseCall = (text: string): Result<Call, CallError> => {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch (e) {
    return bad(null, `not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!isObject(msg)) return bad(null, `a call is a JSON object {"id":N,"call":"…"} (got ${show(msg)})`);
  const id = msg.id;
  if (!isId(id)) return bad(null, `id: a whole number from 0 (got ${show(id)})`);
  const param = msg.param;
  switch (msg.call) {
    case 'eboards':
      return Result.ok({ kind: 'eboards', id });
    case 'sources':
      return Result.ok({ kind: 'sources', id });
    case 'subscribe': {
      if (!isObject(param)) return bad(id, 'param: {"feed":"eboardevent","id":F,"param":{"serialnr":"S"}}');
      if (param.feed !== 'eboardevent')
        return bad(id, `param.feed: unknown feed ${show(param.feed)} (known: ${FEEDS.join(', ')})`);
      if (!isId(param.id)) return bad(id, `param.id: the feed id, a whole number (got ${show(param.id)})`);
      const serialnr = isObject(param.param) ? serialOf(param.param.serialnr) : undefined;
      if (serialnr === undefined)
        return bad(id, `param.param.serialnr: a board's serial number (got ${show(param.param)})`);
      return Result.ok({ kind: 'subscribe', id, feed: param.id, serialnr });
    }
    case 'unsubscribe':
      if (!isObject(param) || !isId(param.id))
        return bad(id, `param.id: the feed id to end, a whole number (got ${show(param)})`);
      return Result.ok({ kind: 'unsubscribe', id, feed: param.id });
    case 'call':
      if (!isObject(param)) return bad(id, 'param: {"id":F,"method":"setup"|"flip","param":{…}}');
      return feedCall(id, param);
    default:
      return bad(id, `call: unknown call ${show(msg.call)} (known: ${CALLS.join(', ')})`);
  }
};

/** A clock as LiveChess shows it: seconds left, `run` true = White's running, false = Black's, null = stopped. */
export interface LcClock {
  readonly white: number;
  readonly black: number;
  readonly run: boolean | null;
  /** When it was read (ms since the epoch). */
  readonly time: number;
}

export type BoardStateWord = 'ACTIVE' | 'INACTIVE' | 'NOTRESPONDING' | 'DELAYED';

/** An item of the `eboards` reply. */
export interface EBoard {
  readonly serialnr: string;
  readonly source: string;
  readonly state: BoardStateWord | null;
  readonly battery: string | null;
  readonly comment: string | null;
  readonly board: string | null;
  readonly flipped: boolean;
  readonly clock: LcClock | null;
}

/** An item of the `sources` reply. */
export interface Source {
  readonly type: string;
  readonly device: string;
  readonly name: string;
  readonly present: boolean;
  readonly active: boolean;
  readonly status: string;
}

/** What a board's feed says now (feedParamOf decides what of it is sent). */
export interface BoardEvent {
  readonly serialnr: string;
  readonly flipped: boolean;
  /** The FEN piece field the sensors show; null before the first reading. */
  readonly board: string | null;
  readonly clock: LcClock | null;
  /** The FEN the moves start from; undefined while the board plays no game. */
  readonly start: string | undefined;
  /** Every move since `start`, in SAN. */
  readonly san: readonly string[];
  /** Whether the board shows the position after those moves. */
  readonly match: boolean;
  /** The game on the board (not sent: a new game sends its start again, even the same one). */
  readonly game?: string;
}

/** A feed message's param. */
export interface FeedParam {
  readonly serialnr: string;
  readonly flipped: boolean;
  readonly board?: string;
  readonly clock?: LcClock;
  readonly start?: string;
  readonly san: readonly string[];
  readonly match: boolean;
}

const sameClock = (a: LcClock | null, b: LcClock | null): boolean =>
  a === b || (a !== null && b !== null && a.white === b.white && a.black === b.black && a.run === b.run);

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * The feed message's param going from `prev` (what was sent last; undefined: nothing yet) to `cur`:
 * board, clock and start only when they changed, san and match always; undefined when nothing
 * changed at all.
 */
export const feedParamOf = (prev: BoardEvent | undefined, cur: BoardEvent): FeedParam | undefined => {
  const boardChanged = cur.board !== null && cur.board !== prev?.board;
  const clockChanged = cur.clock !== null && (prev === undefined || !sameClock(prev.clock, cur.clock));
  const startChanged = cur.start !== undefined && (cur.start !== prev?.start || cur.game !== prev.game);
  if (
    prev !== undefined &&
    !boardChanged &&
    !clockChanged &&
    !startChanged &&
    prev.flipped === cur.flipped &&
    prev.match === cur.match &&
    sameList(prev.san, cur.san)
  )
    return undefined;
  return {
    serialnr: cur.serialnr,
    flipped: cur.flipped,
    ...(boardChanged ? { board: cur.board } : {}),
    ...(clockChanged ? { clock: cur.clock } : {}),
    ...(startChanged ? { start: cur.start } : {}),
    san: cur.san,
    match: cur.match,
  };
};

export const makeReply = (id: number, param: unknown, time: number): string =>
  JSON.stringify({ response: 'call', id, param, time });

export const makeError = (id: number | null, message: string): string =>
  JSON.stringify({ response: 'error', id, param: { message, stacktrace: '' } });

export const makeFeed = (feed: number, param: FeedParam, time: number): string =>
  JSON.stringify({ response: 'feed', id: feed, param, time });
