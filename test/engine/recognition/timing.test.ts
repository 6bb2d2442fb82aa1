/**
 * The timing rules (issue "Timing"; reference §1.1): a move is made when the board shows it with
 * nothing in hand, published after the settle window or at once on a press, revisable until its
 * mover presses or the opponent's reply is made on top of it, and carries its evidence. The
 * reducer is pure: time comes only from event timestamps.
 */
import { describe, expect, it } from 'vitest';
import { Game } from '../../../src/engine/game.js';
import { parseShorthand } from '../../../src/engine/recognition/shorthand.js';
import { startRecognition } from '../../../src/engine/recognition/state.js';
import { runRecognition, step } from '../../../src/engine/recognition/step.js';
import { recognise, sansOf, summarise } from './support.js';

describe('made, published, revisable, final', () => {
  it('publishes when the board has been quiet for the settle window, not before', () => {
    const early = recognise('0 e2 -; 200 e4 P; 499 tick');
    expect(early.outputs).toEqual([]);
    const onTime = recognise('0 e2 -; 200 e4 P; 500 tick');
    const move = onTime.outputs[0];
    expect(move?.type === 'move' && [move.at, move.publishedAt]).toEqual([200, 500]);
  });

  it('respects a configured settle window', () => {
    const r = recognise('0 e2 -; 200 e4 P; 349 tick; 350 tick', { options: { settleMs: 150 } });
    expect(recognise('0 e2 -; 200 e4 P; 349 tick', { options: { settleMs: 150 } }).outputs).toEqual([]);
    const move = r.outputs[0];
    expect(move?.type === 'move' && move.publishedAt).toBe(350);
  });

  it('a clock press publishes at once and makes the move final', () => {
    const r = recognise('0 e2 -; 200 e4 P; 260 press w');
    expect(summarise(r.outputs)).toEqual(['move 1 e4 @200', 'final 1 press']);
    const move = r.outputs[0];
    expect(move?.type === 'move' && move.publishedAt).toBe(260);
    expect(r.state.anchor).toBe(1);
  });

  it('a published move stays revisable until the press (a correction, never a branch)', () => {
    const r = recognise('0 d2 -; 150 d3 P; 700 d3 -; 900 d4 P; 1500 press w');
    expect(summarise(r.outputs)).toEqual(['move 1 d3 @150', 'correction 1 d4 (revision)', 'final 1 press']);
    expect(r.state.game.length).toBe(1);
  });

  it('after the press the move is final: moving the piece on is a mismatch, not a correction', () => {
    const r = recognise('0 d2 -; 150 d3 P; 500 press w; 900 d3 -; 1100 d4 P; 2000 tick');
    expect(summarise(r.outputs)).toEqual([
      'move 1 d3 @150',
      'final 1 press',
      'mismatch d3,d4 (settle, unreachable)',
    ]);
    expect(sansOf(r)).toBe('d3');
  });

  it("without a clock the opponent's reply makes the move final", () => {
    // d3 taken back after the reply: no longer a revision, the board does not match.
    const r = recognise('0 d2 -; 150 d3 P; 900 e7 -; 1100 e5 p; 1600 d3 -; 1800 d2 P; 2500 tick');
    expect(summarise(r.outputs)).toEqual([
      'move 1 d3 @150',
      'move 2 e5 @1100',
      'final 1 reply',
      'mismatch d2,d3 (settle, unreachable)',
    ]);
  });

  it('the opponent lifting a piece publishes the move (he has started), but does not make it final', () => {
    const r = recognise('0 g1 -; 200 f3 N; 300 e7 -; 1200 tick');
    expect(summarise(r.outputs)).toEqual(['move 1 Nf3 @200']);
    expect(r.state.anchor).toBe(0);
    expect(r.state.status.kind).toBe('inProgress');
  });
});

describe('evidence', () => {
  it('each move carries the events that made it, with their times', () => {
    const r = recognise(
      '0 e2 -; 200 e4 P; 700 press w; 1500 e7 -; 1600 e6 p; 1700 e6 -; 1800 e5 p; 2500 press b',
    );
    const moves = r.outputs.flatMap(o => (o.type === 'move' ? [o] : []));
    expect(moves.map(m => m.evidence.map(e => e.at))).toEqual([
      [0, 200],
      [700, 1500, 1600, 1700, 1800],
    ]);
  });

  it('two plies between quiet moments split the evidence where the first was made', () => {
    const r = recognise('0 e2 -; 200 e4 P; 300 e7 -; 450 e5 p; 1200 tick');
    const moves = r.outputs.flatMap(o => (o.type === 'move' ? [o] : []));
    expect(moves.map(m => [m.san, m.at, m.evidence.map(e => e.at), m.observed])).toEqual([
      ['e4', 200, [0, 200], true],
      ['e5', 450, [300, 450], true],
    ]);
  });
});

describe('purity', () => {
  const events = parseShorthand('0 e2 -; 200 e4 P; 700 press w; 1500 e7 -; 1800 e5 p; 2500 tick');

  it('the same events give the same outputs', () => {
    const a = runRecognition(startRecognition(Game.standard()), events);
    const b = runRecognition(startRecognition(Game.standard()), events);
    expect(b.outputs).toEqual(a.outputs);
  });

  it('step never changes the state it is given', () => {
    const st = startRecognition(Game.standard());
    const before = JSON.stringify({ ...st, game: st.game.moves });
    let cur = st;
    for (const e of events) cur = step(cur, e).state;
    expect(JSON.stringify({ ...st, game: st.game.moves })).toBe(before);
    expect(cur.game.length).toBe(2);
  });

  it('a time going backwards is treated as no time passing', () => {
    const r = recognise('0 e2 -; 200 e4 P; 100 tick; 600 tick');
    const move = r.outputs[0];
    expect(move?.type === 'move' && move.publishedAt).toBe(500);
  });
});
