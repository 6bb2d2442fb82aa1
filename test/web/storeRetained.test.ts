/**
 * A page against a retained snapshot that is not the daemon's story (web/shared/store.js and
 * live.js, run in Node): a snapshot kept by the broker from an earlier run, or one far ahead of the
 * live events, is taken provisionally; the live stream refutes it (a live event or snapshot far
 * below its seq, a move it contradicts) and the page goes back to what the live stream says, and
 * does not take that snapshot again when it re-reads it. A snapshot or event on another game's
 * topic counts for nothing; a page served over https reads the broker over wss. The case through
 * the real broker is in test/integration/staleSnapshot.test.ts.
 */
import { describe, expect, it } from 'vitest';

interface State {
  readonly seq: number;
  readonly moves: readonly (string | null)[];
  readonly provisional?: boolean;
  readonly hasSnapshot: boolean;
  readonly white: { name: string } | null;
}
type SnapshotVerdict = 'applied' | 'stale' | 'invalid' | 'distrusted';
interface Store {
  get(game: string): State | undefined;
  applySnapshot(payload: unknown, options?: { retained?: boolean }): SnapshotVerdict;
  applyEvent(payload: unknown): string;
  subscribe(listener: (c: { game: string; needsSnapshot: boolean }) => void): () => void;
  readonly counters: Record<string, number>;
}
interface Live {
  readonly store: Store;
  handle(topic: string, text: string, retained: boolean): void;
}
const web = (path: string) => new URL(`../../web/shared/${path}`, import.meta.url).href;
const { GameStore, SEQ_SLACK } = (await import(web('store.js'))) as {
  GameStore: new () => Store;
  SEQ_SLACK: number;
};
const { LiveConnection, readSettings } = (await import(web('live.js'))) as {
  LiveConnection: new (o: object) => Live;
  readSettings: (href: string) => { transport: string; url: string };
};

const OPENING = ['e4', 'e5', 'Nf3', 'Nc6', 'Bb5', 'a6'];
const snapshot = (seq: number, moves: readonly string[], white = 'White, W', game = 'g1') => ({
  game,
  seq,
  at: 1000,
  white: { name: white },
  black: { name: 'Black, B' },
  moves,
  result: '*',
  status: 'playing',
});
const move = (seq: number, ply: number, game = 'g1') => ({
  game,
  seq,
  at: 2000 + seq,
  type: 'move',
  ply,
  san: OPENING[ply - 1] ?? 'h3',
  uci: '',
});

