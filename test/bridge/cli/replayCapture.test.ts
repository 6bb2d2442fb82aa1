/**
 * `chessbridge replay --driver dgt FILE`: a capture recorded live (every read of the real serial
 * transport while the emulated board plays a corpus game over a socat PTY pair) replays, through
 * the command line, into exactly the game events the live session's observations gave, which are
 * the game's own moves. A Millennium capture (recorded in virtual time) does the same through its
 * own session. Bad input: a malformed line names the file and the line; a driver without capture
 * replay is a usage error.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publishedSans } from '../../../src/engine/supervisor/record.js';
import { type CliIo, runCli } from '../../../src/bridge/cli/cli.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { makeEventMessage } from '../../../src/bridge/wire/events.js';
import {
  captureGameId,
  gameEventsOf,
  nodeCaptureIo,
  replayCaptures,
} from '../../../src/bridge/cli/replay/capture.js';
import { tap } from 'rxjs';
import { makeCapture, type CaptureRead } from '../../../src/drivers/capture.js';
import { letterOf, type ScriptStep } from '../../../src/drivers/dgt/emulatorScript.js';
import { MillenniumEmulator } from '../../../src/drivers/millennium/emulator.js';
import { millenniumBoard } from '../../../src/drivers/millennium/emulatorRunner.js';
import { millenniumSession$ } from '../../../src/drivers/millennium/session.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { BoardEmulatorRunner } from '../../../src/emulators/boardEmulatorHost.js';
import { createMemoryLink } from '../../../src/drivers/transport/memory.js';
import type { Transport } from '../../../src/drivers/transport/transport.js';
import { generateForGame } from '../../../src/engine/handling/generator.js';
import { decodePgnBytes } from '../../../src/engine/pgnRead.js';
import { handlingFor, playOnPty } from '../../drivers/dgt/ptyCorpusRig.js';
import { createTestScheduler } from '../../drivers/transport/boardRig.js';
import { corpusSample } from '../../drivers/transport/recognitionRig.js';
import { closeAllPtyPairs } from '../../support/pty.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-capture-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeAllPtyPairs();
});

/** The command line as main wires it, with its output collected. */
const cli = async (argv: readonly string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readFile: () => Promise.reject(new Error('not used')),
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: [],
    replayCaptures: (paths, request) =>
      replayCaptures(
        paths,
        request,
        nodeCaptureIo,
        engineSupervisor(),
        l => out.push(l),
        l => err.push(l),
      ),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
};

