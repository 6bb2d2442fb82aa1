/**
 * A player's claim of an Art. 4 breach the board suggests but cannot prove, through a real daemon
 * (child process) on an emulated DGT board on a socat PTY, with mosquitto. White's knight rests
 * 0.9 s on f3 (a legal move) and goes on to h3: the release is a `possible` finding on the move, no
 * alert. Black claims it through the `claim` request over MQTT before touching a piece: the claim
 * is pending for the arbiter and the finding becomes an alert (grade possible, claimed). The game
 * journal records the request with its source.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { assertJournalText } from '../support/wire.js';
import {
  killAllDaemons,
  startDaemon,
  startVenue,
  subscribe,
  waitFor,
  writeConfig,
  type DaemonProcess,
  type Subscriber,
  type Venue,
} from './support.js';

const SPEED = 1;
const BASE = 'claim4';
const CLIENT = 'claim4';

interface Event {
  readonly type: string;
  readonly code?: string;
  readonly grade?: string | null;
  readonly claimed?: boolean;
  readonly claim?: string;
  readonly status?: string;
  readonly ply?: number | null;
  readonly san?: string;
}

describe('a claim of a possible Art. 4 breach, through the daemon', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let sub: Subscriber;
  let dir: string;
  let daemon: DaemonProcess;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-claim4-'));
    broker = await startMosquitto();
    venue = await startVenue({ count: 1, firstBoard: 1, serialBase: 54000, speed: SPEED, maxPlies: 4 });
    sub = await subscribe(broker.url, [`${BASE}/games/+/events`, `${BASE}/bridge/response/+`], 'claim4-sub');
    daemon = startDaemon(await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: CLIENT }));
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps the release as a finding, and makes it an alert on the opponent’s claim', async () => {
    const board = venue.boards[0]!;
    const game = `r1-b${board.number}`;
    const events = () => (sub.firstArrivals().get(game) ?? []) as unknown as Event[];
    await waitFor(
      () => events().length > 0 || sub.latest(`${BASE}/games/${game}`) !== undefined,
      30_000,
      'the game',
    );
    const steps: ScriptStep[] = [
      { at: 0, kind: 'clock-set', left: 900_000, right: 900_000, run: 'left', incrementMs: 10_000 },
      { at: 1000, kind: 'square', square: 'g1', piece: 'empty' },
      { at: 1300, kind: 'square', square: 'f3', piece: 'N' },
      { at: 2200, kind: 'square', square: 'f3', piece: 'empty' },
      { at: 2400, kind: 'square', square: 'h3', piece: 'N' },
      { at: 3400, kind: 'clock-press', side: 'left' },
    ];
    await board.pty.runner.play(steps);
    await waitFor(() => events().some(e => e.type === 'finding'), 20_000, 'the finding');
    const finding = events().find(e => e.type === 'finding');
    expect(finding).toMatchObject({ code: 'release', grade: 'possible', breach: true, ply: 1 });
    expect(events().filter(e => e.type === 'alert')).toEqual([]);

    await sub.client.publishAsync(
      `${BASE}/bridge/request/claim`,
      JSON.stringify({ game_id: game, color: 'black', claim: 'art4', transaction: 'c-1' }),
      { qos: 1 },
    );
    await waitFor(() => events().some(e => e.type === 'alert'), 20_000, 'the alert the claim raises');
    expect(events().find(e => e.type === 'claim')).toMatchObject({ claim: 'art4', status: 'pending' });
    expect(events().filter(e => e.type === 'alert')).toEqual([
      expect.objectContaining({ code: 'release', grade: 'possible', claimed: true, ply: 1 }),
    ]);
    // The answer comes on the requests connection, so it may arrive after the game's events.
    await waitFor(
      () => sub.latest(`${BASE}/bridge/response/claim`) !== undefined,
      10_000,
      'the answer to the claim',
    );
    const response = sub.latest(`${BASE}/bridge/response/claim`);
    expect(JSON.parse(response ?? '{}')).toMatchObject({ status: 'ok', transaction: 'c-1' });
    expect(await daemon.stop()).toBe(0);
    const journal = await readFile(join(dir, `journal-${CLIENT}`, 'games', `${game}.jsonl`), 'utf8');
    expect(journal).toMatch(/"action":"claim".*"source":"mqtt role=arbiter user=\(broker\)"/);
    assertJournalText(journal, `${game}.jsonl`);
  }, 90_000);
});
