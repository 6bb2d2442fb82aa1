import { describe, expect, it } from 'vitest';
import {
  foldView,
  liveGameOf,
  makeGamePgn,
  makeSnapshot,
  startView,
} from '../../../src/bridge/game/gameView.js';
import { makeAlertMessage, makeEventMessage, terminationWords } from '../../../src/bridge/wire/events.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';
import type { GameEvent } from '../../../src/engine/events.js';
import { Game } from '../../../src/engine/game.js';

const game = Game.standard()
  .playSan('e4')
  .unwrap()
  .playSan('e5')
  .unwrap()
  .playSan('Nf3')
  .unwrap()
  .playSan('Nc6')
  .unwrap();
const mv = (ply: number, seq: number, clocks?: { whiteMs: number; blackMs: number }): GameEvent => {
  const m = game.moves[ply - 1]!;
  return {
    game: 'r1-b3',
    seq,
    at: 1_700_000_000_000 + seq,
    type: 'move',
    ply,
    san: m.san,
    uci: m.uci,
    fen: m.fen,
    ...(clocks ? { clocks } : {}),
  };
};

describe('game events on the wire', () => {
  it('writes a move in snake_case with its clocks, the side to move running (docs/web.md)', () => {
    const msg = makeEventMessage(mv(1, 5, { whiteMs: 899_000, blackMs: 900_000 }));
    expect(msg).toEqual({
      game: 'r1-b3',
      seq: 5,
      at: 1_700_000_000_005,
      type: 'move',
      ply: 1,
      san: 'e4',
      uci: 'e2e4',
      fen: game.moves[0]!.fen,
      clocks: { white_ms: 899_000, black_ms: 900_000, running: 'black', at: 1_700_000_000_005 },
      elapsed_ms: null,
    });
    expect(checkWire('event', msg)).toEqual([]);
  });

  it('words endings, and turns alerts and pending claims into console alerts with their evidence', () => {
    expect(terminationWords('flag')).toBe('time forfeit');
    expect(terminationWords('seventyFiveMoves')).toBe('seventy-five-move rule');
    // Words of the arbiter's own are no reason of the wire: the reason is `arbiter`, the words its detail.
    expect(terminationWords('insufficient material')).toBe('arbiter decision');
    const end: GameEvent = {
      game: 'g',
      seq: 9,
      at: 1,
      type: 'end',
      result: '1-0',
      reason: 'checkmate',
      winner: 'white',
      article: { edition: 'E23', article: '5.1.1' },
    };
    expect(makeEventMessage(end)).toEqual({
      game: 'g',
      seq: 9,
      at: 1,
      type: 'end',
      result: '1-0',
      reason: 'checkmate',
      reason_text: 'checkmate',
      termination: 'normal',
      article: '5.1.1',
      edition: 'E23',
      winner: 'white',
      detail: null,
    });
    const byArbiter = makeEventMessage({ ...end, reason: 'both players absent' });
    expect(byArbiter).toMatchObject({
      reason: 'arbiter',
      termination: 'adjudication',
      detail: 'both players absent',
    });
    expect(checkWire('event', byArbiter)).toEqual([]);
    const forfeit = makeEventMessage({ ...end, reason: 'illegalMoves' });
    expect(forfeit).toMatchObject({
      reason: 'illegal_moves',
      reason_text: 'illegal moves',
      termination: 'rules infraction',
    });
    const illegal: GameEvent = {
      game: 'g',
      seq: 10,
      at: 2,
      type: 'alert',
      code: 'illegal-move',
      article: { edition: 'E23', article: '7.5.1' },
      color: 'white',
      detail: 'White completed an illegal move.',
      text: [{ key: 'illegal.reinstated', params: { color: 'white' } }],
      evidence: { fenBefore: 'startpos', boardFen: '8/8', move: 'e1e3', squares: ['e1', 'e3'] },
    };
    expect(makeAlertMessage(illegal, { board: 'b-3', ply: 12 })).toEqual({
      id: 'g-10',
      at: 2,
      game: 'g',
      seq: 10,
      ply: 12,
      board: 'b-3',
      code: 'illegal_move',
      message: 'White completed an illegal move.',
      text: [{ key: 'illegal.reinstated', params: { color: 'white' } }],
      article: '7.5.1',
      edition: 'E23',
      evidence: {
        fen_before: 'startpos',
        placement: '8/8',
        move: 'e1e3',
        squares: ['e1', 'e3'],
        color: 'white',
        detail: 'White completed an illegal move.',
      },
    });
    const claim: GameEvent = {
      game: 'g',
      seq: 11,
      at: 3,
      type: 'claim',
      by: 'black',
      claim: 'threefold',
      status: 'pending',
      article: { edition: 'E23', article: '9.2.1' },
    };
    expect(makeAlertMessage(claim, { board: undefined, ply: 30 })).toMatchObject({
      code: 'claim',
      evidence: { claim_seq: 11, color: 'black' },
    });
    expect(makeAlertMessage(mv(1, 1), { board: undefined, ply: 1 })).toBeUndefined();
    // A board two move orders reach: the orders go to the console and the event stream.
    const orders = [
      ['gxf6', 'c4', 'cxd4'],
      ['cxd4', 'c4', 'gxf6'],
    ];
    const undecided: GameEvent = {
      ...illegal,
      seq: 12,
      code: 'board-mismatch',
      detail: 'Two move orders.',
      evidence: { fenBefore: 'startpos', orders },
    };
    expect(makeAlertMessage(undecided, { board: 'b-9', ply: 7 })).toMatchObject({
      code: 'board_mismatch',
      evidence: { orders },
    });
    expect(makeEventMessage(undecided)).toMatchObject({ evidence: { fen_before: 'startpos', orders } });
  });
});

