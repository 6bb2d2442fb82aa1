/**
 * Acceptance 4: bad input. Malformed JSON, unknown actions and wrong field types on the request
 * API are answered with errors that name the problem; a configuration with five mistakes is
 * refused with each one reported; a board sending garbage mid-game only costs the garbage. The
 * daemon stays up throughout, and the journal, replayed afterwards, holds every move.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { childMainArgs } from '../support/childBuild.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { PROJECT_ROOT } from '../support/shared.js';
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

const SPEED = 6;
const BASE = 'accept4';

/** `chessbridge <args>` from the sources; its exit code and output. */
const cli = (args: readonly string[]): Promise<{ code: number | null; out: string; err: string }> =>
  new Promise(resolve => {
    const child = spawn(process.execPath, [...childMainArgs, ...args], {
      cwd: PROJECT_ROOT,
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('exit', exit => resolve({ code: exit, out, err }));
  });

describe('acceptance 4: bad input', () => {
  let broker: Mosquitto;
  let venue: Venue;
  let daemon: DaemonProcess;
  let sub: Subscriber;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-accept4-'));
    broker = await startMosquitto({ persistence: true });
    venue = await startVenue({ count: 2, firstBoard: 1, serialBase: 44000, speed: SPEED, maxPlies: 24 });
    sub = await subscribe(
      broker.url,
      [`${BASE}/games/+/events`, `${BASE}/games/+`, `${BASE}/bridge/response/+`, `${BASE}/bridge/state`],
      'accept4-sub',
    );
    daemon = startDaemon(await writeConfig({ dir, venue, url: broker.url, base: BASE, clientId: 'accept4' }));
  });

  afterAll(async () => {
    await killAllDaemons();
    await sub.close();
    await venue.stop();
    await closeAllPtyPairs();
    await broker.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a configuration with five mistakes, naming each', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(
      file,
      [
        'version: 1',
        'laws:',
        '  edition: E22',
        'mqtt:',
        '  ulr: mqtt://localhost',
        'http:',
        '  port: 99999',
        'boards:',
        '  - { id: b0, driver: dgt, port: /dev/ttyACM0, serial: 00137 }',
        '  - { id: b1, driver: dgt, port: /dev/ttyACM1, serial: "00138" }',
        '  - { id: b1, driver: dgt, port: /dev/ttyACM2, serial: "00139" }',
        '',
      ].join('\n'),
    );
    const r = await cli(['check', file]);
    expect(r.code).toBe(1);
    const problems = r.err
      .split('\n')
      .filter(l => l.startsWith('  '))
      .map(l => l.trim());
    expect(r.err).toMatch(/: 5 problems\n/);
    expect(problems).toEqual([
      expect.stringMatching(/^laws\.edition: unknown edition "E22".*\(line 3\)$/),
      expect.stringMatching(/^mqtt\.ulr: unknown field \(did you mean url\?\) \(line 5\)$/),
      expect.stringMatching(/^http\.port: must be at most 65535, got 99999 \(line 7\)$/),
      expect.stringMatching(/^boards\[0\]\.serial: expected a string, got 137: put it in quotes \("00137"\)/),
      expect.stringMatching(/^boards\[2\]\.id: duplicate board id "b1" \(also boards\[1\]\)/),
    ]);
  });

  it('answers bad requests with errors naming the problem, takes garbage from a board, and loses nothing', async () => {
    const games = venue.boards.map(b => `r1-b${b.number}`);
    await waitFor(
      () => games.every(g => sub.latest(`${BASE}/games/${g}`) !== undefined),
      30_000,
      'the games to start',
    );
    const responses = () =>
      sub.seen
        .filter(m => m.topic.startsWith(`${BASE}/bridge/response/`))
        .map(m => ({
          topic: m.topic,
          ...(JSON.parse(m.payload) as { status: string; error?: string; transaction?: string }),
        }));
    const ask = async (action: string, payload: string) => {
      const before = responses().length;
      await sub.client.publishAsync(`${BASE}/bridge/request/${action}`, payload, { qos: 1 });
      await waitFor(() => responses().length > before, 10_000, `an answer to ${action}`);
      return responses().at(-1);
    };
    expect(await ask('restore_position', '{"game_id": "r1-b1", "ply": 3')).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^malformed JSON/) as unknown,
    });
    expect(await ask('launch_rocket', '{"transaction": "t1"}')).toMatchObject({
      status: 'error',
      transaction: 't1',
      error: expect.stringMatching(/^unknown action "launch_rocket"/) as unknown,
    });
    const wrong = await ask('restore_position', '{"game_id": 12, "ply": "three", "transaction": "t2"}');
    expect(wrong).toMatchObject({ status: 'error', transaction: 't2' });
    expect(wrong?.error).toMatch(/game_id/);
    expect(wrong?.error).toMatch(/ply/);
    expect(await ask('set_result', '{"game_id": "r9-b9", "result": "1-0"}')).toMatchObject({
      status: 'error',
      error: 'no game r9-b9',
    });

    // Garbage on the first board's line in the middle of its game, and its writes cut at random.
    const [first, second] = venue.boards;
    const parts = venue.boards.map(b => stepsOf(b, SPEED, 8));
    await Promise.all(venue.boards.map((b, i) => b.pty.runner.play(parts[i]?.first ?? [])));
    first?.pty.runner.apply({ kind: 'garbage', count: 40 });
    first?.pty.runner.apply({ kind: 'garbage', bytes: [0x8e, 0x00, 0x05, 0x99, 0x42, 0x86, 0x00] });
    first?.pty.runner.apply({ kind: 'split', pieces: 'random' });
    await Promise.all(venue.boards.map((b, i) => b.pty.runner.play(parts[i]?.rest ?? [])));
    const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
    await waitFor(
      () => venue.boards.every(b => moves(`r1-b${b.number}`).length >= b.plies.length),
      30_000,
      'every move',
    );
    expect(moves('r1-b1')).toEqual(first?.plies);
    expect(moves('r1-b2')).toEqual(second?.plies);
    expect(daemon.logs().some(l => l.msg.includes('protocol error'))).toBe(true);
    expect(daemon.child.exitCode).toBeNull();
    expect(sub.latest(`${BASE}/bridge/state`)).toBe('{"state":"online"}');
    expect(await daemon.stop()).toBe(0);

    // Nothing recorded is lost: the journal replayed through the supervisor gives every move.
    for (const b of venue.boards) {
      const r = await cli([
        'replay',
        join(dir, 'journal-accept4', 'games', `r1-b${b.number}.jsonl`),
        '--json',
      ]);
      expect(r.code).toBe(0);
      const events = r.out
        .trim()
        .split('\n')
        .map(l => JSON.parse(l) as { type: string; san?: string; ply?: number; seq: number; game: string });
      expect(movesFromEvents(events)).toEqual(b.plies);
      // …with the same events, seq for seq, as the subscriber received.
      expect(events.map(e => e.seq)).toEqual(
        (sub.firstArrivals().get(`r1-b${b.number}`) ?? []).map(e => e.seq).sort((x, y) => x - y),
      );
    }
  });
});
