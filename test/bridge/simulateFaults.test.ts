/**
 * `chessbridge simulate --faults`: what the emulated boards play is what the players do (a lost
 * link's moves are made on the board while its cable is out, so the board shows them when the
 * daemon reads it again; a spoken j'adoube, which no board can pass on, is not played), the
 * record lists the faults actually injected, and, end to end (the simulator and a daemon as child
 * processes, socat PTYs, mosquitto), every injected fault draws exactly the alerts
 * docs/simulate.md promises for its kind, and nothing else: one illegal move is one illegal move
 * (not a second one, which under Art. 7.5.5 would lose the game), and the game goes on to the end
 * the simulator played, with the moves of the PGN.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { GameLibrary, type SimGame } from '../../src/bridge/simulate/games.js';
import { gameScript } from '../../src/bridge/simulate/script.js';
import type { SimRecord } from '../../src/bridge/simulate/venue.js';
import { getProfile } from '../../src/engine/editions.js';
import { deriveSeed } from '../../src/engine/handling/index.js';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { sharedPath } from '../support/shared.js';
import {
  exited,
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startSimulator,
  subscribe,
  waitFor,
  type Subscriber,
  type WireEvent,
} from '../integration/support.js';

const PGN = sharedPath('data/pgn/lichess-2013-01-sample.pgn');
const RAPID = { ms: 15 * 60_000, incrementMs: 10_000 };
/** With this seed both boards' games get all four kinds of fault (the first ends in checkmate). */
const SEED = 7;

/** What each kind of fault draws on the wire (code and article), as docs/simulate.md lists it. */
const PROMISED: Record<string, { required: readonly string[]; optional: readonly string[] }> = {
  // Pressed within the quiet time: the press judges the board, no alert before it.
  illegalMove: { required: ['illegal_move 7.5.1'], optional: ['illegal_position 7.5.1'] },
  touchMove: { required: ['touch_move 4.3.1'], optional: ['touch_move 4.8'] },
  missedUpdate: { required: ['board_missing 6.11.2'], optional: [] },
  takeback: { required: ['correction takeback', 'board_mismatch 7.6'], optional: [] },
};

const library = new GameLibrary(decodePgnBytes(readFileSync(PGN)), getProfile('E23', 'rapid'));
const gameAt = (i: number): SimGame => library.playableFrom(i) as SimGame;

describe('what the simulator plays for a fault', () => {
  it('makes the moves of a lost link on the board while the cable is out', () => {
    let lostLinks = 0;
    for (let seed = 1; seed <= 12; seed++) {
      for (const i of [0, 1]) {
        const g = gameAt(i);
        const script = gameScript(g, {
          seed: deriveSeed(seed, i),
          speed: 10,
          pace: { kind: 'human' },
          faults: 4,
          clock: RAPID,
        });
        const cut = script.steps.find(
          (s): s is Extract<ScriptStep, { kind: 'disconnect' }> => s.kind === 'disconnect',
        );
        expect(cut !== undefined, `seed ${seed} game ${i}`).toBe(script.faults.includes('missedUpdate'));
        if (cut === undefined) continue;
        lostLinks++;
        const during = script.steps.filter(s => s.at >= cut.at && s.at <= cut.at + cut.forMs);
        // Two moves: each at least a lift and a put, and the presses.
        expect(during.filter(s => s.kind === 'square').length).toBeGreaterThanOrEqual(4);
        expect(during.filter(s => s.kind === 'clock-press')).toHaveLength(2);
      }
    }
    expect(lostLinks).toBeGreaterThan(10);
  });

  it('lists in the record only the faults a game could take', () => {
    // A 25-ply game has room for some kinds only when they are spread out; what is listed was played.
    const counts = new Map<string, number>();
    for (let seed = 1; seed <= 30; seed++) {
      const g = gameAt(0);
      const script = gameScript(g, { seed, speed: 1, pace: { kind: 'human' }, faults: 4, clock: RAPID });
      const disconnects = script.steps.filter(s => s.kind === 'disconnect').length;
      expect(disconnects, `seed ${seed}`).toBe(script.faults.includes('missedUpdate') ? 1 : 0);
      for (const f of script.faults) counts.set(f, (counts.get(f) ?? 0) + 1);
    }
    expect(Math.min(...counts.values())).toBeGreaterThan(0);
    expect([...counts.values()].some(n => n < 30)).toBe(true);
  });
});

