/**
 * Reads a board script (grammar: docs/board-scripts.md). Each line is a directive (`@edition
 * E23`), a timed event (`120 e2 -`, `+300 press white`), an expected event (`> move 1 e4`), a
 * comment (`#`) or blank. A bad line is an error value naming the file and the line.
 *
 *   const r = parseScript('@edition E23\n0 e2 -\n200 e4 P\n> move 1 e4\n', 'a.cbs');
 *   r.unwrap().inputs.length;   // 2
 *   parseScript('0 e9 -', 'b.cbs').error?.message;   // 'b.cbs:1: bad square "e9"'
 */
import { Result } from '@badrap/result';
import { parseSquare } from 'chessops';
import { parsePiece } from 'chessops/fen';
import type { BoardLogEntry, OperatorCommand, SupervisorInput } from '../events.js';
import { contentsOfBoardFen, type SensedContent } from '../recognition/boardEvent.js';
import { EDITIONS, type Color, type Edition, dataError, isEdition, isGameType } from '../types.js';
import type { BoardScript, ExpectedEvent, ScriptError, ScriptHeader, ScriptInput } from './types.js';

class LineError extends Error {}

const fail = (reason: string): never => {
  throw new LineError(reason);
};

const COLORS: Record<string, Color> = { w: 'white', b: 'black', white: 'white', black: 'black' };

const colorOf = (word: string | undefined): Color => COLORS[word ?? ''] ?? fail(`bad colour "${word ?? ''}"`);

/** `12345`, `5:00`, `1:30:00` (minutes and seconds), as milliseconds. */
export const parseDuration = (word: string | undefined): number => {
  if (word === undefined) return fail('missing time');
  if (/^-?\d+$/.test(word)) return Number(word);
  const m = /^(\d+):(\d{2})(?::(\d{2}))?$/.exec(word);
  if (!m) return fail(`bad time "${word}"`);
  const [a, b, c] = [Number(m[1]), Number(m[2]), m[3] === undefined ? undefined : Number(m[3])];
  return (c === undefined ? a * 60 + b : a * 3600 + b * 60 + c) * 1000;
};

/** `E23`, `E14+` (that edition and later), `all`. */
export const parseEditions = (words: readonly string[]): Edition[] => {
  const out: Edition[] = [];
  for (const w of words) {
    if (w === 'all') out.push(...EDITIONS);
    else if (w.endsWith('+') && isEdition(w.slice(0, -1)))
      out.push(...EDITIONS.slice(EDITIONS.indexOf(w.slice(0, -1) as Edition)));
    else if (isEdition(w)) out.push(w);
    else fail(`unknown edition "${w}"`);
  }
  if (out.length === 0) fail('no edition given');
  return [...new Set(out)];
};

const content = (word: string | undefined): SensedContent => {
  if (word === '-') return 'empty';
  if (word === '?') return 'occupied';
  const piece = word !== undefined && word.length === 1 ? parsePiece(word) : undefined;
  return piece ?? fail(`bad square content "${word ?? ''}" (a FEN letter, - or ?)`);
};

const CLAIMS: Record<string, Extract<OperatorCommand, { kind: 'claim' }>['claim']> = {
  threefold: 'threefold',
  fifty: 'fiftyMoves',
  fiftyMoves: 'fiftyMoves',
  flag: 'flag',
  illegal: 'illegalMove',
  illegalMove: 'illegalMove',
  art4: 'art4',
};

const RESULTS = ['1-0', '0-1', '1/2-1/2', '0-0'] as const;

