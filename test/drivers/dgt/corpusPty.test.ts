/**
 * Acceptance point 2 of the DGT driver, end to end over socat PTYs: the board emulator plays 100
 * corpus games as people handle pieces (the engine's seeded handling generator), on a real
 * pseudo-terminal pair, read back through the real SerialTransport and the DGT session into the
 * recogniser, which must give back exactly the original moves, with nothing false reported. Clock
 * presses go through the emulated DGT3000 and come back as lever changes. In ten games the PTY
 * pair is killed mid-game (an unplugged cable) while a move is made, and started again; no move
 * is lost. Then twelve boards share one bus line, each playing a corpus game, polled by the bus
 * session, with the line unplugged for a while as the games go on.
 *
 * How time is kept exact while the games run a few hundred times faster than real play, and
 * what is seen of an outage, is described in ptyCorpusKit.ts.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { closeAllPtyPairs } from '../../support/pty.js';
import { corpusSample } from '../transport/recognitionRig.js';
import { type BusGame, playBusOnPty } from './ptyCorpusBus.js';
import { handlingFor, playOnPty, type PtyGameResult, type Unplug } from './ptyCorpusRig.js';

/** Script ms per real ms, at most: a 60-move classical game then takes about a second. */
const SPEED = 400;
/** PTY pairs in use at once. */
const LANES = 8;

afterAll(closeAllPtyPairs);

/** Runs `work` over `items`, `lanes` at a time, keeping the order of the results. */
const inLanes = async <T, R>(
  items: readonly T[],
  lanes: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return results;
};

describe('DGT: 100 corpus games over socat PTY pairs, the serial transport, the session and the recogniser', () => {
  const games = corpusSample(100).map((g, i) => ({ ...g, seed: 500 + i }));
  // Ten games played with a clock have their cable pulled in the middle of the game, for one ply:
  // five while the mover holds a lifted piece, five while he is still thinking.
  const withClock = games.filter(g => g.game.length >= 30 && handlingFor(g.game, g.seed).clock === 'press');
  const unplugged = new Map<string, Unplug>(
    withClock
      .filter((_, k) => k % Math.floor(withClock.length / 10) === 0)
      .slice(0, 10)
      .map((g, k) => [
        g.label,
        { ply: Math.floor(g.game.length / 2), plies: 1, when: k % 2 === 0 ? 'mid-move' : 'thinking' },
      ]),
  );

  it('every game comes back with exactly its moves, also with the cable pulled mid-game', async () => {
    expect(games).toHaveLength(100);
    expect(unplugged.size).toBe(10);
    const runs = await inLanes(games, LANES, async g => {
      const unplug = unplugged.get(g.label);
      const r = await playOnPty(g.game, {
        seed: g.seed,
        speed: SPEED,
        ...(unplug === undefined ? {} : { unplug }),
      });
      return { ...g, unplug, r };
    });

    const failures = runs.flatMap(({ label, r }) => r.problems.slice(0, 2).map(p => `${label}: ${p}`));
    expect(failures).toEqual([]);
    for (const { label, r } of runs.filter(x => x.unplug === undefined)) {
      // Nothing lost on the way: every field update and every lever press arrived, one connection.
      expect([r.squares, r.presses, r.links], label).toEqual([
        r.squareEvents,
        r.pressEvents,
        ['resynchronising', 'connected'],
      ]);
    }
    for (const { label, unplug, r } of runs) {
      if (unplug === undefined) continue;
      const o: PtyGameResult['outage'] = r.outage;
      // The move (all of it, or all but the lift) and its press were made while the cable was
      // out; the fresh dump on reconnection showed the move made; the opponent went on at once.
      expect(o?.plies, label).toEqual([unplug.ply]);
      expect(o?.pressesUnseen, label).toBe(1);
      expect(o?.dumpShowsPly, label).toBe(unplug.ply);
      expect(o?.squaresUnseen, label).toBeGreaterThanOrEqual(unplug.when === 'thinking' ? 2 : 1);
      expect(r.squares, label).toBe(r.squareEvents - (o?.squaresUnseen ?? 0));
      expect(r.presses, label).toBe(r.pressEvents - 1);
      expect(r.links.slice(0, 3), label).toEqual(['resynchronising', 'connected', 'lost']);
      expect(r.links.at(-1), label).toBe('connected');
    }
    const plies = runs.reduce((n, { r }) => n + r.plies, 0);
    expect(plies).toBeGreaterThan(8000);
    expect(runs.reduce((n, { r }) => n + r.presses, 0)).toBeGreaterThan(6000);
  }, 300_000);
});

describe('DGT bus: twelve boards on one PTY line, each playing a corpus game', () => {
  it('every board’s game comes back exactly, with the line unplugged for 2.5 s as play goes on', async () => {
    const sample = corpusSample(100);
    const games: BusGame[] = Array.from({ length: 12 }, (_, i) => ({
      game: sample[i * 8 + 3]!.game,
      seed: 900 + i,
    }));
    const boards = await playBusOnPty(games, { speed: SPEED, unplug: { atMs: 60_000, forMs: 2500 } });

    expect(boards.flatMap(b => b.problems.slice(0, 2).map(p => `board ${b.address}: ${p}`))).toEqual([]);
    for (const b of boards) {
      // The boards keep their change lists while the line is out: not one change is lost.
      expect(b.squares, `board ${b.address}`).toBe(b.squareEvents);
      expect(b.links.slice(0, 3), `board ${b.address}`).toEqual(['resynchronising', 'connected', 'lost']);
      expect(b.links.at(-1), `board ${b.address}`).toBe('connected');
    }
    // Play went on at most boards while the line was out, presses unseen at some of them.
    expect(boards.filter(b => b.madeUnplugged > 0).length).toBeGreaterThanOrEqual(6);
    expect(Math.max(...boards.map(b => b.pressesUnplugged))).toBeGreaterThanOrEqual(1);
    expect(boards.reduce((n, b) => n + b.plies, 0)).toBeGreaterThan(1000);
  }, 300_000);
});