/** An event as the comparison sees it: alerts by code and article, corrections by reason. */
const digest = (
  e: WireEvent & { readonly article?: string; readonly reason?: string },
): string | undefined => {
  if (e.type === 'alert') return `${e.code} ${e.article}`;
  if (e.type === 'correction' && e.reason !== 'revision') return `correction ${e.reason}`;
  return undefined;
};

describe('chessbridge simulate --faults against a daemon and mosquitto', () => {
  let broker: Mosquitto | undefined;
  let sub: Subscriber | undefined;
  let simulator: ChildProcess | undefined;
  let dir: string | undefined;

  afterAll(async () => {
    simulator?.kill('SIGINT');
    if (simulator !== undefined) await exited(simulator);
    await killAllDaemons();
    await sub?.close();
    await broker?.stop();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it('every injected fault draws its alerts and nothing else; the games go on to their end', async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-simulate-faults-'));
    broker = await startMosquitto();
    sub = await subscribe(broker.url, ['chessbridge/games/+/events'], 'simulate-faults-sub');
    const config = join(dir, 'venue.yaml');
    const record = join(dir, 'record.jsonl');
    const sim = startSimulator([
      '--boards',
      '2',
      '--games',
      PGN,
      '--rounds',
      '1',
      '--speed',
      '10',
      '--faults',
      '4',
      '--seed',
      String(SEED),
      '--once',
      '--dir',
      join(dir, 'lines'),
      '--config-out',
      config,
      '--mqtt',
      broker.url,
      '--record',
      record,
    ]);
    simulator = sim.child;
    await waitFor(() => sim.output().includes('start a daemon'), 30_000, `the simulator (${sim.output()})`);
    const daemon = startDaemon(config);

    expect(await exited(sim.child)).toBe(0);
    const games = ['r1-b1', 'r1-b2'];
    const arrivals = (): Map<string, WireEvent[]> => sub?.firstArrivals() ?? new Map<string, WireEvent[]>();
    await waitFor(
      () => games.every(g => (arrivals().get(g) ?? []).some(e => e.type === 'end')),
      20_000,
      `every game's end (daemon: ${daemon.output().slice(-1500)})`,
    );
    expect(await daemon.stop()).toBe(0);

    const records = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map(l => JSON.parse(l) as SimRecord)
      .flatMap(r => (r.type === 'game' ? [r] : []));
    let kinds = 0;
    for (const [i, game] of games.entries()) {
      const played = records.find(r => r.game === game);
      const want = gameAt(i);
      expect(played, game).toMatchObject({ sans: want.sans, ending: want.ending.kind });
      // All four kinds were injected (the seed is chosen for it).
      expect([...(played?.faults ?? [])].sort(), game).toEqual([
        'illegalMove',
        'missedUpdate',
        'takeback',
        'touchMove',
      ]);
      const events = arrivals().get(game) ?? [];
      const got = events.map(digest).filter((d): d is string => d !== undefined);
      const problems: string[] = [];
      for (const kind of played?.faults ?? []) {
        kinds++;
        const promise = PROMISED[kind];
        expect(promise, kind).toBeDefined();
        for (const r of promise?.required ?? []) {
          const k = got.indexOf(r);
          if (k >= 0) got.splice(k, 1);
          else problems.push(`${kind}: missing ${r}`);
        }
        for (const r of promise?.optional ?? []) {
          const k = got.indexOf(r);
          if (k >= 0) got.splice(k, 1);
        }
      }
      for (const extra of got) problems.push(`unexpected ${extra}`);
      expect(problems, `${game} (daemon: ${daemon.output().slice(-3000)})`).toEqual([]);
      // One illegal move, counted once: the game is not lost by it and ends as played.
      expect(
        events.filter(e => e.code === 'illegal_move'),
        game,
      ).toHaveLength(1);
      expect(movesFromEvents(events), game).toEqual(want.sans);
      expect(
        events.find(e => e.type === 'end'),
        game,
      ).toMatchObject({
        result: want.ending.result,
        reason: want.ending.kind === 'rules' ? 'checkmate' : 'gesture',
      });
    }
    expect(kinds).toBe(8);
  }, 180_000);
});