describe('the game view', () => {
  const info = {
    game: 'r1-b3',
    board: 'b-3',
    round: 1,
    boardNumber: 3,
    white: { name: 'Morphy, Paul' },
    black: { name: 'Anderssen, Adolf' },
    event: 'Demo',
    timeControl: '900+10',
  };

  it('folds moves and corrections into one record, never a branch, and ignores repeated seqs', () => {
    let view = startView(info);
    for (const e of [mv(1, 1), mv(2, 2), mv(3, 3)]) view = foldView(view, e);
    view = foldView(view, mv(3, 3)); // a duplicate
    const d3 = Game.standard().playSan('e4').unwrap().playSan('e5').unwrap().playSan('d3').unwrap().moves[2]!;
    view = foldView(view, {
      game: 'r1-b3',
      seq: 4,
      at: 5,
      type: 'correction',
      fromPly: 3,
      moves: [{ ply: 3, san: 'd3', uci: d3.uci, fen: d3.fen }],
      reason: 'revision',
    });
    expect(view.record.moves.map(m => m.san)).toEqual(['e4', 'e5', 'd3']);
    expect(view.seq).toBe(4);
    const snap = makeSnapshot(view);
    expect(snap).toMatchObject({
      game: 'r1-b3',
      seq: 4,
      board: 'b-3',
      board_number: 3,
      round: '1',
      moves: ['e4', 'e5', 'd3'],
      last_move: { ply: 3, san: 'd3' },
      result: '*',
      status: 'playing',
    });
    expect(snap.white).toEqual({ name: 'Morphy, Paul', title: null, rating: null, federation: null });
  });

  it('shows the end: result, termination, stopped clocks, PGN and the feed', () => {
    let view = startView(info);
    view = foldView(view, mv(1, 1, { whiteMs: 890_000, blackMs: 900_000 }));
    view = foldView(view, {
      game: 'r1-b3',
      seq: 2,
      at: 9,
      type: 'end',
      result: '0-1',
      reason: 'resignation',
      winner: 'black',
      article: { edition: 'E23', article: '5.1.2' },
    });
    const snap = makeSnapshot(view);
    expect(snap).toMatchObject({
      result: '0-1',
      reason: 'resignation',
      reason_text: 'resignation',
      termination: 'normal',
      status: 'finished',
      clocks: { running: null },
    });
    expect(checkWire('game', snap)).toEqual([]);
    const pgn = makeGamePgn(view);
    expect(pgn).toContain('[Termination "normal"]');
    expect(pgn).toContain('[Round "1.3"]');
    expect(pgn).toContain('[White "Morphy, Paul"]');
    expect(pgn).toContain('1. e4 { [%clk 0:14:50] } 0-1');
    expect(liveGameOf(view)).toMatchObject({ round: 1, board: 3, result: '0-1', termination: 'normal' });
    expect(liveGameOf(startView({ game: 'x', board: undefined }))).toBeUndefined();
  });
});
