/**
 * Downtime never decides a result (issue: judge only what the board proves). The daemon (a child
 * process) follows one emulated DGT board with a clock on a socat PTY and publishes to a real
 * mosquitto; it is SIGKILLed mid-game and the players make four plies, each pressed, while it is
 * down. Restarted, it reads the board's move log (EEPROM, reference dgt-protocol.md §7) before the
 * board's dump: every missed ply is published in the order it was played (the dump alone shows
 * where the board got to, not how: several orders reach it), and nothing is judged from the gap:
 * no alert of an illegal move or a mismatch, no result. Then the game goes on to its end.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { assertJournalText } from '../support/wire.js';
import {
  killAllDaemons,
  movesFromEvents,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  writeConfig,
  type DaemonProcess,
  type Subscriber,
  type Venue,
} from './support.js';

const SPEED = 8;
const BASE = 'downtime';
const CLIENT = 'downtime';
const SPLIT = 8;
const MISSED = 4;

describe('the daemon killed while four plies are played', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let sub: Subscriber;
  let dir: string;
  let config: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-downtime-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 1, firstBoard: 1, serialBase: 53000, speed: SPEED, maxPlies: 24 });
    sub = await subscribe(broker.url, [`${BASE}/games/+/events`, `${BASE}/bridge/state`], 'downtime-sub');
    config = await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: CLIENT });
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('recovers every missed ply from the board’s log, in order, and judges nothing from the gap', async () => {
    const board = venue.boards[0]!;
    const game = `r1-b${board.number}`;
    const events = () => sub.firstArrivals().get(game) ?? [];
    const moves = () => movesFromEvents(events());
    let daemon: DaemonProcess = startDaemon(config);
    await waitFor(() => events().length > 0, 30_000, `the game to start (${daemon.output().slice(-1000)})`);
    const { first, rest } = stepsOf(board, SPEED, SPLIT);
    await board.pty.runner.play(first);
    await waitFor(() => moves().length >= SPLIT, 20_000, `${SPLIT} plies`);

    await daemon.kill();
    await waitFor(
      () => sub.latest(`${BASE}/bridge/state`) === '{"state":"offline"}',
      10_000,
      'the last will',
    );
    // Four plies, each with its press, while nobody listens.
    let presses = 0;
    const cut = rest.findIndex(s => s.kind === 'clock-press' && ++presses === MISSED);
    expect(cut).toBeGreaterThan(0);
    await board.pty.runner.play(rest.slice(0, cut + 1));

    daemon = startDaemon(config);
    await waitFor(() => daemon.logs().some(l => l.msg.startsWith('ready')), 60_000, 'the restarted daemon');
    await waitFor(
      () => moves().length >= SPLIT + MISSED,
      30_000,
      'the plies made while the daemon was down',
    ).catch((e: unknown) => {
      throw new Error(`${String(e)}: ${JSON.stringify(moves())}; daemon: ${daemon.output().slice(-3000)}`);
    });
    expect(moves()).toEqual(board.plies.slice(0, SPLIT + MISSED));
    await board.pty.runner.play(rest.slice(cut + 1));
    await waitFor(() => moves().length >= board.plies.length, 30_000, 'every ply');
    expect(await daemon.stop()).toBe(0);

    expect(moves()).toEqual(board.plies);
    const codes = events().flatMap(e => (e.type === 'alert' ? [String(e.code)] : []));
    // The lost daemon is no board missing (the board was there all along), and nothing else.
    expect(codes).toEqual([]);
    expect(events().some(e => e.type === 'end')).toBe(false);
    // The journal holds the log the restarted daemon read, so a replay decides the same.
    const journal = await readFile(join(dir, `journal-${CLIENT}`, 'games', `${game}.jsonl`), 'utf8');
    expect(journal).toContain('"eeprom_log"');
    assertJournalText(journal, `${game}.jsonl`);
  }, 120_000);
});