const arbiterInput = (at: number, w: readonly string[]): SupervisorInput => {
  const [what, a, b] = w;
  const num = (x: string | undefined): number => {
    const n = Number(x);
    return x !== undefined && Number.isFinite(n) ? n : fail(`bad number "${x ?? ''}"`);
  };
  const action = ((): Extract<OperatorCommand, { kind: 'arbiter' }>['action'] => {
    switch (what ?? '') {
      case 'restore':
        return { type: 'restore', ply: num(a) };
      case 'moves':
        return { type: 'setMoves', afterPly: num(a), moves: w.slice(2) };
      case 'result': {
        const result = RESULTS.find(r => r === a) ?? fail(`bad result "${a ?? ''}"`);
        return { type: 'setResult', result, reason: w.slice(2).join(' ') || 'arbiter' };
      }
      case 'penalty':
        return { type: 'penalty', against: colorOf(a), minutes: num(b) };
      case 'clock':
        return { type: 'adjustClock', whiteMs: parseDuration(a), blackMs: parseDuration(b) };
      case 'pause':
        return { type: 'pauseClock' };
      case 'resume':
        return { type: 'resumeClock' };
      case 'accept':
        return { type: 'acceptClaim' };
      case 'reject':
        return { type: 'rejectClaim' };
      case 'twohands':
        return { type: 'irregularity', by: colorOf(a), kind: 'twoHands' };
      case 'otherhand':
        return { type: 'irregularity', by: colorOf(a), kind: 'otherHand' };
      default:
        return fail(`unknown arbiter decision "${what ?? ''}"`);
    }
  })();
  return { kind: 'arbiter', at, action };
};

/**
 * One record of a board's log (`boardlog` events): `empty` / `start` (the board known to stand so),
 * `gap`, `press:white`, or a square change `e2:-`, `e4:P`, with `*` when quick (`e4:P*`).
 */
const logEntry = (word: string): BoardLogEntry => {
  if (word === 'empty' || word === 'start') return { kind: 'mark', board: word };
  if (word === 'gap') return { kind: 'gap' };
  const [left, right] = word.split(':');
  if (left === 'press') return { kind: 'press', side: colorOf(right) };
  const square = parseSquare(left ?? '');
  if (square === undefined || right === undefined) return fail(`bad board log record "${word}"`);
  const quick = right.endsWith('*');
  return { kind: 'square', square, piece: content(quick ? right.slice(0, -1) : right), quick };
};

/** The input of an event line without its time. */
const eventInput = (at: number, w: readonly string[]): SupervisorInput[] => {
  const [first, a, b, c] = w;
  const what = first ?? '';
  switch (what) {
    case 'press':
    case 'adjust':
      return [{ kind: what, at, side: colorOf(a) }];
    case 'tick':
      return [{ kind: 'tick', at }];
    case 'snapshot': {
      const board = contentsOfBoardFen(a ?? '');
      return [board ? { kind: 'snapshot', at, board } : fail(`bad snapshot board "${a ?? ''}"`)];
    }
    case 'clock': {
      const running = c === 'none' ? undefined : colorOf(c);
      return [{ kind: 'clock', at, whiteMs: parseDuration(a), blackMs: parseDuration(b), running }];
    }
    case 'lost':
    case 'back':
      return [{ kind: 'link', at, state: what }];
    case 'claim': {
      const claim = CLAIMS[b ?? ''] ?? fail(`unknown claim "${b ?? ''}"`);
      return [{ kind: 'claim', at, by: colorOf(a), claim, ...(c !== undefined ? { intended: c } : {}) }];
    }
    case 'offer':
      return [{ kind: 'offer', at, by: colorOf(a) }];
    case 'accept':
    case 'decline':
      return [{ kind: 'offerReply', at, by: colorOf(a), accept: what === 'accept' }];
    case 'resign':
      return [{ kind: 'resign', at, by: colorOf(a) }];
    case 'arbiter':
      return [arbiterInput(at, w.slice(1))];
    case 'boardlog':
      return [{ kind: 'boardLog', at, entries: w.slice(1).map(logEntry) }];
    default: {
      if (w.length % 2 !== 0) fail(`unknown event "${w.join(' ')}"`);
      const out: SupervisorInput[] = [];
      for (let i = 0; i < w.length; i += 2) {
        const square = parseSquare(w[i] ?? '');
        if (square === undefined) fail(`bad square "${w[i] ?? ''}"`);
        else out.push({ kind: 'square', at, square, piece: content(w[i + 1]) });
      }
      return out;
    }
  }
};

type MutableHeader = { -readonly [K in keyof ScriptHeader]: ScriptHeader[K] };

