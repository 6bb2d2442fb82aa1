/**
 * Fault (iv): garbage on the serial lines mid-game, from the emulator's fault injection: bursts
 * of random bytes between moves, a truncated field update with a bad length, bytes that look like
 * the start of a message, and every later write cut into random pieces. The decoder resynchronises
 * on the next message and reports protocol errors; no move is lost and none is invented (figures
 * in test-artifacts/faults/garbage-bytes.json).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { movesFromEvents, stepsOf, waitFor } from '../integration/support.js';
import { type FaultRig, movesLost, reportFault, startFaultRig, totalExtra, totalLost } from './support.js';

const SPEED = 8;
const BASE = 'fault4';
const CLIENT = 'fault4';

/** A game's steps with a garbage fault after every fourth clock press (and writes split from the first). */
const withGarbage = (steps: readonly ScriptStep[]): { steps: ScriptStep[]; bursts: number } => {
  const out: ScriptStep[] = [];
  let presses = 0;
  let bursts = 0;
  for (const s of steps) {
    out.push(s);
    if (s.kind !== 'clock-press' || ++presses % 4 !== 0) continue;
    const at = s.at + 20;
    bursts++;
    if (bursts === 1) out.push({ at, kind: 'split', pieces: 'random' });
    out.push(
      bursts % 2 === 1
        ? { at, kind: 'garbage', count: 64 }
        : // A field update cut short with a bad length, then a lone message start byte.
          { at, kind: 'garbage', bytes: [0x8e, 0x00, 0x05, 0x99, 0x42, 0x86, 0x00] },
    );
  }
  return { steps: out, bursts };
};

describe('fault (iv): garbage bytes on the serial lines mid-game', () => {
  let rig: FaultRig;

  beforeAll(async () => {
    rig = await startFaultRig({ name: 'fault4', boards: 2, serialBase: 54000, speed: SPEED, maxPlies: 20 });
  });

  afterAll(() => rig.stop());

  it('loses no move and invents none', async () => {
    const { venue, daemon, sub, dir } = rig;
    const games = venue.boards.map(b => `r1-b${b.number}`);
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    await rig.started();
    const scripts = venue.boards.map(b => withGarbage(stepsOf(b, SPEED).first));
    await Promise.all(venue.boards.map((b, i) => b.pty.runner.play(scripts[i]?.steps ?? [])));
    await waitFor(
      () => venue.boards.every(b => moves(`r1-b${b.number}`).length >= b.plies.length),
      30_000,
      'every move',
    );
    const protocolErrors = daemon.logs().filter(l => l.msg.includes('protocol error')).length;
    expect(daemon.child.exitCode).toBeNull();
    expect(await daemon.stop()).toBe(0);

    const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, `journal-${CLIENT}`) });
    const bursts = scripts.reduce((n, s) => n + s.bursts, 0);
    reportFault('garbage bytes', loss, { garbage_bursts: bursts, protocol_errors_logged: protocolErrors });
    expect(totalLost(loss)).toBe(0);
    expect(totalExtra(loss)).toBe(0);
    expect(bursts).toBeGreaterThanOrEqual(8);
    expect(protocolErrors).toBeGreaterThan(0);
    // No garbage became an illegal-move alert.
    for (const g of games)
      expect(
        (sub.firstArrivals().get(g) ?? []).filter(e => e.code === 'illegal_move'),
        g,
      ).toEqual([]);
  });
});
