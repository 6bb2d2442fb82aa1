/**
 * Fault (iii): a serial cable is pulled mid-game. The first board's PTY pair (socat) is killed,
 * which the daemon sees as an unplugged board, and started again two seconds later; meanwhile the
 * player makes a move on it. The daemon reopens the port, asks for a fresh dump, finds the move in
 * it and goes on; the other board plays through undisturbed. Moves lost: asserted 0 (figures in
 * test-artifacts/faults/serial-unplug.json).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movesFromEvents, stepsOf, waitFor } from '../integration/support.js';
import { trackPid } from '../support/pty.js';
import { type FaultRig, movesLost, reportFault, startFaultRig, totalExtra, totalLost } from './support.js';

const SPEED = 8;
const BASE = 'fault3';
const CLIENT = 'fault3';
const SPLIT = 10;

interface BoardState {
  readonly link?: string;
}

describe('fault (iii): a serial line is unplugged mid-game (PTY pair killed and restarted)', () => {
  let rig: FaultRig;

  beforeAll(async () => {
    rig = await startFaultRig({
      name: 'fault3',
      boards: 2,
      serialBase: 53000,
      speed: SPEED,
      maxPlies: 20,
      topics: [`fault3/boards/+/state`],
    });
  });

  afterAll(() => rig.stop());

  it('loses no move, including one made while the cable was out', async () => {
    const { venue, daemon, sub, dir } = rig;
    const games = venue.boards.map(b => `r1-b${b.number}`);
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    await rig.started();
    const [first, second] = venue.boards;
    if (first === undefined || second === undefined) throw new Error('two boards expected');
    const parts = stepsOf(first, SPEED, SPLIT);
    await first.pty.runner.play(parts.first);
    await waitFor(() => moves(games[0] ?? '').length >= SPLIT, 20_000, `${SPLIT} plies on the first board`);
    const linkOf = (): string | undefined =>
      (JSON.parse(sub.latest(`${BASE}/boards/${first.id}/state`) ?? '{}') as BoardState).link;

    // The second board plays its whole game meanwhile; the first board's cable is out for 2 s, and
    // its next player moves while it is.
    const secondPlaying = second.pty.runner.play(stepsOf(second, SPEED).first);
    const firstRest = parts.rest;
    const pressAt = firstRest.findIndex(s => s.kind === 'clock-press');
    const unplugged = first.pty.unplug(2000);
    await waitFor(() => linkOf() !== 'connected', 10_000, 'the daemon to notice the pulled cable');
    const linkWhileOut = linkOf();
    await first.pty.runner.play(firstRest.slice(0, pressAt + 1));
    await unplugged;
    trackPid(first.pty.pair);
    await waitFor(() => linkOf() === 'connected', 20_000, 'the board to be connected again');
    await waitFor(() => moves(games[0] ?? '').length >= SPLIT + 1, 15_000, 'the move made while unplugged');
    await first.pty.runner.play(firstRest.slice(pressAt + 1));
    await secondPlaying;
    await waitFor(
      () => venue.boards.every(b => moves(`r1-b${b.number}`).length >= b.plies.length),
      30_000,
      'every move',
    );
    expect(await daemon.stop()).toBe(0);

    const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, `journal-${CLIENT}`) });
    reportFault('serial unplug', loss, { unplugs: 1, unplugged_ms: 2000, link_while_out: linkWhileOut });
    expect(totalLost(loss)).toBe(0);
    expect(totalExtra(loss)).toBe(0);
    expect(linkWhileOut).not.toBe('connected');
  });
});
