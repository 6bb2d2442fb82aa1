import { asyncScheduler, map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { SupervisorPort } from '../../../src/bridge/game/engine.js';
import { type GameRun, startGameRun } from '../../../src/bridge/game/gameRun.js';
import { startView } from '../../../src/bridge/game/gameView.js';
import { memoryLogger } from '../../../src/bridge/logger.js';
import type { EventMessage } from '../../../src/bridge/mqtt/topics.js';
import { publishGame } from '../../../src/bridge/stages/publishGame.js';
import { superviseGame } from '../../../src/bridge/stages/superviseGame.js';
import type { Journaled, Stepped, StepOutcome } from '../../../src/bridge/stages/types.js';
import { wakeTimer } from '../../../src/bridge/stages/wakeTimer.js';
import type { WebAlert } from '../../../src/bridge/web/contract.js';
import type { GameEvent, SupervisorInput } from '../../../src/engine/events.js';
import { createTestScheduler, record, square } from './marbles.js';

interface Fake {
  readonly game: string;
  readonly seq: number;
  readonly inputs: readonly string[];
}

const FEN_AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

/** A supervisor that publishes e4 when a piece is placed on e4, and remembers every input's kind and time. */
const fake: SupervisorPort<Fake> = {
  settleMs: 300,
  holdMs: 2500,
  start: s => ({ state: { game: s.game, seq: 0, inputs: [] }, events: [] }),
  step: (st, input: SupervisorInput) => {
    const inputs = [...st.inputs, `${input.kind}@${input.at}`];
    if (input.kind !== 'square' || input.piece === 'empty') return { state: { ...st, inputs }, events: [] };
    const seq = st.seq + 1;
    const e: GameEvent = {
      game: st.game,
      seq,
      at: input.at,
      type: 'move',
      ply: 1,
      san: 'e4',
      uci: 'e2e4',
      fen: FEN_AFTER_E4,
    };
    return { state: { ...st, seq, inputs }, events: [e] };
  },
};

const settings = { game: 'g1', edition: 'E23', gameType: 'standard', supervision: 'full' } as const;
const initial = (): GameRun => startGameRun(fake, settings, { clock: false }).run;
const inputsOf = (run: GameRun): readonly string[] => (run.sup as Fake).inputs;

const rec = (seq: number, at: number, sq: number, empty: boolean): Journaled => ({
  kind: 'record',
  record: record(seq, square(at, sq, empty)),
});

describe('superviseGame stage', () => {
  it('steps each record through the reducer, keeping the game between steps', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const source = hot<Journaled>('a-b|', { a: rec(1, 1000, 12, true), b: rec(2, 1100, 28, false) });
      const out$ = source.pipe(
        superviseGame({ engine: fake, initial: initial() }),
        map(s => `${inputsOf(s.run).join(' ')} / ${s.events.map(e => e.seq).join(',')}`),
      );
      expectObservable(out$).toBe('a-b|', { a: 'square@1000 / ', b: 'square@1000 square@1100 / 1' });
    });
  });

  it('feeds the due ticks before a later record, and a wake feeds those due by its time', () => {
    createTestScheduler().run(({ hot, expectObservable }) => {
      const source = hot<Journaled>('a-w-b', {
        a: rec(1, 1000, 12, true),
        w: { kind: 'wake', at: 1301 },
        b: rec(2, 5000, 28, false),
      });
      const out$ = source.pipe(
        superviseGame({ engine: fake, initial: initial() }),
        map(s => inputsOf(s.run).join(' ')),
      );
      // The settle tick (1000 + 300 + 1) by the wake; the gesture-hold tick (1000 + 2500 + 1) before the record at 5000.
      expectObservable(out$).toBe('a-w-b', {
        a: 'square@1000',
        w: 'square@1000 tick@1301',
        b: 'square@1000 tick@1301 tick@3501 square@5000',
      });
    });
  });

  it('passes a refused entry on without stepping: the game stays as it was', () => {
    const run = initial();
    const error = new Error('journal: disk full (ENOSPC)');
    createTestScheduler().run(({ hot, expectObservable }) => {
      const source = hot<Journaled>('r', {
        r: { kind: 'refused', entry: { type: 'finish', at: 1, result: '*', reason: 'x' }, error },
      });
      expectObservable(source.pipe(superviseGame({ engine: fake, initial: run }))).toBe('r', {
        r: { run, events: [], record: undefined, refused: error },
      });
    });
  });

  it('propagates an error, completes with its source, and releases it on unsubscribe', () => {
    createTestScheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const deps = { engine: fake, initial: initial() };
      expectObservable(hot<Journaled>('#').pipe(superviseGame(deps))).toBe('#');
      expectObservable(hot<Journaled>('|').pipe(superviseGame(deps))).toBe('|');
      const source = hot<Journaled>('--a', { a: rec(1, 1, 12, true) });
      expectObservable(source.pipe(superviseGame(deps)), '^!').toBe('-');
      expectSubscriptions(source.subscriptions).toBe('^!');
    });
  });
});

