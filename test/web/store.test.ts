/**
 * The pages' browser modules that need no DOM, run in Node: the game store (snapshots, events
 * deduplicated by seq, waiting and gaps), clock arithmetic and text, FEN placement parsing and the
 * words of the display.
 */
import { describe, expect, it } from 'vitest';

interface GameState {
  readonly game: string;
  readonly seq: number;
  readonly hasSnapshot: boolean;
  readonly fen: string;
  readonly moves: readonly (string | null)[];
  readonly last_move: { ply: number; san: string; uci: string } | null;
  readonly clocks: { white_ms: number; black_ms: number; running: string | null; at: number } | null;
  readonly result: string;
  readonly status: string;
  readonly round: string | null;
  readonly board_number: number | null;
}
interface Change {
  readonly game: string;
  readonly needsSnapshot: boolean;
}
interface GameStoreLike {
  subscribe(listener: (change: Change) => void): () => void;
  get(game: string): GameState | undefined;
  list(): GameState[];
  applySnapshot(payload: unknown): 'applied' | 'stale' | 'invalid';
  applyEvent(payload: unknown): 'applied' | 'duplicate' | 'waiting' | 'gap' | 'invalid';
}
interface StoreModule {
  GameStore: new () => GameStoreLike;
}
interface ClockModule {
  formatClock(ms: number | null): string;
  remainingMs(clocks: GameState['clocks'], color: 'white' | 'black', now: number): number | null;
  ClockSkew: new () => {
    sample(at: number, receivedAt: number): void;
    offsetMs: number;
    daemonNow(n: number): number;
  };
}
interface BoardModule {
  parsePlacement(fen: string): Map<string, string> | null;
  moveSquares(uci: string): string[];
}
interface FormatModule {
  resultText(result: string): string;
  moveNumber(ply: number): string;
  shortName(player: { name: string; title: string | null } | null): string;
  givenName(player: { name: string } | null): string;
  statusText(state: Partial<GameState> & { reason_text?: string | null }): string;
}

const load = async <T>(path: string): Promise<T> =>
  (await import(new URL(`../../web/shared/${path}`, import.meta.url).href)) as T;
const { GameStore } = await load<StoreModule>('store.js');
const clock = await load<ClockModule>('clock.js');
const board = await load<BoardModule>('board.js');
const format = await load<FormatModule>('format.js');

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';
const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';
const AFTER_E5 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2';
const AFTER_NF3 = 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2';

const snapshot = (seq: number, moves: string[], fen: string) => ({
  game: 'g1',
  seq,
  at: 1000,
  board: 'b1',
  board_number: 1,
  round: '1',
  event: 'Test Open',
  white: { name: 'White, Wanda', title: 'GM', rating: 2700, federation: null },
  black: { name: 'Black, Bob', title: null, rating: null, federation: null },
  fen,
  moves,
  last_move: null,
  clocks: { white_ms: 600_000, black_ms: 600_000, running: 'white', at: 1000 },
  result: '*',
  reason_text: null,
  status: 'playing',
});
const move = (seq: number, ply: number, san: string, uci: string, fen: string) => ({
  game: 'g1',
  seq,
  at: 2000 + seq,
  type: 'move',
  ply,
  san,
  uci,
  fen,
  clocks: {
    white_ms: 590_000,
    black_ms: 600_000,
    running: ply % 2 === 1 ? 'black' : 'white',
    at: 2000 + seq,
  },
});

const watch = (store: GameStoreLike) => {
  const changes: Change[] = [];
  store.subscribe(change => changes.push(change));
  return changes;
};

