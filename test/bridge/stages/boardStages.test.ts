import { EMPTY, NEVER, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { BoardRegistry } from '../../../src/bridge/daemon/boards.js';
import type { BoardConfig } from '../../../src/bridge/config/index.js';
import { memoryLogger, silentLogger } from '../../../src/bridge/logger.js';
import { boardLane$, type PipelineDeps } from '../../../src/bridge/daemon/pipeline.js';
import { boardObservations$ } from '../../../src/bridge/stages/boardObservations.js';
import { trackBoard } from '../../../src/bridge/stages/trackBoard.js';
import { START_SQUARES, type Observation } from '../../../src/drivers/observation.js';
import { createTestScheduler, square } from './marbles.js';

const board: BoardConfig = { id: 'b1', driver: 'dgt', port: '/dev/x', orientation: 'auto', clock: false };
const link = (at: number, state: 'connected' | 'lost'): Observation => ({ type: 'link', at, state });
const identity = (at: number): Observation => ({ type: 'identity', at, vendor: 'DGT', serial: '01025' });
const snapshot = (at: number): Observation => ({ type: 'snapshot', at, squares: START_SQUARES });

describe('trackBoard stage', () => {
  it('keeps the board registry current, routes every observation, and asks for a pairing on changes', () => {
    const boards = new BoardRegistry([board], () => 0);
    const routed: string[] = [];
    const considered: number[] = [];
    const { logger, lines } = memoryLogger('info');
    createTestScheduler().run(({ hot, expectObservable }) => {
      const values = {
        i: identity(1),
        s: snapshot(2),
        c: link(3, 'connected'),
        q: square(4, 12, true),
        g: {
          type: 'protocol-error',
          at: 5,
          reason: { kind: 'garbage' },
          hex: '7F 01',
          count: 2,
        } as Observation,
      };
      const source = hot('i-s-c-q-g', values);
      const out$ = source.pipe(
        trackBoard({
          id: 'b1',
          boards,
          route: (_b, o) => routed.push(o.type),
          consider: () => considered.push(considered.length),
          log: logger,
        }),
      );
      expectObservable(out$).toBe('i-s-c-q-g', values);
    });
    expect(routed).toEqual(['identity', 'snapshot', 'link', 'square', 'protocol-error']);
    // serial, squares (twice: the dump and the lifted pawn), link
    expect(considered).toHaveLength(4);
    const status = boards.get('b1')?.status;
    expect(status).toMatchObject({ link: 'connected', serial: '01025', protocolErrors: 1, observations: 5 });
    expect(boards.stateOf('b1')).toMatchObject({
      board: 'b1',
      link: 'connected',
      game: null,
      serial: '01025',
      placement: 'rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR',
    });
    expect(lines.filter(l => l.includes('board b1: connected'))).toHaveLength(1);
    expect(lines.some(l => l.includes('protocol error garbage (2 bytes) hex="7F 01"'))).toBe(true);
  });
});

describe('trackBoard stage: a board that is not plugged in', () => {
  it('says so once, at warn, with a hint; its retries are debug lines until it connects', () => {
    const boards = new BoardRegistry([board], () => 0);
    const { logger, lines } = memoryLogger('debug');
    const cannotOpen = (at: number): Observation => ({
      type: 'link',
      at,
      state: 'lost',
      detail: 'cannot open /dev/x: Error: No such file or directory',
    });
    const again = (at: number): Observation => ({
      type: 'link',
      at,
      state: 'resynchronising',
      detail: 'attempt 2',
    });
    createTestScheduler().run(({ hot, expectObservable }) => {
      const values = {
        l: cannotOpen(1),
        r: again(2),
        m: cannotOpen(3),
        n: again(4),
        o: cannotOpen(5),
        c: link(6, 'connected'),
        x: link(7, 'lost'),
      };
      const out$ = hot('l-r-m-n-o-c-x', values).pipe(
        trackBoard({ id: 'b1', boards, route: () => undefined, consider: () => undefined, log: logger }),
      );
      expectObservable(out$).toBe('l-r-m-n-o-c-x', values);
    });
    const warned = lines.filter(l => l.includes(' WARN '));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('board b1: lost (cannot open /dev/x');
    expect(warned[0]).toContain('`chessbridge ports` lists the boards it finds');
    expect(lines.filter(l => l.includes(' DEBUG ') && l.includes('board b1:'))).toHaveLength(4);
    // Once connected, a loss is news again.
    expect(lines.filter(l => l.includes(' INFO ') && l.includes('board b1:'))).toEqual([
      expect.stringContaining('board b1: connected') as unknown,
      expect.stringContaining('board b1: lost') as unknown,
    ]);
  });
});

const face = { ms: 60_000, flagFallen: false, flagShown: false, timePerMove: false };
const clock: Observation = {
  type: 'clock',
  at: 9,
  connected: true,
  running: 'left',
  lever: 'right',
  left: face,
  right: face,
  batteryLow: false,
  status: 0,
};

describe('BoardRegistry.stateVersion', () => {
  it('changes with what the board state shows (link, serial, squares, game, a clock found), not with clock readings', () => {
    const boards = new BoardRegistry([board], () => 0);
    const versions: number[] = [boards.stateVersion('b1')];
    const step = (o: Observation) => {
      boards.observe('b1', o);
      versions.push(boards.stateVersion('b1'));
    };
    step(identity(1));
    step(snapshot(2));
    step(clock); // the first reading: a clock is there
    step(clock);
    step(snapshot(3)); // the same squares
    step(link(4, 'connected'));
    step(clock);
    boards.bind('b1', 'r1-b1');
    versions.push(boards.stateVersion('b1'));
    expect(versions).toEqual([0, 1, 2, 3, 3, 3, 4, 4, 5]);
    // The same squares: the same placement (made once per squares array).
    const first = boards.stateOf('b1');
    expect(boards.stateOf('b1')?.placement).toBe(first?.placement);
  });
});

describe('boardLane$', () => {
  it('publishes the board state after a change (250 ms gathered), not after clock readings', () => {
    const boards = new BoardRegistry([board], () => 0);
    const published: number[] = [];
    const ts = createTestScheduler();
    ts.run(({ hot }) => {
      // connected at 0, readings every 100 ms, the pieces at 400, a reading at 1050.
      const session = hot<Observation>('a 99ms c 99ms c 99ms c 99ms s 649ms c', {
        a: link(0, 'connected'),
        c: clock,
        s: snapshot(400),
      });
      const deps = {
        boards,
        games: { route: () => undefined, considerBoard: () => undefined },
        outputs: { boardState: () => published.push(ts.now()) },
        openBoard: () => session,
        scheduler: ts,
        log: silentLogger(),
      } as unknown as PipelineDeps;
      const slot = boards.get('b1');
      if (slot === undefined) throw new Error('no slot');
      const sub = boardLane$(slot, deps).subscribe();
      ts.schedule(() => sub.unsubscribe(), 1500);
    });
    // Without the check the readings at 300 and 1050 would publish again at 550 and 1300.
    expect(published).toEqual([250, 650]);
  });
});

describe('boardObservations$ stage', () => {
  it('opens the session again after an error, following the back-off, and logs it with the board', () => {
    const { logger, lines } = memoryLogger('info');
    createTestScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const session = cold<Observation>('a-#', { a: link(0, 'connected') });
      const out$ = boardObservations$(
        board,
        { open: () => session, scheduler: undefined as never, log: logger, restartMs: 5 },
        NEVER,
        EMPTY,
      );
      // a at 0, error at 2, wait 5, a again at 7, error at 9, a at 14, unsubscribed at 15.
      expectObservable(out$, '^ 14ms !').toBe('a 6ms a 6ms a', { a: link(0, 'connected') });
      expectSubscriptions(session.subscriptions).toBe(['^-!', '7ms ^-!', '14ms ^!']);
    });
    expect(lines.filter(l => l.includes('b1: session failed')).length).toBeGreaterThanOrEqual(2);
  });

  it('re-opens the session at once on a resync request (a fresh dump), closing the old one', () => {
    createTestScheduler().run(({ cold, hot, expectObservable, expectSubscriptions }) => {
      const session = cold<Observation>('s', { s: snapshot(0) });
      const resync$ = hot<void>('---r');
      const out$: Observable<Observation> = boardObservations$(
        board,
        { open: () => session, scheduler: undefined as never, log: silentLogger() },
        resync$,
        EMPTY,
      );
      expectObservable(out$, '^ 5ms !').toBe('s--s', { s: snapshot(0) });
      expectSubscriptions(session.subscriptions).toBe(['^--!', '---^--!']);
    });
  });
});
