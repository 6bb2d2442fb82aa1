import { describe, expect, it } from 'vitest';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import {
  nextWakeAt,
  replayGameRun,
  startGameRun,
  stepGameRun,
  type GameRun,
} from '../../../src/bridge/game/gameRun.js';
import type { GameEvent, GameSettings } from '../../../src/engine/events.js';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { observationsOfGame, recordsOf } from './support.js';

// A short real game (the Opera game's first 16 plies): captures, castling, checks.
const OPERA = [
  'e4',
  'e5',
  'Nf3',
  'd6',
  'd4',
  'Bg4',
  'dxe5',
  'Bxf3',
  'Qxf3',
  'dxe5',
  'Bc4',
  'Nf6',
  'Qb3',
  'Qe7',
  'Nc3',
  'c6',
];
const settings: GameSettings = {
  game: 'g1',
  edition: 'E23',
  gameType: 'blitz',
  supervision: 'full',
  timeControl: '300+0',
};
const engine = engineSupervisor();

/** Live: records arrive one by one; between them, the wake timer fires whenever a tick is due. */
const live = (records: ReturnType<typeof recordsOf>, tail: number) => {
  let run: GameRun = startGameRun(engine, settings, { clock: false }).run;
  const events: GameEvent[] = [];
  for (const record of records) {
    const at =
      record.type === 'observation' ? record.observation.at : record.type === 'command' ? record.at : 0;
    for (let due = nextWakeAt(run); due !== undefined && due < at; due = nextWakeAt(run)) {
      const r = stepGameRun(engine, run, { kind: 'wake', at: due });
      run = r.run;
      events.push(...r.events);
    }
    const r = stepGameRun(engine, run, { kind: 'record', record });
    run = r.run;
    events.push(...r.events);
  }
  for (let due = nextWakeAt(run); due !== undefined && due <= tail; due = nextWakeAt(run)) {
    const r = stepGameRun(engine, run, { kind: 'wake', at: due });
    run = r.run;
    events.push(...r.events);
  }
  return { run, events };
};

describe('the game reducer over journal records', () => {
  const observations = observationsOfGame(OPERA, { seed: 5, t0: 1_700_000_000_000 });
  const records = recordsOf(observations);
  const end = (observations.at(-1)?.at ?? 0) + 3000;

  it('recognises every move of a game played with human handling, in order, with seq 1, 2, 3, …', () => {
    const { events } = live(records, end);
    expect(events.map(e => e.seq)).toEqual(events.map((_, i) => i + 1));
    // Moves published while a piece rests on its way may be revised before they are final.
    expect(publishedSans(events)).toEqual(OPERA);
    expect(events.filter(e => e.type === 'correction' && e.reason !== 'revision')).toEqual([]);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
    // The clock: started by the first reading, then one reading per press.
    expect(events.filter(e => e.type === 'clock').length).toBeGreaterThan(OPERA.length / 2);
  });

  it('gives the same events with the same seq when the journal is replayed (ticks are derived, not journaled)', () => {
    const liveRun = live(records, end);
    // A restart after the last record: the replay, then the wakes the restarted timer fires.
    const replayed = replayGameRun(engine, settings, { clock: false }, records);
    let run = replayed.run;
    const events = [...replayed.events];
    for (let due = nextWakeAt(run); due !== undefined && due <= end; due = nextWakeAt(run)) {
      const r = stepGameRun(engine, run, { kind: 'wake', at: due });
      run = r.run;
      events.push(...r.events);
    }
    expect(events).toEqual(liveRun.events);
    expect(run.seq).toBe(liveRun.run.seq);
  });

  it('replays a prefix exactly: a crash after any record resumes with the events published so far', () => {
    const full = live(records, end).events;
    for (const cut of [5, 20, 41, records.length - 3]) {
      const prefix = replayGameRun(engine, settings, { clock: false }, records.slice(0, cut));
      expect(prefix.events).toEqual(full.slice(0, prefix.events.length));
    }
  });

  it('stops ticking once the game has ended, and ignores records after the finish', () => {
    const finish = {
      seq: records.length + 1,
      wall: 0,
      type: 'finish' as const,
      at: end,
      result: '*',
      reason: 'stopped',
    };
    const r = replayGameRun(engine, settings, { clock: false }, [...records, finish]);
    expect(r.run.ended).toBe(true);
    expect(nextWakeAt(r.run)).toBeUndefined();
  });
  it('on a board without a clock, the time control alone never ends the game by flag nor times its moves', () => {
    // The hall's time control is 5 min; the board reports squares only (no clock, no press). The
    // daemon's clock model used to run White's time down from the first move and end the game
    // 0-1 "on time" after five minutes; the moves carried its made-up times.
    const squaresOnly = recordsOf(observations.filter(o => o.type !== 'clock')).map(r =>
      r.type === 'command' ? { ...r, params: { board: 'b1', clock: false, driver: 'dgt' } } : r,
    );
    const { events } = live(squaresOnly, end + 20 * 60_000);
    expect(publishedSans(events)).toEqual(OPERA);
    expect(events.filter(e => e.type === 'end' || e.type === 'alert')).toEqual([]);
    expect(events.some(e => e.type === 'move' && e.clocks !== undefined)).toBe(false);
  });
});
