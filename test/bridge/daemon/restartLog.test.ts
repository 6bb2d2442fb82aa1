/**
 * A daemon killed mid-game and restarted a minute later, a DGT board with its move log: the resumed
 * game journals first that the daemon stopped watching at its last record (`restartEntry`), so the
 * board's log is replayed over the whole gap, not squeezed into the instant before the dump.
 *
 * Seen in the downtime benchmark (60 s, 20 boards): the restarted daemon's clock ticks (one a
 * second while a timed game runs) moved its time on before the board was back; the log's records,
 * replayed a millisecond apart, read a captured piece lifted and the capturer set down on its
 * square as a flicker, and the exchange played while the daemon was down was lost. A restart is
 * also no board-missing alert: the board was there all along.
 */
import { Chess } from 'chessops';
import { describe, expect, it } from 'vitest';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { restartEntry } from '../../../src/bridge/daemon/games.js';
import { nextWakeAt, replayGameRun, stepGameRun, type GameRun } from '../../../src/bridge/game/gameRun.js';
import type { JournalRecord } from '../../../src/bridge/journal/index.js';
import { squaresOf } from '../../../src/drivers/dgt/emulatorScript.js';
import type { LogRecord, Observation } from '../../../src/drivers/observation.js';
import type { GameEvent, GameSettings } from '../../../src/engine/events.js';
import { movesOf, observationsOfGame, recordsOf } from '../game/support.js';

const settings: GameSettings = {
  game: 'r1-b7',
  edition: 'E23',
  gameType: 'rapid',
  supervision: 'full',
  timeControl: '15+10',
};
const engine = engineSupervisor();

