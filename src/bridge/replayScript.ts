/**
 * `chessbridge replay FILE|DIR... --json` for board scripts: reads each script (a folder gives
 * every `.cbs` file below it, in name order), runs it through the supervisor under each edition it
 * names, and prints one line per game event naming its file: JSON (type, seq, ply, san, uci, fen,
 * code, article, detail, ...) or a readable digest. A script that cannot be read is reported with
 * its file and line; events that differ from the script's expected lines are reported too. File
 * access is injected so tests need no disk.
 *
 *   const code = await replayScripts(['test/scenarios'], { json: true }, nodeScriptIo, console.log, console.error);
 *   // {"file":"test/scenarios/s01.cbs","edition":"E23","type":"move","seq":2,"at":200,"ply":1,"san":"e4",...}
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GameEvent } from '../engine/events.js';
import { makeDigest, parseScript, runScript } from '../engine/script/index.js';
import type { Edition } from '../engine/types.js';

/** File access for the runner. */
export interface ScriptIo {
  readText(path: string): Promise<string>;
  /** The entries of a folder (names), or undefined when `path` is a file. */
  listDir(path: string): Promise<readonly string[] | undefined>;
}

export const nodeScriptIo: ScriptIo = {
  readText: path => readFile(path, 'utf8'),
  listDir: async path => ((await stat(path)).isDirectory() ? readdir(path) : undefined),
};

export interface ReplayScriptOptions {
  /** One JSON object per line (default: readable digests). */
  readonly json: boolean;
}

/** Every script file named by `paths` (folders searched for `.cbs` files, sorted). */
export const collectScripts = async (paths: readonly string[], io: ScriptIo): Promise<string[]> => {
  const out: string[] = [];
  const walk = async (path: string, top: boolean): Promise<void> => {
    const entries = await io.listDir(path);
    if (entries === undefined) {
      if (top || path.endsWith('.cbs')) out.push(path);
      return;
    }
    for (const name of [...entries].sort()) await walk(join(path, name), false);
  };
  for (const p of paths) await walk(p, true);
  return out;
};

/** A game event as a flat JSON-ready object naming its file and edition. */
export const makeEventLine = (file: string, edition: Edition, e: GameEvent): Record<string, unknown> => {
  const base: Record<string, unknown> = { file, edition, type: e.type, seq: e.seq, at: e.at };
  switch (e.type) {
    case 'move':
      return {
        ...base,
        ply: e.ply,
        san: e.san,
        uci: e.uci,
        fen: e.fen,
        ...(e.clocks ? { clocks: e.clocks } : {}),
      };
    case 'correction':
      return {
        ...base,
        fromPly: e.fromPly,
        reason: e.reason,
        moves: e.moves.map(m => ({ ply: m.ply, san: m.san, uci: m.uci, fen: m.fen })),
      };
    case 'clock':
      return { ...base, whiteMs: e.whiteMs, blackMs: e.blackMs, running: e.running ?? null };
    case 'alert':
      return {
        ...base,
        code: e.code,
        article: e.article.article,
        ...(e.color ? { color: e.color } : {}),
        detail: e.detail,
        ...(e.evidence?.squares ? { squares: e.evidence.squares } : {}),
        ...(e.evidence?.move ? { move: e.evidence.move } : {}),
        ...(e.grade ? { grade: e.grade } : {}),
        ...(e.ply !== undefined ? { ply: e.ply } : {}),
        ...(e.claimed ? { claimed: true } : {}),
      };
    case 'alert-withdrawn':
      return { ...base, alert: e.alert, code: e.code, reason: e.reason };
    case 'finding':
      return {
        ...base,
        ply: e.ply,
        code: e.code,
        article: e.article.article,
        color: e.color,
        grade: e.grade,
        breach: e.breach,
        detail: e.detail,
      };
    case 'claim':
      return {
        ...base,
        by: e.by,
        claim: e.claim,
        status: e.status,
        article: e.article.article,
        ...(e.detail ? { detail: e.detail } : {}),
      };
    case 'offer':
      return { ...base, by: e.by, status: e.status, ...(e.article ? { article: e.article.article } : {}) };
    case 'end':
      return {
        ...base,
        result: e.result,
        reason: e.reason,
        article: e.article.article,
        ...(e.winner ? { winner: e.winner } : {}),
      };
  }
};

/**
 * Replays the scripts, writing event lines to `out` and problems to `err`. Returns the exit code:
 * 0 all ran as expected, 1 a script could not be read or its events differ from its expected lines.
 */
export const replayScripts = async (
  paths: readonly string[],
  options: ReplayScriptOptions,
  io: ScriptIo,
  out: (line: string) => void,
  err: (line: string) => void,
): Promise<number> => {
  let code = 0;
  let files: string[];
  try {
    files = await collectScripts(paths, io);
  } catch (e) {
    err(`chessbridge replay: ${(e as Error).message}`);
    return 1;
  }
  for (const file of files) {
    let text: string;
    try {
      text = await io.readText(file);
    } catch (e) {
      err(`${file}: ${(e as Error).message}`);
      code = 1;
      continue;
    }
    const parsed = parseScript(text, file);
    if (parsed.isErr) {
      err(parsed.error.message);
      code = 1;
      continue;
    }
    let runs;
    try {
      runs = runScript(parsed.value);
    } catch (e) {
      err((e as Error).message);
      code = 1;
      continue;
    }
    for (const run of runs) {
      for (const e of run.events) {
        out(
          options.json
            ? JSON.stringify(makeEventLine(file, run.edition, e))
            : `${file} [${run.edition}] #${e.seq} @${e.at} ${makeDigest(e)}`,
        );
      }
      for (const f of run.failures) {
        err(f);
        code = 1;
      }
    }
  }
  return code;
};