describe('chessbridge replay --driver', () => {
  it('a capture recorded live replays into the same events as the live run: the game’s moves', async () => {
    // A corpus game with a promotion, played with a clock: presses travel as clock readings.
    const pick = corpusSample(9)
      .map((g, i) => ({ ...g, seed: 700 + i }))
      .find(
        g =>
          g.game.length <= 120 &&
          g.game.moves.some(m => m.san.includes('=')) &&
          handlingFor(g.game, g.seed).clock === 'press',
      );
    expect(pick).toBeDefined();
    const { game, seed, label } = pick!;
    const reads: CaptureRead[] = [];
    const live = await playOnPty(game, { seed, speed: 400, onRead: c => reads.push(c) });
    expect(live.problems).toEqual([]);

    const file = join(dir, 'board-7.cap');
    writeFileSync(file, makeCapture(reads, [`DGT board emulator over a PTY: ${label}, seed ${seed}`]));
    const settings = {
      game: captureGameId(file),
      edition: 'E23',
      gameType: 'standard',
      supervision: 'full',
    } as const;
    const liveEvents = gameEventsOf(live.observations, settings, engineSupervisor(), 'dgt');
    // The record as published (a move published while a piece rested on its way may be revised).
    const liveMoves = publishedSans(liveEvents);
    expect(liveMoves).toEqual(game.moves.map(m => m.san));

    const replayed = await cli(['replay', '--driver', 'dgt', file, '--json']);
    expect(replayed.err).toEqual([]);
    expect(replayed.code).toBe(0);
    expect(replayed.out.map(l => JSON.parse(l) as unknown)).toEqual(
      liveEvents.map(e => JSON.parse(JSON.stringify(makeEventMessage(e))) as unknown),
    );

    const text = await cli(['replay', '--driver', 'dgt', file]);
    expect(text.code).toBe(0);
    expect(text.out[0]).toBe(
      `board-7: ${reads.length} reads from a dgt board, ${live.observations.length} observations (E23 standard)`,
    );
    expect(text.out).toContainEqual(
      expect.stringMatching(new RegExp(`board-7 #\\d+ +move 1\\. ${game.moves[0]!.san}$`)),
    );
    expect(text.out.at(-1)).toBe(`${liveEvents.length} events`);
  }, 60_000);

  it('a Millennium capture replays the same way (its session, in virtual time on a memory link)', async () => {
    const game = corpusSample(9).find(g => g.game.length <= 60)!.game;
    const handling = generateForGame(game, { seed: 11, startAt: 2000, clock: 'none' });
    const steps: ScriptStep[] = handling.events.flatMap((e): ScriptStep[] =>
      e.kind === 'square'
        ? [
            {
              at: e.at,
              kind: 'square',
              square: e.square,
              piece: typeof e.piece === 'string' ? 'empty' : letterOf(e.piece),
            },
          ]
        : [],
    );
    const reads: CaptureRead[] = [];
    const live: Observation[] = [];
    const ts = createTestScheduler();
    ts.run(({ flush }) => {
      const link = createMemoryLink({ scheduler: ts });
      const runner = new BoardEmulatorRunner({
        transport: link.device,
        board: millenniumBoard(new MillenniumEmulator()),
        scheduler: ts,
        tickMs: 50,
      });
      runner.start();
      void runner.play(steps);
      const host: Transport = {
        path: link.host.path,
        open: () => link.host.open(),
        close: () => link.host.close(),
        write: bytes => link.host.write(bytes),
        bytes$: link.host.bytes$.pipe(tap(c => reads.push(c))),
      };
      const sub = millenniumSession$(host, { scheduler: ts }).subscribe(o => {
        if (o.type === 'snapshot' || o.type === 'square' || o.type === 'link' || o.type === 'identity')
          live.push(o);
      });
      ts.schedule(
        () => {
          sub.unsubscribe();
          void runner.stop();
        },
        (steps.at(-1)?.at ?? 0) + 3000,
      );
      flush();
    });
    const file = join(dir, 'chesslink.cap');
    writeFileSync(file, makeCapture(reads));
    const settings = {
      game: 'chesslink',
      edition: 'E23',
      gameType: 'standard',
      supervision: 'full',
    } as const;
    const liveEvents = gameEventsOf(live, settings, engineSupervisor(), 'millennium');
    expect(publishedSans(liveEvents)).toEqual(game.moves.map(m => m.san));

    const replayed = await cli(['replay', '--driver', 'millennium', file, '--json']);
    expect(replayed.err).toEqual([]);
    expect(replayed.code).toBe(0);
    expect(replayed.out.map(l => JSON.parse(l) as unknown)).toEqual(
      liveEvents.map(e => JSON.parse(JSON.stringify(makeEventMessage(e))) as unknown),
    );
  });

  it('a malformed line is reported with the file and the line, exit code 1', async () => {
    const bad = join(dir, 'bad.cap');
    writeFileSync(bad, '# a field update split over two reads\n100 8E 00\n130 05 3\n');
    const good = join(dir, 'empty.cap');
    writeFileSync(good, '# nothing was read\n');
    const r = await cli(['replay', '--driver', 'dgt', bad, good, '--json']);
    expect(r.code).toBe(1);
    expect(r.err).toEqual([`chessbridge replay: ${bad}: line 3: not hex byte pairs: "05 3"`]);
    expect(r.out).toEqual([]);
    const missing = await cli(['replay', '--driver', 'dgt', join(dir, 'nowhere.cap')]);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/^chessbridge replay: cannot read .*nowhere\.cap: /);
  });

  it('refuses a driver it cannot replay, naming the ones it can, with exit code 2', async () => {
    for (const driver of ['certabo', 'serial']) {
      const r = await cli(['replay', '--driver', driver, 'x.cap']);
      expect(r.code).toBe(2);
      expect(r.err[0]).toBe(
        `chessbridge replay: --driver: captures can be replayed for dgt, millennium, not "${driver}"`,
      );
      expect(r.out).toEqual([]);
    }
  });
});
