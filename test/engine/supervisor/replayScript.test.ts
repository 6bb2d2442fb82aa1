/**
 * The replay runner for board scripts (`chessbridge replay FILE|DIR... --json`): folders give
 * their .cbs files in name order, each JSON line is a wire event naming its file, a bad line is an
 * error with the file and line, and differences from the expected lines set the exit code.
 */
import { describe, expect, it } from 'vitest';
import { type ScriptIo, replayScripts } from '../../../src/bridge/cli/replay/script.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';

const memoryIo = (files: Record<string, string>): ScriptIo => ({
  readText: path => {
    const text = files[path];
    return text === undefined ? Promise.reject(new Error(`no such file ${path}`)) : Promise.resolve(text);
  },
  listDir: path => {
    if (files[path] !== undefined) return Promise.resolve(undefined);
    const names = Object.keys(files)
      .filter(f => f.startsWith(`${path}/`))
      .map(f => f.slice(path.length + 1).split('/')[0] ?? '');
    return Promise.resolve([...new Set(names)]);
  },
});

const replay = async (paths: string[], files: Record<string, string>, json = true) => {
  const out: string[] = [];
  const err: string[] = [];
  const code = await replayScripts(
    paths,
    { json },
    memoryIo(files),
    l => out.push(l),
    l => err.push(l),
  );
  return { code, out, err };
};

const GOOD = '@edition E23\n0 e2 -\n200 e4 P\n> move 1 e4\n';

describe('replayScripts', () => {
  it('prints one JSON event per line naming its file', async () => {
    const r = await replay(['s/a.cbs'], { 's/a.cbs': GOOD });
    expect(r.code).toBe(0);
    expect(r.err).toEqual([]);
    const line = JSON.parse(r.out[0] ?? '{}') as Record<string, unknown>;
    expect(checkWire('event', line)).toEqual([]);
    expect(line).toMatchObject({
      game: 's/a.cbs',
      type: 'move',
      seq: 1,
      ply: 1,
      san: 'e4',
      uci: 'e2e4',
    });
    expect(typeof line.fen).toBe('string');
  });

  it('takes a folder (its .cbs files in order) and several paths', async () => {
    const files = { 'd/b.cbs': GOOD, 'd/a.cbs': GOOD, 'd/notes.txt': 'x', 'e.cbs': GOOD };
    const r = await replay(['d', 'e.cbs'], files);
    expect(r.out.map(l => (JSON.parse(l) as { game: string }).game)).toEqual(['d/a.cbs', 'd/b.cbs', 'e.cbs']);
  });

  it('a bad line is an error naming the file and line; the other files still run', async () => {
    const r = await replay(['bad.cbs', 'a.cbs'], { 'bad.cbs': '@edition E23\n0 e9 -\n', 'a.cbs': GOOD });
    expect(r.code).toBe(1);
    expect(r.err).toEqual(['bad.cbs:2: bad square "e9"']);
    expect(r.out).toHaveLength(1);
  });

  it('events that differ from the expected lines set exit code 1', async () => {
    const r = await replay(['a.cbs'], { 'a.cbs': GOOD.replace('move 1 e4', 'move 1 d4') }, false);
    expect(r.code).toBe(1);
    expect(r.out).toEqual(['a.cbs [E23] #1 @200 move 1 e4']);
    expect(r.err[0]).toContain('line 4');
  });
});
