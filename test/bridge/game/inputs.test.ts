import { describe, expect, it } from 'vitest';
import { mapObservation, startInputMap, type InputMapState } from '../../../src/bridge/game/inputs.js';
import { START_SQUARES, type ClockSide, type Observation } from '../../../src/drivers/observation.js';
import type { SupervisorInput } from '../../../src/engine/events.js';
import { face } from './support.js';

const reading = (
  at: number,
  lever: ClockSide,
  running: ClockSide | undefined,
  left = 60_000,
  right = 60_000,
): Observation => ({
  type: 'clock',
  at,
  connected: true,
  left: face(left),
  right: face(right),
  running,
  lever,
  batteryLow: false,
  status: 0,
});

const feed = (
  state: InputMapState,
  observations: readonly Observation[],
): { state: InputMapState; inputs: SupervisorInput[] } => {
  const inputs: SupervisorInput[] = [];
  let st = state;
  for (const o of observations) {
    const r = mapObservation(st, o);
    st = r.state;
    inputs.push(...r.inputs);
  }
  return { state: st, inputs };
};

describe('observations to supervisor inputs', () => {
  it('maps square contents to what the sensors saw (a DGT result piece counts as occupied)', () => {
    const { inputs } = feed(startInputMap({ clock: false }), [
      { type: 'square', at: 1, square: 12, content: { kind: 'empty' } },
      { type: 'square', at: 2, square: 28, content: { kind: 'piece', color: 'white', role: 'pawn' } },
      { type: 'square', at: 3, square: 35, content: { kind: 'result-piece', result: '1-0' } },
      { type: 'square', at: 4, square: 36, content: { kind: 'occupied' } },
    ]);
    expect(inputs).toEqual([
      { kind: 'square', at: 1, square: 12, piece: 'empty' },
      { kind: 'square', at: 2, square: 28, piece: { color: 'white', role: 'pawn' } },
      { kind: 'square', at: 3, square: 35, piece: 'occupied' },
      { kind: 'square', at: 4, square: 36, piece: 'occupied' },
    ]);
  });

  it('learns where White sits from the first running clock, and reads a lever going over as a press', () => {
    // Reference §6.2: the high side of the lever is the side whose clock runs.
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      reading(0, 'right', undefined, 0, 0), // an unset clock: no reading, no press
      reading(10, 'right', 'right'), // White's clock starts: White sits on the right
      reading(20, 'left', 'left', 60_000, 59_000), // White pressed
      reading(30, 'right', 'right', 58_000, 59_000), // Black pressed
    ]);
    expect(state.whiteSide).toBe('right');
    expect(inputs).toEqual([
      { kind: 'clock', at: 10, whiteMs: 60_000, blackMs: 60_000, running: 'white' },
      { kind: 'press', at: 20, side: 'white' },
      { kind: 'clock', at: 20, whiteMs: 59_000, blackMs: 60_000, running: 'black' },
      { kind: 'press', at: 30, side: 'black' },
      { kind: 'clock', at: 30, whiteMs: 59_000, blackMs: 58_000, running: 'white' },
    ]);
  });

  it('a reading made from a logged press passes its press and side on, and none of the times it does not know', () => {
    // A bus board polled slowly: the clock was stopped and unset; the game started and White's
    // e2-e4 and press came in one change list (the start and the press made from its log).
    const made = (o: Observation, timeUnknown: ClockSide | 'both'): Observation => ({
      ...(o as Extract<Observation, { type: 'clock' }>),
      timeUnknown,
    });
    const { state, inputs } = feed(startInputMap({ clock: true }), [
      { type: 'snapshot', at: 0, squares: START_SQUARES },
      reading(0, 'left', undefined, 0, 0),
      made(reading(3000, 'left', 'left', 0, 0), 'both'),
      { type: 'square', at: 3000, square: 12, content: { kind: 'empty' } },
      { type: 'square', at: 3000, square: 28, content: { kind: 'piece', color: 'white', role: 'pawn' } },
      made(reading(3000, 'right', 'right', 898_000, 0), 'right'),
      reading(3020, 'right', 'right', 898_000, 899_000),
    ]);
    expect(state.whiteSide).toBe('left');
    expect(inputs.filter(i => i.kind === 'press' || i.kind === 'clock')).toEqual([
      { kind: 'press', at: 3000, side: 'white' },
      { kind: 'clock', at: 3020, whiteMs: 898_000, blackMs: 899_000, running: 'black' },
    ]);
  });

  it('ignores clock messages of a board without a clock, and of a clock that is unplugged', () => {
    expect(
      feed(startInputMap({ clock: false }), [reading(1, 'left', 'left'), reading(2, 'right', 'right')])
        .inputs,
    ).toEqual([]);
    const unplugged: Observation = {
      ...(reading(3, 'left', 'left') as Extract<Observation, { type: 'clock' }>),
      connected: false,
    };
    expect(feed(startInputMap({ clock: true }), [unplugged]).inputs).toEqual([]);
  });

  it('reports a lost link once, and the link back before the first snapshot after it; a press while away is not invented', () => {
    const snapshot: Observation = { type: 'snapshot', at: 50, squares: START_SQUARES };
    const { inputs } = feed(startInputMap({ clock: true, whiteSide: 'left' }), [
      reading(0, 'left', undefined), // set, then started: the clock is the game's
      reading(1, 'left', 'left'),
      { type: 'link', at: 10, state: 'lost', detail: 'no bytes' },
      { type: 'link', at: 20, state: 'lost' },
      { type: 'link', at: 30, state: 'resynchronising' },
      snapshot,
      { type: 'link', at: 51, state: 'connected' },
      reading(60, 'right', 'right'), // the lever went over while the cable was out: not a press we saw
    ]);
    expect(inputs.map(i => `${i.kind}${i.kind === 'link' ? `:${i.state}` : ''}@${i.at}`)).toEqual([
      'clock@1',
      'link:lost@10',
      'link:back@50',
      'snapshot@50',
      'clock@60',
    ]);
  });

  it('passes on no field update and no press from a new connection until its first snapshot (a restart has no `lost`)', () => {
    const { inputs } = feed(startInputMap({ clock: true, whiteSide: 'left' }), [
      reading(0, 'left', undefined), // set, then started: the clock is the game's
      reading(1, 'left', 'left'),
      { type: 'square', at: 5, square: 12, content: { kind: 'empty' } },
      { type: 'link', at: 10, state: 'resynchronising', detail: 'attempt 1' },
      reading(20, 'right', 'right'), // the lever went over while nobody listened: not a press we saw
      { type: 'square', at: 30, square: 51, content: { kind: 'empty' } },
      reading(40, 'left', 'left'), // a press before the dump: unseen too
      { type: 'snapshot', at: 50, squares: START_SQUARES },
      { type: 'link', at: 51, state: 'connected' },
      { type: 'square', at: 60, square: 12, content: { kind: 'empty' } },
      reading(70, 'right', 'right'),
    ]);
    expect(inputs.map(i => `${i.kind}${i.kind === 'link' ? `:${i.state}` : ''}@${i.at}`)).toEqual([
      'clock@1',
      'square@5',
      'clock@20',
      'clock@40',
      'snapshot@50',
      'square@60',
      'press@70',
      'clock@70',
    ]);
  });

  it('gives nothing for identity, battery, protocol errors and clock acks', () => {
    const { inputs } = feed(startInputMap({ clock: true }), [
      { type: 'identity', at: 1, vendor: 'DGT', serial: '01025' },
      { type: 'battery', at: 2, percent: 80, charging: false, minutesLeft: undefined, raw: [] },
      { type: 'protocol-error', at: 3, reason: { kind: 'garbage' }, hex: '7F', count: 1 },
      {
        type: 'clock-ack',
        at: 4,
        ack: [0x10, 0x0c, 0, 0],
        ok: true,
        event: { kind: 'reply', command: 0x0c },
      },
    ]);
    expect(inputs).toEqual([]);
  });
});
