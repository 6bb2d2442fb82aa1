/**
 * Writing board scripts and events as text: `makeDigest` gives the one-line form of a game event
 * that expected lines are compared with (`move 3 Bc4`, `alert touch-move 4.3.1 white proven`), and
 * `printScript` writes a parsed script back in its canonical form (parse(print(s)) gives s).
 *
 *   makeDigest({ type: 'end', result: '1-0', reason: 'checkmate', article: cite('E23', '5.1.1'), ... });
 *   // 'end 1-0 checkmate 5.1.1'
 */
import { makeSquare } from 'chessops';
import { makePiece } from 'chessops/fen';
import type { BoardLogEntry, GameEventBody, SupervisorInput } from '../events.js';
import type { SensedContent } from '../recognition/boardEvent.js';
import type { BoardScript, ExpectedEvent } from './types.js';

/** The one-line digest of an event (its tokens are what expected lines match, as a prefix). */
export const makeDigest = (e: GameEventBody): string => {
  switch (e.type) {
    case 'move':
      return `move ${e.ply} ${e.san}`;
    case 'correction':
      return ['correction', e.fromPly, e.reason, ...e.moves.map(m => m.san)].join(' ');
    case 'clock':
      return `clock ${e.whiteMs} ${e.blackMs} ${e.running ?? 'none'}`;
    case 'alert':
      return `alert ${e.code} ${e.article.article}${e.color ? ` ${e.color}` : ''}${e.grade ? ` ${e.grade}` : ''}`;
    case 'alert-withdrawn':
      return `withdrawn ${e.code} ${e.reason}`;
    case 'finding':
      return `finding ${e.code} ${e.article.article} ${e.color} ${e.grade}${e.breach ? '' : ' information'}`;
    case 'claim':
      return `claim ${e.by} ${e.claim} ${e.status} ${e.article.article}`;
    case 'offer':
      return `offer ${e.by} ${e.status}${e.article ? ` ${e.article.article}` : ''}`;
    case 'end':
      return `end ${e.result} ${e.reason} ${e.article.article}`;
  }
};

const contentText = (c: SensedContent): string =>
  c === 'empty' ? '-' : c === 'occupied' ? '?' : makePiece(c);

const CLAIM_WORD = {
  threefold: 'threefold',
  fiftyMoves: 'fifty',
  flag: 'flag',
  illegalMove: 'illegal',
  art4: 'art4',
} as const;

const boardText = (board: readonly SensedContent[]): string => {
  const rows: string[] = [];
  for (let rank = 7; rank >= 0; rank--) {
    let row = '';
    let empty = 0;
    for (let file = 0; file < 8; file++) {
      const c = board[rank * 8 + file] ?? 'empty';
      if (c === 'empty') empty++;
      else {
        if (empty > 0) row += String(empty);
        empty = 0;
        row += c === 'occupied' ? '?' : makePiece(c);
      }
    }
    if (empty > 0) row += String(empty);
    rows.push(row);
  }
  return rows.join('/');
};

const logText = (e: BoardLogEntry): string => {
  switch (e.kind) {
    case 'mark':
      return e.board;
    case 'gap':
      return 'gap';
    case 'press':
      return `press:${e.side}`;
    case 'square':
      return `${makeSquare(e.square)}:${contentText(e.piece)}${e.quick ? '*' : ''}`;
  }
};

/** The event part of an input line (after the time). */
export const makeInputText = (i: SupervisorInput): string => {
  switch (i.kind) {
    case 'square':
      return `${makeSquare(i.square)} ${contentText(i.piece)}`;
    case 'snapshot':
      return `snapshot ${boardText(i.board)}`;
    case 'press':
    case 'adjust':
      return `${i.kind} ${i.side}`;
    case 'tick':
      return 'tick';
    case 'clock':
      return `clock ${i.whiteMs} ${i.blackMs} ${i.running ?? 'none'}`;
    case 'link':
      return i.state;
    case 'boardLog':
      return ['boardlog', ...i.entries.map(logText)].join(' ');
    case 'claim':
      return `claim ${i.by} ${CLAIM_WORD[i.claim]}${i.intended !== undefined ? ` ${i.intended}` : ''}`;
    case 'offer':
      return `offer ${i.by}`;
    case 'offerReply':
      return `${i.accept ? 'accept' : 'decline'} ${i.by}`;
    case 'resign':
      return `resign ${i.by}`;
    case 'arbiter': {
      const a = i.action;
      switch (a.type) {
        case 'restore':
          return `arbiter restore ${a.ply}`;
        case 'setMoves':
          return `arbiter moves ${a.afterPly}${a.moves.map(m => ` ${m}`).join('')}`;
        case 'setResult':
          return `arbiter result ${a.result} ${a.reason}`;
        case 'penalty':
          return `arbiter penalty ${a.against} ${a.minutes}`;
        case 'adjustClock':
          return `arbiter clock ${a.whiteMs} ${a.blackMs}`;
        case 'pauseClock':
          return 'arbiter pause';
        case 'resumeClock':
          return 'arbiter resume';
        case 'acceptClaim':
          return 'arbiter accept';
        case 'rejectClaim':
          return 'arbiter reject';
        case 'irregularity':
          return `arbiter ${a.kind === 'twoHands' ? 'twohands' : 'otherhand'} ${a.by}`;
      }
    }
  }
};

const expectedText = (e: ExpectedEvent): string =>
  `> ${e.editions ? `[${e.editions.join(' ')}] ` : ''}${e.tokens.join(' ')}${e.detail !== undefined ? ` "${e.detail}"` : ''}`;

/** A script in canonical form: directives, then inputs and expected lines in the order of their lines. */
export const printScript = (s: BoardScript): string => {
  const h = s.header;
  const out: string[] = [
    `@edition ${h.editions.join(' ')}`,
    `@type ${h.gameType}`,
    `@supervision ${h.supervision}`,
  ];
  if (h.timeControl !== undefined) out.push(`@timecontrol ${h.timeControl}`);
  out.push(`@start ${h.start ?? 'startpos'}`);
  if (h.moves.length > 0) out.push(`@moves ${h.moves.join(' ')}`);
  out.push(`@mode ${h.mode}`);
  if (h.settleMs !== undefined) out.push(`@settle ${h.settleMs}`);
  if (h.occupancy) out.push('@occupancy');
  if (h.chess960) out.push('@chess960');
  if (h.game !== undefined) out.push(`@game ${h.game}`);
  out.push(`@expect ${h.expect}`);
  if (h.alerts !== 'proven') out.push(`@alerts ${h.alerts}`);
  const lines: { line: number; text: string }[] = [
    ...s.inputs.map(i => ({ line: i.line, text: `${i.input.at} ${makeInputText(i.input)}` })),
    ...s.expected.map(e => ({ line: e.line, text: expectedText(e) })),
  ];
  lines.sort((a, b) => a.line - b.line);
  return [...out, ...lines.map(l => l.text)].join('\n') + '\n';
};
