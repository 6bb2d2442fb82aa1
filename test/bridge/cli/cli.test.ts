import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type CliIo, type DemoRequest, runCli, type SimulateRequest } from '../../../src/bridge/cli/cli.js';
import { decodePgnBytes } from '../../../src/engine/pgnRead.js';
import { EXAMPLES } from '../../../src/main.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';

const run = async (argv: string[], files: Record<string, string> = {}, services: Partial<CliIo> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    ...services,
    readFile: async path => {
      if (path in files) return new TextEncoder().encode(files[path]);
      return readFile(path);
    },
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: EXAMPLES,
  };
  const code = await runCli(argv, io);
  return { code, out, err };
};

const json = (lines: string[]) => lines.map(l => JSON.parse(l) as Record<string, unknown>);

describe('chessbridge replay', () => {
  it('prints the digest in Spanish with --lang es; the JSON is the same in every language', async () => {
    const es = await run(['replay', EXAMPLES[0]!, '--lang', 'es']);
    expect(es.code).toBe(0);
    expect(es.out[0]).toMatch(/^Partida 1: Morphy, Paul - /);
    expect(es.out.some(l => l.includes('2. Cf3 d6'))).toBe(true);
    expect(
      es.out.some(l => /jugada 33: partida terminada por jaque mate, 1-0 \[E23 art\. 5\.1\.1\]/.test(l)),
    ).toBe(true);
    expect(es.out.some(l => /33 jugadas; resultado según las reglas 1-0/.test(l))).toBe(true);
    const en = await run(['replay', EXAMPLES[0]!]);
    expect(en.out.some(l => l.includes('2. Nf3 d6'))).toBe(true);
    const jsonEs = await run(['replay', EXAMPLES[1]!, '--json', '--lang', 'es']);
    const jsonEn = await run(['replay', EXAMPLES[1]!, '--json']);
    expect(jsonEs.out).toEqual(jsonEn.out);
    const bad = await run(['replay', EXAMPLES[0]!, '--lang', 'xx']);
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toContain('--lang: no catalog for "xx" (en, es)');
  });

  it('prints every move and the checkmate with its article (Opera game, E23)', async () => {
    const { code, out } = await run(['replay', EXAMPLES[0]!, '--json']);
    expect(code).toBe(0);
    const lines = json(out);
    // Every line a document of the wire: the game's events between its header and its summary.
    for (const line of lines) expect(checkWire('replay_line', line)).toEqual([]);
    expect(lines[0]).toMatchObject({ type: 'replay_game', game: 'opera-game.pgn#1' });
    const events = lines.slice(1, -1);
    expect(events.filter(e => e.type === 'move')).toHaveLength(33);
    expect(events.map(e => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.find(e => e.type === 'end')).toMatchObject({
      game: 'opera-game.pgn#1',
      result: '1-0',
      reason: 'checkmate',
      termination: 'normal',
      winner: 'white',
      article: '5.1.1',
      edition: 'E23',
    });
    expect(lines.at(-1)).toMatchObject({
      type: 'replay_summary',
      result: '1-0',
      recorded_result: '1-0',
      ended_at_ply: 33,
    });
  });

  it('decides repetition per edition: fivefold ends the game under E23, not under E09', async () => {
    const e23 = json((await run(['replay', EXAMPLES[1]!, '--json'])).out);
    expect(e23.find(e => e.type === 'claim')).toMatchObject({
      status: 'available',
      claim: 'threefold',
      by: 'white',
    });
    expect(e23.find(e => e.type === 'end')).toMatchObject({ reason: 'fivefold', result: '1/2-1/2' });
    expect(e23.at(-1)).toMatchObject({ type: 'replay_summary', ended_at_ply: 16 });
    const e09 = json((await run(['replay', EXAMPLES[1]!, '--json', '--edition', 'E09'])).out);
    expect(e09.find(e => e.type === 'end')).toBeUndefined();
    // From ply 8 on, every position is on its third (or later) appearance: each ply gives the
    // player to move a new claim, alternating sides.
    // Each claim comes right after the move that made it possible.
    const plyBefore = (i: number): unknown => e09.slice(0, i).findLast(e => e.type === 'move')?.ply;
    const claims = e09.flatMap((e, i) => (e.type === 'claim' ? [{ by: e.by, ply: plyBefore(i) }] : []));
    expect(claims.map(e => e.ply)).toEqual([8, 9, 10, 11, 12, 13, 14, 15, 16]);
    expect(claims.map(e => e.by)).toEqual([
      'white',
      'black',
      'white',
      'black',
      'white',
      'black',
      'white',
      'black',
      'white',
    ]);
    expect(e09.at(-1)).toMatchObject({
      type: 'replay_summary',
      result: '*',
      recorded_result: '1/2-1/2',
      ended_at_ply: null,
    });
  });

  it('ends the game on a dead position and marks later moves as after the end', async () => {
    const events = json((await run(['replay', EXAMPLES[2]!, '--json'])).out);
    expect(events.find(e => e.type === 'end')).toMatchObject({
      reason: 'dead_position',
      reason_text: 'dead position',
      result: '1/2-1/2',
    });
    // The record goes on after the end: its summary says where the rules ended it.
    expect(events.filter(e => e.type === 'move').map(e => e.ply)).toEqual([1, 2]);
    expect(events.at(-1)).toMatchObject({ type: 'replay_summary', ended_at_ply: 1, plies: 2 });
  });

  it('reports a bad game with what and where, keeps going, and exits 1', async () => {
    const text = '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 *\n\n[White "C"]\n[Black "D"]\n\n1. d4 *\n';
    const { code, out, err } = await run(['replay', 'games.pgn'], { 'games.pgn': text });
    expect(code).toBe(1);
    expect(out[0]).toBe(
      'Game 1: rejected: game 1 (A - B): illegal move 2. Ke3 (ply 3) in position rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2',
    );
    expect(out).toContain('Game 2: C - D (?)');
    expect(err).toEqual(['chessbridge: games.pgn: 1 game(s) rejected']);
  });

  it('refuses bad usage with exit code 2 and a message naming the problem', async () => {
    expect(await run([])).toMatchObject({ code: 2 });
    expect((await run(['replay'])).err[0]).toBe(
      'chessbridge replay: give at least one file (PGN, board script or game journal)',
    );
    expect((await run(['replay', 'x.pgn', '--edition', 'E15'])).err[0]).toBe(
      'chessbridge replay: --edition: unknown edition "E15" (E97, E09, E14, E17, E18, E23)',
    );
    expect((await run(['fly'])).code).toBe(2);
    const missing = await run(['replay', 'no-such-file.pgn']);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/^chessbridge: cannot read no-such-file\.pgn: /);
  });

  it('replays the shipped examples as text, under the edition asked for', async () => {
    const e23 = await run(['replay', '--examples']);
    expect(e23.code).toBe(0);
    expect(
      e23.out.some(l => /game over by fivefold repetition, 1\/2-1\/2 \[E23 art\. 9\.6\.1\]/.test(l)),
    ).toBe(true);
    const e09 = await run(['replay', '--examples', '--edition', 'E09']);
    expect(e09.out.some(l => /game over by checkmate, 1-0 \[E09 art\. 5\.1\.a\]/.test(l))).toBe(true);
    expect(e09.out).toContain('--- opera-game.pgn');
  });

  it('sends journals and board scripts to their replays, PGN files to the rules replay', async () => {
    const journals: string[] = [];
    const scripts: string[] = [];
    const { code, out } = await run(
      ['replay', EXAMPLES[0]!, 'journal/games/r1-b3.jsonl', 'test/scenarios', '--json'],
      {},
      {
        replayJournals: (paths, json) => {
          journals.push(...paths, String(json));
          return Promise.resolve(0);
        },
        replayScripts: paths => {
          scripts.push(...paths);
          return Promise.resolve(1);
        },
      },
    );
    expect(journals).toEqual(['journal/games/r1-b3.jsonl', 'true']);
    expect(scripts).toEqual(['test/scenarios']);
    expect(out.length).toBeGreaterThan(30);
    expect(code).toBe(1);
  });

  it('sends every file to the capture replay with --driver, with the Laws asked for', async () => {
    const calls: unknown[] = [];
    const replayCaptures: CliIo['replayCaptures'] = (paths, request) => {
      calls.push([paths, request]);
      return Promise.resolve(0);
    };
    const r = await run(
      ['replay', '--driver', 'dgt', 'a.cap', 'b.pgn', '--type', 'blitz'],
      {},
      { replayCaptures },
    );
    expect(r.code).toBe(0);
    expect(calls).toEqual([
      [
        ['a.cap', 'b.pgn'],
        { driver: 'dgt', json: false, edition: 'E23', gameType: 'blitz', supervision: 'full' },
      ],
    ]);
    for (const argv of [
      ['replay', '--driver', 'serial', 'a.cap'],
      ['replay', '--driver', 'dgt'],
      ['replay', '--driver', 'dgt', '--examples'],
    ]) {
      const bad = await run(argv, {}, { replayCaptures });
      expect(bad.code, argv.join(' ')).toBe(2);
      expect(bad.err[0], argv.join(' ')).toMatch(/^chessbridge replay: /);
    }
    expect(calls).toHaveLength(1);
  });
});

