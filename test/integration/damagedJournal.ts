/**
 * The damage tests' common part (journalDamage.test.ts: a game file; journalDamageWal.test.ts:
 * the write-ahead log). Damage never hides good data, through the doors a user uses: `chessbridge run -c FILE` (a child
 * process), an emulated DGT board on a PTY pair, a real mosquitto, the live PGN over HTTP, and
 * `chessbridge replay FILE`. The daemon plays part of a game and is stopped; the test damages the
 * journal (8 bytes flipped inside a record of the game file; or, after a SIGKILL and a cut game
 * file as a power cut leaves it, 8 bytes flipped inside a record of the write-ahead log); the
 * daemon starts again. The plies played stay in the live PGN and on MQTT, one `journal_damaged`
 * alert says which record was lost, the game goes on, and the board's next pairing starts,
 * is journaled and published as usual. `replay` of the damaged file shows the game with the
 * damaged range marked and exits 3.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Chess } from 'chessops';
import { parseSan } from 'chessops/san';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { DEMO_GAMES, type DemoGame } from '../../src/bridge/simulate/demoGames.js';
import { letterOf } from '../../src/drivers/dgt/emulatorScript.js';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { readPgn } from '../../src/engine/pgnRead.js';
import { freePort, startMosquitto, type Mosquitto } from '../support/mosquitto.js';
import { closeAllPtyPairs } from '../support/pty.js';
import { PROJECT_ROOT } from '../support/shared.js';
import {
  exited,
  killAllDaemons,
  movesFromEvents,
  pliesOf,
  startDaemon,
  startVenue,
  stepsOf,
  subscribe,
  waitFor,
  writeConfig,
  type DaemonProcess,
  type Subscriber,
  type Venue,
  type VenueBoard,
} from './support.js';

const SPEED = 8;
const SPLIT = 8;
const PLIES = 12;
const NEXT_PLIES = 6;

/** Plies of the first game of a PGN text (none or unreadable: -1). */
const pliesIn = (text: string | undefined): number => {
  if (text === undefined || text === '') return -1;
  const first = readPgn(text)[0];
  return first?.isOk === true ? first.value.game.moves.length : -1;
};

/** waitFor for an asynchronous condition (an HTTP fetch), polled. */
const until = async (condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => {
  const state = { ok: false, stop: false };
  const poll = (async () => {
    while (!state.ok && !state.stop) {
      state.ok = await condition();
      if (!state.ok) await new Promise(r => setTimeout(r, 100));
    }
  })();
  try {
    await waitFor(() => state.ok, timeoutMs, what);
  } finally {
    state.stop = true;
    await poll;
  }
};

/** Flips `count` bytes of a file from `at` (each byte XOR 0xff: never a line break). */
export const flip = async (path: string, at: number, count: number): Promise<void> => {
  const data = await readFile(path);
  for (let i = at; i < at + count; i++) data[i] = (data[i] ?? 0) ^ 0xff;
  await writeFile(path, data);
};

/** The index of the clock-reading line nearest the middle of the lines from `from` (JSON Lines). */
export const middleClockLine = (lines: readonly string[], from: number): number => {
  const clocks = lines.flatMap((l, i) =>
    i >= from && l.includes('"observation":{"type":"clock"') ? [i] : [],
  );
  const i = clocks[Math.floor(clocks.length / 2)];
  if (i === undefined) throw new Error('no clock reading in the journal');
  return i;
};

export const offsetOfLine = (lines: readonly string[], n: number): number =>
  lines.slice(0, n).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);

/** Emulator steps that put the pieces back in the starting position after `sans`. */
const backToStart = (sans: readonly string[], at: number): ScriptStep[] => {
  const pos = Chess.default();
  for (const san of sans) {
    const move = parseSan(pos, san);
    if (move === undefined) throw new Error(`not a move: ${san}`);
    pos.play(move);
  }
  const start = Chess.default().board;
  const clear: ScriptStep[] = [];
  const place: ScriptStep[] = [];
  for (let sq = 0; sq < 64; sq++) {
    const now = pos.board.get(sq);
    const want = start.get(sq);
    if (now?.color === want?.color && now?.role === want?.role) continue;
    if (want === undefined) clear.push({ at, kind: 'square', square: sq, piece: 'empty' });
    else place.push({ at, kind: 'square', square: sq, piece: letterOf(want) });
  }
  return [...clear, ...place].map((s, i) => ({ ...s, at: at + i * 40 }));
};

