/**
 * One game, four inputs, one shape (issue 14): the Opera game replayed from its PGN, from a board
 * script of the handling a person gives it, from a raw capture of a DGT board's serial line
 * playing that handling over a PTY, and from a game journal holding the capture's observations.
 * Every `replay --json` line of every input is a document of the wire (a failure names the
 * field), the four give the same moves and the same end, and an event type the inputs share has
 * the same fields in each.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { INITIAL_FEN } from 'chessops/fen';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../../src/bridge/cli/cli.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { replayJournals } from '../../../src/bridge/cli/replay/journal.js';
import { JournalStore } from '../../../src/bridge/journal/index.js';
import { nodeCaptureIo, replayCaptures } from '../../../src/bridge/cli/replay/capture.js';
import { nodeScriptIo, replayScripts } from '../../../src/bridge/cli/replay/script.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';
import { makeCapture, type CaptureRead } from '../../../src/drivers/capture.js';
import { decodePgnBytes, readPgn } from '../../../src/engine/pgnRead.js';
import { makeDigest, makeInputText, parseScript, runScript } from '../../../src/engine/script/index.js';
import { EXAMPLES } from '../../../src/main.js';
import { handlingFor, playOnPty } from '../../drivers/dgt/ptyCorpusRig.js';
import { closeAllPtyPairs } from '../../support/pty.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-four-inputs-'));
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  await closeAllPtyPairs();
});

type Line = Record<string, unknown> & { type: string };

/** `chessbridge replay … --json` as main wires it; every line parsed. */
const replay = async (argv: readonly string[]): Promise<Line[]> => {
  const out: string[] = [];
  const err: string[] = [];
  const engine = engineSupervisor();
  const io: CliIo = {
    readFile: path => Promise.resolve(readFileSync(path)),
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: EXAMPLES,
    replayScripts: (paths, json) =>
      replayScripts(
        paths,
        { json },
        nodeScriptIo,
        l => out.push(l),
        l => err.push(l),
      ),
    replayJournals: (paths, json) =>
      replayJournals(
        paths,
        { json },
        engine,
        l => out.push(l),
        l => err.push(l),
      ),
    replayCaptures: (paths, request) =>
      replayCaptures(
        paths,
        request,
        nodeCaptureIo,
        engine,
        l => out.push(l),
        l => err.push(l),
      ),
  };
  const code = await runCli([...argv, '--json'], io);
  expect(err, argv.join(' ')).toEqual([]);
  expect(code, argv.join(' ')).toBe(0);
  return out.map(l => JSON.parse(l) as Line);
};

/** The record the events amount to: moves applied in order, corrections replacing from their ply. */
const recordOf = (lines: readonly Line[]): string[] => {
  const sans: string[] = [];
  for (const e of lines) {
    if (e.type === 'move') sans.splice((e.ply as number) - 1, Infinity, e.san as string);
    if (e.type === 'correction')
      sans.splice((e.from_ply as number) - 1, Infinity, ...(e.moves as { san: string }[]).map(m => m.san));
  }
  return sans;
};

describe('one game through four inputs', () => {
  it('gives the same events in the same shape, every line a document of the wire', async () => {
    const pgnPath = EXAMPLES[0]!;
    const game = readPgn(decodePgnBytes(readFileSync(pgnPath)))[0]!.unwrap().game;
    const sans = game.moves.map(m => m.san);
    const seed = 3;

    // A board script of the handling (the same handling the emulated board plays below).
    const handling = handlingFor(game, seed);
    const script = join(dir, 'opera.cbs');
    const lines = ['@edition E23', '@game opera', ...handling.events.map(e => `${e.at} ${makeInputText(e)}`)];
    // The script states what the supervisor publishes (as a script must); the record is checked
    // against the PGN below.
    const run = runScript(parseScript(lines.join('\n') + '\n', script).unwrap())[0]!;
    const expected = run.events.filter(e => e.type !== 'clock').map(e => `> ${makeDigest(e)}`);
    writeFileSync(script, [...lines, ...expected].join('\n') + '\n');

    // The DGT board playing it over a PTY: the capture of its serial line, and its observations
    // journaled as the daemon journals them.
    const reads: CaptureRead[] = [];
    const live = await playOnPty(game, { seed, speed: 400, onRead: c => reads.push(c) });
    expect(live.problems).toEqual([]);
    const capture = join(dir, 'opera.cap');
    writeFileSync(capture, makeCapture(reads));
    const store = new JournalStore({ dir: join(dir, 'journal') });
    expect((await store.start()).isOk).toBe(true);
    const settings = {
      edition: 'E23',
      gameType: 'standard',
      supervision: 'full',
      timeControl: '-',
      startFen: INITIAL_FEN,
    } as const;
    expect((await store.createGame({ game: 'opera', board: 'dgt-1', settings })).isOk).toBe(true);
    for (const observation of live.observations)
      expect((await store.append('opera', { type: 'observation', board: 'dgt-1', observation })).isOk).toBe(
        true,
      );
    // The daemon's last record of a game that ended (it journals it once the end is published).
    const lastAt = live.observations.at(-1)?.at ?? 0;
    const finish = { type: 'finish', at: lastAt + 5000, result: '1-0', reason: 'checkmate' } as const;
    expect((await store.append('opera', finish)).isOk).toBe(true);
    await store.stop();

    const inputs: Record<string, Line[]> = {
      pgn: await replay(['replay', pgnPath]),
      script: await replay(['replay', script]),
      capture: await replay(['replay', '--driver', 'dgt', capture]),
      journal: await replay(['replay', join(dir, 'journal', 'games', 'opera.jsonl')]),
    };
    const shapes = new Map<string, Map<string, string>>();
    for (const [input, lines] of Object.entries(inputs)) {
      for (const line of lines)
        expect(checkWire('replay_line', line), `${input}: ${JSON.stringify(line)}`).toEqual([]);
      expect(recordOf(lines), input).toEqual(sans);
      expect(
        lines.find(l => l.type === 'end'),
        input,
      ).toMatchObject({
        type: 'end',
        result: '1-0',
        reason: 'checkmate',
        termination: 'normal',
        winner: 'white',
        article: '5.1.1',
        edition: 'E23',
      });
      for (const line of lines) {
        const keys = Object.keys(line).sort().join(',');
        const seen = shapes.get(line.type) ?? new Map<string, string>();
        seen.set(input, keys);
        shapes.set(line.type, seen);
      }
    }
    // An event type that several inputs give has the same keys in each.
    for (const [type, byInput] of shapes)
      expect(new Set(byInput.values()).size, `${type}: ${JSON.stringify([...byInput])}`).toBe(1);
    expect([...(shapes.get('move')?.keys() ?? [])].sort()).toEqual(['capture', 'journal', 'pgn', 'script']);
  }, 90_000);
});