describe('GameStore', () => {
  it('applies events in order once each and drops duplicates by seq', () => {
    const store = new GameStore();
    expect(store.applySnapshot(snapshot(0, [], START))).toBe('applied');
    expect(store.applyEvent(move(1, 1, 'e4', 'e2e4', AFTER_E4))).toBe('applied');
    expect(store.applyEvent(move(1, 1, 'e4', 'e2e4', AFTER_E4))).toBe('duplicate');
    expect(store.applyEvent(move(2, 2, 'e5', 'e7e5', AFTER_E5))).toBe('applied');
    expect(store.applyEvent(move(1, 1, 'e4', 'e2e4', AFTER_E4))).toBe('duplicate');
    const state = store.get('g1')!;
    expect(state.moves).toEqual(['e4', 'e5']);
    expect(state.fen).toBe(AFTER_E5);
    expect(state.last_move).toEqual({ ply: 2, san: 'e5', uci: 'e7e5' });
    expect(state.clocks?.running).toBe('white');
    expect(state.seq).toBe(2);
  });

  it('holds events that arrive before the snapshot and replays those above its seq', () => {
    const store = new GameStore();
    const changes = watch(store);
    expect(store.applyEvent(move(2, 2, 'e5', 'e7e5', AFTER_E5))).toBe('waiting');
    expect(store.applyEvent(move(3, 3, 'Nf3', 'g1f3', AFTER_NF3))).toBe('waiting');
    expect(changes.at(-1)).toMatchObject({ game: 'g1', needsSnapshot: true });
    expect(store.get('g1')?.hasSnapshot).toBe(false);
    expect(store.applySnapshot({ ...snapshot(2, ['e4', 'e5'], AFTER_E5) })).toBe('applied');
    const state = store.get('g1')!;
    expect(state.moves).toEqual(['e4', 'e5', 'Nf3']);
    expect(state.seq).toBe(3);
    expect(state.fen).toBe(AFTER_NF3);
  });

  it('reports a gap, asks for the snapshot, and fills the gap from it', () => {
    const store = new GameStore();
    const changes = watch(store);
    store.applySnapshot(snapshot(0, [], START));
    expect(store.applyEvent(move(3, 3, 'Nf3', 'g1f3', AFTER_NF3))).toBe('gap');
    expect(changes.at(-1)?.needsSnapshot).toBe(true);
    expect(store.get('g1')?.seq).toBe(0);
    // The re-read snapshot covers seq 2; the held event 3 follows it.
    expect(store.applySnapshot(snapshot(2, ['e4', 'e5'], AFTER_E5))).toBe('applied');
    expect(store.get('g1')?.moves).toEqual(['e4', 'e5', 'Nf3']);
    expect(changes.at(-1)?.needsSnapshot).toBe(false);
    // The missing event, late: already covered.
    expect(store.applyEvent(move(2, 2, 'e5', 'e7e5', AFTER_E5))).toBe('duplicate');
  });

  it('ignores a snapshot older than the events applied, and takes a newer one whole', () => {
    const store = new GameStore();
    store.applySnapshot(snapshot(1, ['e4'], AFTER_E4));
    store.applyEvent(move(2, 2, 'e5', 'e7e5', AFTER_E5));
    expect(store.applySnapshot(snapshot(1, ['e4'], AFTER_E4))).toBe('stale');
    expect(store.get('g1')?.moves).toEqual(['e4', 'e5']);
    expect(store.applySnapshot(snapshot(7, ['d4'], START))).toBe('applied');
    expect(store.get('g1')?.moves).toEqual(['d4']);
    expect(store.applySnapshot({ seq: 3 })).toBe('invalid');
    expect(store.applyEvent({ game: 'g1', type: 'move' })).toBe('invalid');
  });

  it('asks for the snapshot after a correction or an unknown event, and ends a game', () => {
    const store = new GameStore();
    const changes = watch(store);
    store.applySnapshot(snapshot(3, ['e4', 'e5', 'Nf3'], AFTER_NF3));
    // An arbiter's restore: the later plies removed; the page reads the snapshot again.
    expect(
      store.applyEvent({
        game: 'g1',
        seq: 4,
        at: 1,
        type: 'correction',
        from_ply: 3,
        moves: [],
        reason: 'arbiter',
      }),
    ).toBe('applied');
    expect(changes.at(-1)?.needsSnapshot).toBe(true);
    store.applySnapshot(snapshot(4, ['e4', 'e5'], AFTER_E5));
    expect(store.get('g1')).toMatchObject({ moves: ['e4', 'e5'], fen: AFTER_E5 });
    expect(store.applyEvent({ game: 'g1', seq: 5, at: 1, type: 'claim', claim: 'threefold' })).toBe(
      'applied',
    );
    expect(changes.at(-1)?.needsSnapshot).toBe(true);
    expect(store.get('g1')?.seq).toBe(5);
    store.applyEvent({
      game: 'g1',
      seq: 6,
      at: 1,
      type: 'end',
      result: '1/2-1/2',
      reason: 'agreement',
      reason_text: 'agreement',
      termination: 'normal',
    });
    expect(store.get('g1')).toMatchObject({
      result: '1/2-1/2',
      reason_text: 'agreement',
      status: 'finished',
      clocks: { running: null },
    });
  });

  it('lists games in round and board order', () => {
    const store = new GameStore();
    for (const [game, round, board_number] of [
      ['a', '2', 1],
      ['b', '1', 10],
      ['c', '1', 2],
    ] as const)
      store.applySnapshot({ ...snapshot(0, [], START), game, round, board_number });
    expect(store.list().map(s => s.game)).toEqual(['c', 'b', 'a']);
  });
});