const directive = (h: MutableHeader, w: readonly string[]): void => {
  const [name, ...args] = w;
  const one = (): string =>
    args.length === 1 && args[0] !== undefined ? args[0] : fail(`@${name ?? ''} takes one value`);
  switch (name ?? '') {
    case '@edition':
      h.editions = parseEditions(args);
      return;
    case '@type': {
      const t = one();
      h.gameType = isGameType(t) ? t : fail(`unknown game type "${t}"`);
      return;
    }
    case '@supervision': {
      const s = one();
      h.supervision = s === 'full' || s === 'reduced' ? s : fail(`unknown supervision "${s}"`);
      return;
    }
    case '@timecontrol':
      h.timeControl = one();
      return;
    case '@start':
      h.start = args[0] === 'startpos' && args.length === 1 ? undefined : args.join(' ');
      return;
    case '@moves':
      h.moves = args;
      return;
    case '@mode': {
      const m = one();
      h.mode = m === 'advise' || m === 'enforce' ? m : fail(`unknown mode "${m}"`);
      return;
    }
    case '@settle':
      h.settleMs = parseDuration(one());
      return;
    case '@occupancy':
      h.occupancy = true;
      return;
    case '@chess960':
      h.chess960 = true;
      return;
    case '@game':
      h.game = one();
      return;
    case '@expect': {
      const e = one();
      h.expect = e === 'all' || e === 'noclock' ? e : fail(`unknown @expect "${e}"`);
      return;
    }
    case '@alerts': {
      const a = one();
      h.alerts = a === 'proven' || a === 'possible' ? a : fail(`unknown @alerts "${a}" (proven or possible)`);
      return;
    }
    default:
      fail(`unknown directive "${name ?? ''}"`);
  }
};

/** `> [E14+] alert touch-move 4.3.1 "must move"`. */
const expectedEvent = (line: number, text: string): ExpectedEvent => {
  let rest = text.trim();
  let editions: Edition[] | undefined;
  const sel = /^\[([^\]]*)\]\s*/.exec(rest);
  if (sel) {
    editions = parseEditions((sel[1] ?? '').split(/[\s,]+/).filter(s => s.length > 0));
    rest = rest.slice(sel[0].length);
  }
  let detail: string | undefined;
  const quoted = /"([^"]*)"\s*$/.exec(rest);
  if (quoted) {
    detail = quoted[1];
    rest = rest.slice(0, quoted.index);
  }
  const tokens = rest.split(/\s+/).filter(s => s.length > 0);
  if (tokens.length === 0) fail('empty expected event');
  return { line, editions, tokens, detail };
};

const stripComment = (line: string): string => {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') quoted = !quoted;
    // A comment starts at a # at the start of the line or after a space (Qxf7# is a move).
    if (ch === '#' && !quoted && (i === 0 || /\s/.test(line[i - 1] ?? ''))) return line.slice(0, i);
  }
  return line;
};

/** Parses a script; `file` names it in errors. */
export const parseScript = (text: string, file: string): Result<BoardScript, ScriptError> => {
  const header: MutableHeader = {
    editions: ['E23'],
    gameType: 'standard',
    supervision: 'full',
    timeControl: undefined,
    start: undefined,
    moves: [],
    mode: 'advise',
    settleMs: undefined,
    occupancy: false,
    chess960: false,
    game: undefined,
    expect: 'noclock',
    alerts: 'proven',
  };
  const inputs: ScriptInput[] = [];
  const expected: ExpectedEvent[] = [];
  let last = 0;
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    try {
      const trimmed = raw.trim();
      if (trimmed.startsWith('>')) {
        expected.push(expectedEvent(line, stripComment(trimmed.slice(1))));
        continue;
      }
      const words = stripComment(raw)
        .trim()
        .split(/\s+/)
        .filter(s => s.length > 0);
      const [first] = words;
      if (first === undefined) continue;
      if (first.startsWith('@')) {
        if (inputs.length > 0) fail('directives come before the first event');
        directive(header, words);
        continue;
      }
      const relative = first.startsWith('+');
      const t = parseDuration(relative ? first.slice(1) : first);
      const at = relative ? last + t : t;
      if (at < last) fail(`time ${at} is earlier than the previous event (${last})`);
      last = at;
      for (const input of eventInput(at, words.slice(1))) inputs.push({ line, input });
    } catch (e) {
      if (!(e instanceof LineError)) throw e;
      const detail = { kind: 'scriptError', file, line, reason: e.message } as const;
      return Result.err(dataError(detail, `${file}:${line}: ${e.message}`));
    }
  }
  return Result.ok({ file, header, inputs, expected });
};