describe('chessbridge run, demo, check, ports', () => {
  it('runs the daemon with -c FILE, --config=FILE or $CHESSBRIDGE_CONFIG', async () => {
    const started: string[] = [];
    const runDaemon = (path: string) => {
      started.push(path);
      return Promise.resolve(0);
    };
    expect((await run(['run', '-c', 'venue.yaml'], {}, { runDaemon })).code).toBe(0);
    expect((await run(['run', '--config=hall.yaml'], {}, { runDaemon })).code).toBe(0);
    expect(
      (await run(['run'], {}, { runDaemon, env: { CHESSBRIDGE_CONFIG: '/etc/chessbridge.yaml' } })).code,
    ).toBe(0);
    expect(started).toEqual(['venue.yaml', 'hall.yaml', '/etc/chessbridge.yaml']);
    const bad = await run(['run'], {}, { runDaemon });
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe('chessbridge run: give the configuration file: chessbridge run -c FILE');
  });

  it('starts the demo with its options, and refuses bad ones with exit code 2', async () => {
    const asked: DemoRequest[] = [];
    const runDemo = (r: DemoRequest) => {
      asked.push(r);
      return Promise.resolve(0);
    };
    expect((await run(['demo'], {}, { runDemo })).code).toBe(0);
    expect(
      (await run(['demo', '--boards', '10', '--speed', '2.5', '--once', '--delay', '0'], {}, { runDemo }))
        .code,
    ).toBe(0);
    expect(asked).toEqual([
      { boards: 4, speed: 1, once: false, rounds: undefined, seed: 1, delayMinutes: 1 },
      { boards: 10, speed: 2.5, once: true, rounds: undefined, seed: 1, delayMinutes: 0 },
    ]);
    const bad = await run(['demo', '--boards', 'many'], {}, { runDemo });
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe('chessbridge demo: --boards: "many" is not a valid value');
    expect((await run(['demo', '--fast'], {}, { runDemo })).err[0]).toBe(
      'chessbridge demo: unknown option --fast',
    );
  });

  it('check prints every problem as path: problem and exits 1, or a summary and 0', async () => {
    const check = (path: string) =>
      Promise.resolve(
        path === 'bad.yaml'
          ? {
              problems: [
                'laws.edition: unknown edition "E22" (line 3)',
                'http.port: expected a whole number (line 7)',
              ],
              summary: '',
              warnings: [],
            }
          : {
              problems: [],
              summary: 'valid: 1 boards',
              warnings: ['CHESSBRIDGE_MQTT_ULR names no configuration field'],
            },
      );
    const bad = await run(['check', 'bad.yaml'], {}, { check });
    expect(bad.code).toBe(1);
    expect(bad.err).toEqual([
      'bad.yaml: 2 problems',
      '  laws.edition: unknown edition "E22" (line 3)',
      '  http.port: expected a whole number (line 7)',
    ]);
    const good = await run(['check', 'good.yaml'], {}, { check });
    expect(good).toMatchObject({ code: 0, out: ['good.yaml: valid: 1 boards'] });
    expect(good.err).toEqual(['warning: CHESSBRIDGE_MQTT_ULR names no configuration field']);
    expect((await run(['check'], {}, { check })).code).toBe(2);
  });

  it('broker-config needs -c FILE and --out DIR, prints the conf or every problem', async () => {
    const calls: [string, string][] = [];
    const brokerConfig = (path: string, out: string) => {
      calls.push([path, out]);
      return Promise.resolve(
        path === 'bad.yaml'
          ? { ok: false as const, problems: ["mqtt.username: give the daemon's own account at the broker"] }
          : { ok: true as const, lines: ['per_listener_settings true'] },
      );
    };
    expect((await run(['broker-config', '-c', 'hall.yaml'], {}, { brokerConfig })).code).toBe(2);
    expect((await run(['broker-config', '--out', 'dir'], {}, { brokerConfig })).code).toBe(2);
    expect(calls).toEqual([]);
    const good = await run(['broker-config', '-c', 'hall.yaml', '--out', 'dir'], {}, { brokerConfig });
    expect(good).toMatchObject({ code: 0, out: ['per_listener_settings true'] });
    const bad = await run(['broker-config', '--config=bad.yaml', '--out=dir'], {}, { brokerConfig });
    expect(bad.code).toBe(1);
    expect(bad.err).toEqual([
      'bad.yaml: 1 problem',
      "  mqtt.username: give the daemon's own account at the broker",
    ]);
    expect(calls).toEqual([
      ['hall.yaml', 'dir'],
      ['bad.yaml', 'dir'],
    ]);
  });

  it('ports passes the paths and options on and prints the report', async () => {
    const calls: unknown[] = [];
    const ports = (paths: readonly string[], probe: boolean, timeoutMs: number | undefined) => {
      calls.push([paths, probe, timeoutMs]);
      return Promise.resolve([
        '1 serial port given, probed for DGT boards:',
        '  /dev/x  no answer within 500 ms',
      ]);
    };
    const r = await run(['ports', '/dev/x', '--timeout', '500'], {}, { ports });
    expect(r).toMatchObject({
      code: 0,
      out: ['1 serial port given, probed for DGT boards:', '  /dev/x  no answer within 500 ms'],
    });
    expect(calls).toEqual([[['/dev/x'], true, 500]]);
    await run(['ports', '--no-probe'], {}, { ports });
    expect(calls[1]).toEqual([[], false, 1500]);
  });

  it('has --help everywhere, on stdout with exit code 0', async () => {
    for (const command of ['run', 'demo', 'check', 'ports', 'replay', 'simulate']) {
      const r = await run([command, '--help']);
      expect(r.code, command).toBe(0);
      expect(r.out[0], command).toMatch(new RegExp(`^usage: chessbridge ${command}`));
    }
    expect((await run(['help', 'demo'])).out[0]).toMatch(/^usage: chessbridge demo/);
    expect((await run(['--help'])).out[0]).toMatch(/^usage: chessbridge <command>/);
    expect((await run(['--help'])).out.some(l => /^ {2}simulate {13}/.test(l))).toBe(true);
  });

  it('starts the simulator with its options, and refuses a bad one with exit code 2', async () => {
    const asked: SimulateRequest[] = [];
    const runSimulate = (r: SimulateRequest) => {
      asked.push(r);
      return Promise.resolve(0);
    };
    const ok = await run(
      ['simulate', '--boards', '4', '--games', 'g.pgn', '--link-max'],
      {},
      { runSimulate },
    );
    expect(ok.code).toBe(0);
    expect(asked).toMatchObject([{ boards: 4, games: 'g.pgn', linkMax: true, speed: 1, once: false }]);
    const bad = await run(
      ['simulate', '--boards', '4', '--games', 'g.pgn', '--bus', 'x'],
      {},
      { runSimulate },
    );
    expect(bad.code).toBe(2);
    expect(bad.err[0]).toBe(
      'chessbridge simulate: --bus: "x" is not a valid value (a whole number from 2 to 64)',
    );
    expect(await run(['simulate', '--boards', '4', '--games', 'g.pgn'])).toMatchObject({
      code: 1,
      err: ['chessbridge simulate: not available in this build'],
    });
  });
});