describe('clock arithmetic', () => {
  it('counts the running side down from the reading and formats it as players read it', () => {
    const clocks = { white_ms: 905_000, black_ms: 61_000, running: 'black', at: 10_000 };
    expect(clock.remainingMs(clocks, 'white', 20_000)).toBe(905_000);
    expect(clock.remainingMs(clocks, 'black', 20_000)).toBe(51_000);
    expect(clock.remainingMs(clocks, 'black', 200_000)).toBe(0);
    expect(clock.remainingMs(null, 'white', 0)).toBeNull();
    expect(clock.formatClock(905_000)).toBe('15:05');
    expect(clock.formatClock(3_725_000)).toBe('1:02:05');
    expect(clock.formatClock(9_450)).toBe('0:09.4');
    expect(clock.formatClock(-5)).toBe('0:00.0');
    expect(clock.formatClock(null)).toBe('');
  });

  it("estimates the daemon's clock from the quickest message", () => {
    const skew = new clock.ClockSkew();
    expect(skew.daemonNow(5000)).toBe(5000);
    skew.sample(1000, 3050);
    skew.sample(2000, 4010);
    skew.sample(3000, 5400);
    expect(skew.offsetMs).toBe(2010);
    expect(skew.daemonNow(10_000)).toBe(7990);
  });
});

describe('board and words', () => {
  it('reads the board part of a FEN and refuses anything else', () => {
    const pieces = board.parsePlacement(AFTER_NF3)!;
    expect(pieces.get('f3')).toBe('N');
    expect(pieces.get('e5')).toBe('p');
    expect(pieces.size).toBe(32);
    expect(board.parsePlacement('8/8/8/8/8/8/8/8')?.size).toBe(0);
    for (const bad of ['8/8/8', 'rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR', '8/8/8/8/8/8/8/7x'])
      expect(board.parsePlacement(bad)).toBeNull();
    expect(board.moveSquares('e7e8q')).toEqual(['e7', 'e8']);
    expect(board.moveSquares('--')).toEqual([]);
  });

  it('words results, move numbers, names and status', () => {
    expect(format.resultText('1/2-1/2')).toBe('\u00bd\u2013\u00bd');
    expect(format.resultText('*')).toBe('');
    expect(format.moveNumber(23)).toBe('12.');
    expect(format.moveNumber(24)).toBe('12\u2026');
    expect(format.shortName({ name: 'Ju, Wenjun', title: 'GM' })).toBe('GM Ju');
    expect(format.shortName(null)).toBe('?');
    expect(format.givenName({ name: 'Fernández de Córdoba Villanueva, María Inmaculada' })).toBe(
      'María Inmaculada',
    );
    expect(format.givenName({ name: 'Magnus Carlsen' })).toBe('');
    expect(format.givenName(null)).toBe('');
    expect(format.statusText({ result: '*', status: 'playing', fen: AFTER_E4 })).toBe('Black to move');
    expect(
      format.statusText({ result: '0-1', status: 'finished', fen: START, reason_text: 'time forfeit' }),
    ).toBe('Game over: 0\u20131, time forfeit');
  });
});
