/**
 * A second game on a board, through the game reducer and the real supervisor: the previous game
 * ended with Black to move, so its clock still runs on Black's side when this game's journal
 * begins. Every press must still be charged to the player who made it (no false "press without a
 * move", Art. 7.5.3), and a replay of the journal (a restarted daemon) learns the same.
 */
import { describe, expect, it } from 'vitest';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { replayGameRun, startGameRun, stepGameRun } from '../../../src/bridge/game/gameRun.js';
import type { JournalRecord } from '../../../src/bridge/journal/index.js';
import { START_SQUARES, type ClockSide, type Observation } from '../../../src/drivers/observation.js';
import type { GameEvent, GameSettings } from '../../../src/engine/events.js';
import { face, observationsOfGame, recordsOf } from './support.js';

const SANS = ['d4', 'd5', 'c4', 'e6', 'Nc3', 'Nf6', 'Bg5', 'Be7', 'e3'];
const settings: GameSettings = {
  game: 'r2-b1',
  edition: 'E23',
  gameType: 'blitz',
  supervision: 'full',
  timeControl: '300+0',
};
const engine = engineSupervisor();
const T0 = 1_700_000_000_000;

const reading = (at: number, running: ClockSide | undefined, left: number, right: number): Observation => ({
  type: 'clock',
  at,
  connected: true,
  left: face(left),
  right: face(right),
  running,
  lever: running ?? 'right',
  batteryLow: false,
  status: 0,
});

/** Game 2's journal: the start position, the previous game's clock, the clock set, then play (White on the left). */
const journal = (): JournalRecord[] => {
  const before: Observation[] = [
    { type: 'snapshot', at: T0 - 5000, squares: START_SQUARES },
    reading(T0 - 4000, 'right', 61_000, 12_000),
    reading(T0 - 3000, 'right', 61_000, 11_000),
    reading(T0 - 1000, undefined, 300_000, 300_000), // set: stopped
  ];
  return recordsOf([...before, ...observationsOfGame(SANS, { seed: 11, t0: T0 })]);
};

const live = (records: readonly JournalRecord[]): GameEvent[] => {
  let run = startGameRun(engine, settings, { clock: false }).run;
  const events: GameEvent[] = [];
  for (const record of records) {
    const r = stepGameRun(engine, run, { kind: 'record', record });
    run = r.run;
    events.push(...r.events);
  }
  return events;
};

describe('a game started while the previous game’s clock still runs on Black’s side', () => {
  it('charges every press to the player who made it: the moves, no alert, the clock of the side to move', () => {
    const records = journal();
    const events = live(records);
    expect(publishedSans(events)).toEqual(SANS);
    expect(events.filter(e => e.type === 'alert')).toEqual([]);
    // The clock as published: White's time runs first, then each press hands over to the opponent.
    const running = events.flatMap(e => (e.type === 'clock' && e.running !== undefined ? [e.running] : []));
    expect(running[0]).toBe('white');
    expect(running.at(-1)).toBe('black'); // White pressed after his last move, e3
  });

  it('learns the same from the journal replayed (a daemon started again)', () => {
    const records = journal();
    const replayed = replayGameRun(engine, settings, { clock: false }, records);
    expect(replayed.run.map.whiteSide).toBe('left');
    expect(replayed.events).toEqual(live(records));
  });
});
