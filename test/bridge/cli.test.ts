import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../src/bridge/cli.js';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';
import { EXAMPLES } from '../../src/main.js';

const run = async (argv: string[], files: Record<string, string> = {}) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
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
  it('prints every move and the checkmate with its article (Opera game, E23)', async () => {
    const { code, out } = await run(['replay', EXAMPLES[0]!, '--json']);
    expect(code).toBe(0);
    const events = json(out);
    expect(events.filter(e => e.type === 'move')).toHaveLength(33);
    expect(events.map(e => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.find(e => e.type === 'end')).toMatchObject({
      ply: 33,
      result: '1-0',
      reason: 'checkmate',
      winner: 'white',
      article: { edition: 'E23', article: '5.1.1' },
    });
    expect(events.at(-1)).toMatchObject({ type: 'summary', result: '1-0', recordedResult: '1-0' });
  });

  it('decides repetition per edition: fivefold ends the game under E23, not under E09', async () => {
    const e23 = json((await run(['replay', EXAMPLES[1]!, '--json'])).out);
    expect(e23.find(e => e.type === 'claimable')).toMatchObject({ ply: 8, claim: 'threefold', by: 'white' });
    expect(e23.find(e => e.type === 'end')).toMatchObject({ ply: 16, reason: 'fivefold', result: '1/2-1/2' });
    const e09 = json((await run(['replay', EXAMPLES[1]!, '--json', '--edition', 'E09'])).out);
    expect(e09.find(e => e.type === 'end')).toBeUndefined();
    // From ply 8 on, every position is on its third (or later) appearance: each ply gives the
    // player to move a new claim, alternating sides.
    const claims = e09.filter(e => e.type === 'claimable');
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
    expect(e09.at(-1)).toMatchObject({ type: 'summary', result: '*', recordedResult: '1/2-1/2' });
  });

  it('ends the game on a dead position and marks later moves as after the end', async () => {
    const events = json((await run(['replay', EXAMPLES[2]!, '--json'])).out);
    expect(events.find(e => e.type === 'end')).toMatchObject({
      ply: 1,
      reason: 'deadPosition',
      result: '1/2-1/2',
    });
    expect(events.filter(e => e.type === 'move').map(e => e.afterEnd)).toEqual([undefined, true]);
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
    expect((await run(['replay'])).err).toEqual(['chessbridge replay: give exactly one PGN file']);
    expect((await run(['replay', 'x.pgn', '--edition', 'E15'])).err[0]).toBe(
      'chessbridge replay: --edition: unknown edition "E15" (E97, E09, E14, E17, E18, E23)',
    );
    expect((await run(['fly'])).code).toBe(2);
    const missing = await run(['replay', 'no-such-file.pgn']);
    expect(missing.code).toBe(1);
    expect(missing.err[0]).toMatch(/^chessbridge: cannot read no-such-file\.pgn: /);
  });

  it('demo replays the examples under E23 and E09 as text', async () => {
    const { code, out } = await run(['demo']);
    expect(code).toBe(0);
    expect(out).toContain('=== Example games under the E23 Laws of Chess (standard) ===');
    expect(out.some(l => /game over by fivefold repetition, 1\/2-1\/2 \[E23 art\. 9\.6\.1\]/.test(l))).toBe(
      true,
    );
    expect(out.some(l => /game over by checkmate, 1-0 \[E09 art\. 5\.1\.a\]/.test(l))).toBe(true);
  });
});
