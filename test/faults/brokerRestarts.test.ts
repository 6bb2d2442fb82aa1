/**
 * Fault (i): the broker dies twice mid-game. mosquitto (persistence on) is SIGKILLed and started
 * again on the same port, twice, while two boards keep playing through the outages. The daemon
 * keeps every event queued until the broker acknowledges it and sends again after each reconnect;
 * the persistent-session subscriber, the retained live PGN and the journal all end with every
 * move. Moves lost: asserted 0 (figures in test-artifacts/faults/broker-restarts.json).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { movesFromEvents, stepsOf, waitFor } from '../integration/support.js';
import { type FaultRig, movesLost, reportFault, startFaultRig, totalExtra, totalLost } from './support.js';

const SPEED = 8;
const BASE = 'fault1';
const CLIENT = 'fault1';

describe('fault (i): the broker is killed and restarted twice mid-game', () => {
  let rig: FaultRig;

  beforeAll(async () => {
    rig = await startFaultRig({ name: 'fault1', boards: 2, serialBase: 51000, speed: SPEED, maxPlies: 24 });
  });

  afterAll(() => rig.stop());

  it('loses no move: subscriber, live PGN and journal hold every move', async () => {
    const { broker, venue, daemon, sub, dir } = rig;
    const games = venue.boards.map(b => `r1-b${b.number}`);
    await rig.started();
    const received = () =>
      games.reduce((n, g) => n + movesFromEvents(sub.firstArrivals().get(g) ?? []).length, 0);
    const total = venue.boards.reduce((n, b) => n + b.plies.length, 0);
    const playing = Promise.all(venue.boards.map(b => b.pty.runner.play(stepsOf(b, SPEED).first)));
    const outages: number[] = [];
    for (const fraction of [0.3, 0.6]) {
      await waitFor(() => received() >= total * fraction, 60_000, `${fraction * 100} % of the moves`);
      const before = received();
      await broker.kill();
      await new Promise(resolve => setTimeout(resolve, 1500)); // the players go on meanwhile
      await broker.restart();
      outages.push(before);
    }
    await playing;
    await waitFor(() => received() >= total, 30_000, `every move (have ${received()} of ${total})`);
    expect(await daemon.stop()).toBe(0);

    const loss = await movesLost({ venue, sub, base: BASE, journalDir: join(dir, `journal-${CLIENT}`) });
    reportFault('broker restarts', loss, { restarts: 2, moves_received_before_each_kill: outages });
    for (const g of loss)
      expect(g.moves.subscriber, g.game).toEqual(
        venue.boards.find(b => g.game.endsWith(`b${b.number}`))?.plies,
      );
    expect(totalLost(loss)).toBe(0);
    expect(totalExtra(loss)).toBe(0);
    // Both crashes were seen, and the daemon stayed up through them.
    expect(
      daemon.logs().filter(l => l.msg.includes('lost; MQTT.js reconnects')).length,
    ).toBeGreaterThanOrEqual(2);
  });
});