const BEFORE_KILL = ['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'c3', 'Nf6', 'd3', 'd5'];
// An exchange and two castlings while the daemon is down.
const WHILE_DOWN = ['exd5', 'Nxd5', 'O-O', 'O-O'];
const ALL = [...BEFORE_KILL, ...WHILE_DOWN];

const isPress = (o: Observation, prev: Observation | undefined): boolean =>
  o.type === 'clock' && prev?.type === 'clock' && o.running !== prev.running;

/** The board's log of the whole game: a power-up, the pieces set up, every change and press. */
const boardLog = (observations: readonly Observation[]): LogRecord[] => {
  const records: LogRecord[] = [{ kind: 'tag', tag: 'power-up' }];
  squaresOf(Chess.default()).forEach((content, square) => {
    if (content.kind !== 'empty') records.push({ kind: 'piece', square, content, quick: false });
  });
  let clock: Observation | undefined;
  for (const o of observations) {
    if (o.type === 'square')
      records.push({ kind: 'piece', square: o.square, content: o.content, quick: false });
    if (o.type !== 'clock') continue;
    // White sits left: a press stops the presser's clock (White's on the left).
    if (isPress(o, clock))
      records.push({ kind: 'time', side: o.running === 'right' ? 'left' : 'right', ms: 0 });
    clock = o;
  }
  return records;
};

interface Gap {
  readonly before: JournalRecord[];
  readonly restart: Observation[];
  readonly restartAt: number;
}

/** The journal up to the kill and what the board says when the daemon is back `downMs` later. */
const gap = (downMs: number, midMove = 0): Gap => {
  const all = observationsOfGame(ALL, { seed: 11, t0: 1_796_193_900_000, clockMs: 900_000 });
  // The kill: `midMove` board events after the press that ends the last ply before it.
  let presses = 0;
  let clock: Observation | undefined;
  const pressed = all.findIndex(o => {
    const press = isPress(o, clock);
    if (o.type === 'clock') clock = o;
    return press && (presses += 1) === BEFORE_KILL.length;
  });
  const cut = pressed + 1 + midMove;
  const killedAt = (all[cut - 1]?.at ?? 0) + 50;
  const t = killedAt + downMs;
  const final = Chess.default();
  for (const m of movesOf(ALL)) final.play(m);
  const restart: Observation[] = [
    { type: 'link', at: t, state: 'resynchronising', detail: 'attempt 1' },
    { type: 'identity', at: t + 60, vendor: 'DGT', firmware: '3.10' },
    { type: 'eeprom-log', at: t + 150, source: 'dump', records: boardLog(all) },
    { type: 'snapshot', at: t + 250, squares: squaresOf(final) },
    { type: 'link', at: t + 250, state: 'connected', detail: 'attempt 1' },
  ];
  return { before: recordsOf(all.slice(0, cut), 'sim-7'), restart, restartAt: t };
};

/** Restored from the journal, then live: the restart record, the wakes until the board is back, its records. */
const resumed = (g: Gap): GameEvent[] => {
  const restored = replayGameRun(engine, settings, { clock: false }, g.before);
  let r: GameRun = restored.run;
  const events: GameEvent[] = [];
  let seq = g.before.length;
  const step = (record: JournalRecord): void => {
    const s = stepGameRun(engine, r, { kind: 'record', record });
    r = s.run;
    events.push(...s.events);
  };
  const entry = restartEntry(r, 'sim-7');
  if (entry !== undefined) step({ seq: (seq += 1), wall: 0, ...entry });
  const wakeUntil = (until: number): void => {
    for (let due = nextWakeAt(r); due !== undefined && due < until; due = nextWakeAt(r)) {
      const s = stepGameRun(engine, r, { kind: 'wake', at: due });
      r = s.run;
      events.push(...s.events);
    }
  };
  // The restarted daemon's timers fire (the clock runs) before the board is back.
  wakeUntil(g.restartAt);
  for (const observation of g.restart) {
    wakeUntil(observation.at);
    step({ seq: (seq += 1), wall: 0, type: 'observation', board: 'sim-7', observation });
  }
  wakeUntil(g.restartAt + 5000);
  return [...restored.events, ...events];
};

const movesPublished = (events: readonly GameEvent[]): string[] => {
  const moves: string[] = [];
  for (const e of events) {
    if (e.type === 'move') moves[e.ply - 1] = e.san;
    if (e.type === 'correction') moves.splice(e.fromPly - 1, Infinity, ...e.moves.map(m => m.san));
  }
  return moves;
};

describe('a game resumed after a restart, the board’s log read when it is back', () => {
  // The kill just after a press, or while the next move is being made (a piece in the air).
  for (const downMs of [5_000, 15_000, 60_000])
    for (const midMove of [0, 1, 2, 3])
      it(`publishes the plies made in ${downMs / 1000} s down as played, with no alert (killed ${midMove} board events into a move)`, () => {
        const g = gap(downMs, midMove);
        const events = resumed(g);
        expect(movesPublished(events)).toEqual(ALL);
        expect(events.flatMap(e => (e.type === 'alert' ? [e.code] : []))).toEqual([]);
        expect(events.some(e => e.type === 'end')).toBe(false);
        // Replayed over the gap, from when the board was last seen: not all at the instant it is back.
        const recovered = events.filter(e => e.type === 'move' && e.ply > BEFORE_KILL.length);
        expect(recovered.map(e => e.type === 'move' && e.ply)).toEqual([11, 12, 13, 14]);
        expect(recovered[0]?.at ?? Infinity).toBeLessThan(g.restartAt - downMs / 2);
      });

  it('journals the restart as a lost link at the last record, and nothing for a game that is over', () => {
    const g = gap(60_000);
    const { run } = replayGameRun(engine, settings, { clock: false }, g.before);
    const last = g.before.at(-1);
    const lastAt = last?.type === 'observation' ? last.observation.at : undefined;
    expect(restartEntry(run, 'sim-7')).toMatchObject({
      type: 'observation',
      board: 'sim-7',
      observation: { type: 'link', state: 'lost', restart: true, at: lastAt },
    });
    expect(restartEntry({ ...run, ended: true }, 'sim-7')).toBeUndefined();
  });
});