describe('a retained snapshot against the live stream', () => {
  it('takes one provisionally and the next live event in sequence confirms it', () => {
    const store = new GameStore();
    expect(store.applySnapshot(snapshot(2, OPENING.slice(0, 2)), { retained: true })).toBe('applied');
    expect(store.get('g1')?.provisional).toBe(true);
    expect(store.applyEvent(move(3, 3))).toBe('applied');
    expect(store.get('g1')).toMatchObject({ seq: 3, provisional: false, moves: OPENING.slice(0, 3) });
  });

  it('refutes one far ahead of the live events (seq 99999), goes back to the live story, and refuses it again', () => {
    const store = new GameStore();
    // The page follows the game live up to seq 2 ...
    store.applySnapshot(snapshot(2, OPENING.slice(0, 2)));
    // ... then (a reconnect) reads a retained snapshot far ahead with another game in it.
    expect(store.applySnapshot(snapshot(99_999, ['d4'], 'Fake, F'), { retained: true })).toBe('applied');
    expect(store.get('g1')?.white?.name).toBe('Fake, F');
    const needs: boolean[] = [];
    store.subscribe(c => needs.push(c.needsSnapshot));
    // The live stream goes on at seq 3: far below, so the fake gives way to the confirmed state.
    expect(store.applyEvent(move(3, 3))).toBe('applied');
    expect(store.get('g1')).toMatchObject({
      seq: 3,
      moves: OPENING.slice(0, 3),
      white: { name: 'White, W' },
    });
    expect(store.counters.refuted).toBe(1);
    // Re-read (a resync), the same retained snapshot is refused; the daemon's own is taken.
    expect(store.applySnapshot(snapshot(99_999, ['d4'], 'Fake, F'), { retained: true })).toBe('distrusted');
    expect(store.applySnapshot(snapshot(3, OPENING.slice(0, 3)))).toBe('applied');
    expect(store.get('g1')?.white?.name).toBe('White, W');
  });

  it('refutes a retained snapshot of an earlier run when the daemon starts the game again', () => {
    const store = new GameStore();
    // The broker kept the game of yesterday's run (seq 80); a fresh journal starts at seq 1.
    store.applySnapshot(snapshot(80, ['c4', 'e5', 'Nc3'], 'Yesterday, Y'), { retained: true });
    expect(store.applyEvent(move(1, 1))).toBe('waiting');
    expect(store.get('g1')?.hasSnapshot).toBe(false);
    // The daemon's live snapshot of the new game is taken whole; the events follow.
    expect(store.applySnapshot(snapshot(1, ['e4']))).toBe('applied');
    expect(store.applyEvent(move(2, 2))).toBe('applied');
    expect(store.get('g1')).toMatchObject({ seq: 2, moves: ['e4', 'e5'], white: { name: 'White, W' } });
    // A short game of yesterday (seq 5, within the slack): the new game's first snapshot (seq 0) wins.
    const other = new GameStore();
    other.applySnapshot(snapshot(5, ['c4', 'e5'], 'Yesterday, Y'), { retained: true });
    expect(other.applySnapshot(snapshot(0, []))).toBe('applied');
    expect(other.get('g1')).toMatchObject({ seq: 0, moves: [], white: { name: 'White, W' } });
    expect(other.applySnapshot(snapshot(5, ['c4', 'e5'], 'Yesterday, Y'), { retained: true })).toBe(
      'distrusted',
    );
  });

  it('refutes one whose moves a live event contradicts, even within the slack', () => {
    const store = new GameStore();
    store.applySnapshot(snapshot(4, ['d4', 'd5', 'c4', 'e6'], 'Fake, F'), { retained: true });
    expect(store.applyEvent(move(3, 3))).toBe('waiting');
    expect(store.get('g1')?.hasSnapshot).toBe(false);
    expect(store.counters.refuted).toBe(1);
  });

  it('ignores one older than the page’s state, and a live one that crossed an event on its way', () => {
    const store = new GameStore();
    store.applySnapshot(snapshot(3, OPENING.slice(0, 3)));
    store.applyEvent(move(4, 4));
    expect(store.applySnapshot(snapshot(2, OPENING.slice(0, 2)), { retained: true })).toBe('stale');
    expect(store.applySnapshot(snapshot(3, OPENING.slice(0, 3)))).toBe('stale');
    // A live snapshot far below a live state: the daemon started the game over.
    expect(store.applySnapshot(snapshot(4 + SEQ_SLACK + 2, OPENING))).toBe('applied');
    expect(store.applySnapshot(snapshot(1, ['e4']))).toBe('applied');
    expect(store.get('g1')?.moves).toEqual(['e4']);
  });
});

describe('the page takes a game’s state from its own topics only', () => {
  it('drops a snapshot or an event whose game is not the topic’s', () => {
    const live = new LiveConnection({ transport: 'mqtt', url: 'ws://127.0.0.1:1/mqtt', base: 'cb' });
    live.handle('cb/games/g2', JSON.stringify(snapshot(5, ['d4'], 'Fake, F', 'g1')), true);
    live.handle('cb/games/g2/events', JSON.stringify(move(1, 1, 'g1')), false);
    live.handle('other/games/g1', JSON.stringify(snapshot(5, ['d4'])), true);
    expect(live.store.get('g1')).toBeUndefined();
    live.handle('cb/games/g1', JSON.stringify(snapshot(5, ['d4'])), true);
    expect(live.store.get('g1')).toMatchObject({ seq: 5, provisional: true });
  });
});

describe('a page served over https', () => {
  it('reads the broker over wss by default, over ws when served over http', () => {
    expect(readSettings('https://hall-pc:8443/ui/display/board.html?game=r1-b1').url).toBe(
      'wss://hall-pc:9001/mqtt',
    );
    expect(readSettings('http://hall-pc:8080/ui/display/board.html').url).toBe('ws://hall-pc:9001/mqtt');
  });
});