/** `chessbridge replay FILE` from the sources; its exit code, stdout and stderr. */
const replay = async (file: string): Promise<{ code: number | null; out: string; err: string }> => {
  const code =
    "const m = await import('./src/main.ts'); process.exitCode = await m.main(process.argv.slice(1));";
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', code, 'replay', file],
    {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { code: await exited(child), out, err };
};

export interface Case {
  readonly name: string;
  readonly base: string;
  readonly serialBase: number;
  /** journal.checkpointSeconds: long enough for the log to hold the whole game when it matters. */
  readonly checkpointSeconds: number;
  /** Restart once more after the damage was told: it must not be told again. */
  readonly restartAgain?: boolean;
  /** Stops the daemon after the first part and damages the journal; returns the seq lost. */
  readonly damage: (daemon: DaemonProcess, journalDir: string) => Promise<number>;
}

/** The test of one kind of damage (journalDamage.test.ts, journalDamageWal.test.ts). */
export const describeDamagedJournal = (c: Case): void => {
  describe(`a damaged journal: ${c.name}`, () => {
    let broker: Mosquitto;
    let venue: Venue;
    let sub: Subscriber;
    let dir: string;
    let config: string;
    let http: string;
    const CLIENT = `${c.base}-d`;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), `chessbridge-${c.base}-`));
      broker = await startMosquitto({ persistence: false });
      venue = await startVenue({
        count: 1,
        firstBoard: 1,
        serialBase: c.serialBase,
        speed: SPEED,
        maxPlies: PLIES,
      });
      sub = await subscribe(
        broker.url,
        [`${c.base}/games/+/events`, `${c.base}/games/+/pgn`, `${c.base}/games/+`, `${c.base}/alerts`],
        `${c.base}-sub`,
      );
      const httpPort = await freePort();
      http = `http://127.0.0.1:${httpPort}`;
      config = await writeConfig({ dir, venue, url: broker.url, base: c.base, clientId: CLIENT, httpPort });
      // The board's next pairing: round 2 on the same board.
      const doc = parse(await readFile(config, 'utf8')) as {
        tournament: { rounds: number };
        journal: { checkpointSeconds: number };
        pairings: { round: number }[];
      };
      doc.tournament.rounds = 2;
      doc.journal.checkpointSeconds = c.checkpointSeconds;
      const first = doc.pairings[0];
      if (first !== undefined) doc.pairings.push({ ...first, round: 2 });
      await writeFile(config, stringify(doc));
    });

    afterAll(async () => {
      await killAllDaemons();
      await sub.close();
      await venue.stop();
      await closeAllPtyPairs();
      await broker.stop();
      await rm(dir, { recursive: true, force: true });
    });

    it(
      'keeps every good ply in the feed, alerts once, goes on, and the next game plays',
      { timeout: 120_000 },
      async () => {
        const board = venue.boards[0] as VenueBoard;
        const journalDir = join(dir, `journal-${CLIENT}`);
        const moves = (g: string) => movesFromEvents(sub.firstArrivals().get(g) ?? []);
        const served = async (path: string) =>
          pliesIn(
            await fetch(`${http}${path}`).then(
              r => (r.ok ? r.text() : undefined),
              () => undefined,
            ),
          );
        const alerts = () =>
          sub.seen
            .filter(m => m.topic === `${c.base}/alerts`)
            .map(m => JSON.parse(m.payload) as { code: string; game: string; message: string });

        let daemon = startDaemon(config);
        await waitFor(
          () => sub.latest(`${c.base}/games/r1-b1`) !== undefined,
          30_000,
          `game 1 (${daemon.output().slice(-800)})`,
        );
        const parts = stepsOf(board, SPEED, SPLIT);
        await board.pty.runner.play(parts.first);
        await waitFor(() => moves('r1-b1').length >= SPLIT, 20_000, `${SPLIT} plies`);
        await until(
          async () => (await served('/round-1/game-1.pgn')) === SPLIT,
          10_000,
          'the plies over HTTP',
        );

        const lost = await c.damage(daemon, journalDir);
        const seenBefore = sub.seen.length;

        daemon = startDaemon(config);
        await waitFor(
          () => daemon.logs().some(l => l.msg.startsWith('ready')),
          30_000,
          `restart (${daemon.output().slice(-800)})`,
        );
        // One alert for the arbiter, saying which record was lost.
        await waitFor(
          () => alerts().some(a => a.code === 'journal_damaged'),
          10_000,
          'the journal_damaged alert',
        );
        const damaged = alerts().filter(a => a.code === 'journal_damaged');
        expect(damaged).toHaveLength(1);
        expect(damaged[0]).toMatchObject({ game: 'r1-b1' });
        expect(damaged[0]?.message).toContain(`record seq ${lost} lost`);
        // The plies played are still in the live PGN, over HTTP and republished on MQTT.
        expect(await served('/round-1/game-1.pgn')).toBe(SPLIT);
        await waitFor(
          () =>
            sub.seen
              .slice(seenBefore)
              .some(m => m.topic === `${c.base}/games/r1-b1/pgn` && pliesIn(m.payload) === SPLIT),
          10_000,
          'the PGN republished with every ply',
        );
        expect(daemon.logs().some(l => l.msg.includes('game r1-b1 resumed from'))).toBe(true);
        if (c.restartAgain === true) {
          // The damage is noted in the journal: another restart finds it and does not alert again
          // (the last assertion, after game 2, counts the alerts).
          expect(await daemon.stop()).toBe(0);
          const seenAgain = sub.seen.length;
          daemon = startDaemon(config);
          await waitFor(
            () =>
              sub.seen
                .slice(seenAgain)
                .some(m => m.topic === `${c.base}/games/r1-b1/pgn` && pliesIn(m.payload) === SPLIT),
            30_000,
            `the second restart (${daemon.output().slice(-800)})`,
          );
          expect(daemon.output()).not.toMatch(/journal of game r1-b1 damaged/);
        }

        // The game goes on and ends; the board's next pairing starts, is journaled and published.
        await board.pty.runner.play(parts.rest);
        await waitFor(() => moves('r1-b1').length >= PLIES, 30_000, 'the rest of game 1');
        expect(moves('r1-b1')).toEqual(board.plies);
        await sub.client.publishAsync(
          `${c.base}/bridge/request/set_result`,
          JSON.stringify({ game_id: 'r1-b1', result: '1-0' }),
          { qos: 1 },
        );
        await waitFor(
          () => (sub.firstArrivals().get('r1-b1') ?? []).some(e => e.type === 'end'),
          10_000,
          'the end of game 1',
        );
        await board.pty.runner.play(backToStart(board.plies, 0));
        await waitFor(
          () => sub.latest(`${c.base}/games/r2-b1`) !== undefined,
          20_000,
          `game 2 (${daemon.output().slice(-800)})`,
        );
        const game2 = DEMO_GAMES[1] as DemoGame;
        const next: VenueBoard = { ...board, game: game2, plies: pliesOf(game2, NEXT_PLIES) };
        await board.pty.runner.play(stepsOf(next, SPEED).first);
        await waitFor(() => moves('r2-b1').length >= NEXT_PLIES, 30_000, 'game 2 over MQTT');
        expect(moves('r2-b1')).toEqual(next.plies);
        await until(
          async () => (await served('/round-2/game-1.pgn')) === NEXT_PLIES,
          10_000,
          'game 2 over HTTP',
        );
        expect(daemon.output()).not.toMatch(/already has a journal/);
        expect(await daemon.stop()).toBe(0);

        // The damaged file replays: the good records, the damaged range marked, exit 3.
        const r = await replay(join(journalDir, 'games', 'r1-b1.jsonl'));
        expect(r.code, r.err).toBe(3);
        expect(r.out).toMatch(new RegExp(`^DAMAGED .*record seq ${lost} lost`, 'm'));
        expect(r.out.match(/ move \d+\.{1,3} /g)?.length).toBe(PLIES);
        expect(r.err).toContain('journal damaged');
        expect(alerts().filter(a => a.code === 'journal_damaged')).toHaveLength(1);
      },
    );
  });
};