describe('wakeTimer stage', () => {
  const due = (lastAt: number): GameRun => ({ ...initial(), lastAt, ticks: [lastAt + 301] });

  it('wakes the game at its next due tick; a newer step re-arms the timer', () => {
    const ts = createTestScheduler();
    ts.run(({ hot, expectObservable }) => {
      const runs = hot('a 99ms b', { a: due(0), b: due(100) });
      // a's timer (301) is replaced by b's (401) at frame 100.
      expectObservable(runs.pipe(wakeTimer({ scheduler: asyncScheduler, now: () => ts.now() }))).toBe(
        '401ms w',
        { w: 401 },
      );
    });
  });

  it('waits again when the timer fires before the clock reaches the tick (timers may round down)', () => {
    const ts = createTestScheduler();
    ts.run(({ hot, expectObservable }) => {
      const runs = hot('a', { a: due(0) });
      // The daemon's clock runs 5 ms behind the scheduler here.
      expectObservable(runs.pipe(wakeTimer({ scheduler: asyncScheduler, now: () => ts.now() - 5 }))).toBe(
        '306ms w',
        { w: 301 },
      );
    });
  });

  it('arms nothing for a game that needs no tick, and cancels the timer on unsubscribe', () => {
    const ts = createTestScheduler();
    ts.run(({ hot, expectObservable, expectSubscriptions }) => {
      const idle = { ...initial(), ended: true };
      expectObservable(
        hot('a', { a: idle }).pipe(wakeTimer({ scheduler: asyncScheduler, now: () => ts.now() })),
      ).toBe('-');
      const runs = hot('a', { a: due(0) });
      expectObservable(
        runs.pipe(wakeTimer({ scheduler: asyncScheduler, now: () => ts.now() })),
        '^ 200ms !',
      ).toBe('');
      expectSubscriptions(runs.subscriptions).toBe('^ 200ms !');
    });
  });
});

describe('publishGame stage', () => {
  it('publishes each event, its alert, the view after the step, and tells the one who waited', () => {
    const events: EventMessage[] = [];
    const alerts: WebAlert[] = [];
    const views: number[] = [];
    const outcomes: StepOutcome[] = [];
    const { logger, lines } = memoryLogger('info');
    const view0 = startView({ game: 'g1', board: 'b1' });
    const move: GameEvent = {
      game: 'g1',
      seq: 1,
      at: 10,
      type: 'move',
      ply: 1,
      san: 'e4',
      uci: 'e2e4',
      fen: FEN_AFTER_E4,
    };
    const alert: GameEvent = {
      game: 'g1',
      seq: 2,
      at: 11,
      type: 'alert',
      code: 'touch-move',
      article: { edition: 'E23', article: '4.3.1' },
      color: 'black',
      detail: 'Black touched the knight on g8 and moved another piece.',
      text: [{ key: 'touch.own', params: { color: 'black', piece: 'knight', square: 'g8', from: 'b8' } }],
    };
    const r = record(1, square(10, 28, false));
    createTestScheduler().run(({ hot, expectObservable }) => {
      const stepped = hot<Stepped>('a-b', {
        a: { run: initial(), events: [move, alert], record: r, done: o => outcomes.push(o) },
        b: { run: initial(), events: [], record: undefined },
      });
      const out$ = stepped.pipe(
        publishGame({
          initial: view0,
          outputs: { event: m => events.push(m), alert: m => alerts.push(m), view: v => views.push(v.seq) },
          log: logger,
        }),
        map(p => `${p.view.seq}:${p.view.record.moves.map(m => m.san).join(' ')}`),
      );
      expectObservable(out$).toBe('a-b', { a: '2:e4', b: '2:e4' });
    });
    expect(events.map(e => [e.seq, e.type])).toEqual([
      [1, 'move'],
      [2, 'alert'],
    ]);
    expect(alerts).toMatchObject([
      { code: 'touch_move', article: '4.3.1', edition: 'E23', seq: 2, game: 'g1', board: 'b1' },
    ]);
    expect(views).toEqual([2]); // once per step that had events
    expect(outcomes).toMatchObject([{ ok: true, record: r }]);
    expect(lines.some(l => l.includes('g1 1. e4 (seq 1)'))).toBe(true);
    expect(lines.some(l => l.includes('g1 alert touch-move [E23 4.3.1]'))).toBe(true);
    expect(lines.some(l => l.includes('Black touched the knight on g8 and moved another piece.'))).toBe(true);

    // In the venue's language (http.language), the sentence is rendered from its parameters.
    const spanish = memoryLogger('info');
    createTestScheduler().run(({ hot, expectObservable }) => {
      const stepped = hot<Stepped>('a', { a: { run: initial(), events: [alert], record: undefined } });
      const out$ = stepped.pipe(
        publishGame({
          initial: view0,
          outputs: { event: () => undefined, alert: () => undefined, view: () => undefined },
          log: spanish.logger,
          language: 'es',
        }),
        map(p => p.view.seq),
      );
      expectObservable(out$).toBe('a', { a: 2 });
    });
    // The whole line in it: the game's id, the wire's code and the article kept for grep.
    expect(spanish.lines.filter(l => l.includes('g1 ALERTA touch_move [E23 art. 4.3.1]'))).toEqual([
      expect.stringContaining(
        'Negras tocaron primero el caballo de g8, que podía moverse, pero movieron la pieza de b8.',
      ),
    ]);
    expect(spanish.lines.join('\n')).not.toMatch(/ alert |touched/);
  });
});
