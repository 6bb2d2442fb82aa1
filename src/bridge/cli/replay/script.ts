/**
 * `chessbridge replay FILE|DIR... --json` for board scripts: reads each script (a folder gives
 * every `.cbs` file below it, in name order), runs it through the supervisor under each edition it
 * names, and prints one line per game event: JSON (the event messages of the wire, docs/wire.md, the
 * game named after the file) or a readable digest naming file and edition (in English, or in the
 * language of `lang`). A script that cannot be read is reported with
 * its file and line; events that differ from the script's expected lines are reported too. File
 * access is injected so tests need no disk.
 *
 *   const code = await replayScripts(['test/scenarios'], { json: true }, nodeScriptIo, console.log, console.error);
 *   // {"game":"test/scenarios/s01.cbs","seq":2,"at":200,"type":"move","ply":1,"san":"e4",...}
 */
import { readFile, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GameEvent } from '../../../engine/events.js';
import { makeDigest, parseScript, runScript } from '../../../engine/script/index.js';
import { makeEventMessage } from '../../wire/events.js';
import type { EventMessage } from '../../wire/schema.js';
import { DEFAULT_LANG } from '../../i18n/messages.js';
import { describeEvent } from './journal.js';

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
  /**
   * The language of the readable digests (default English, the engine's own digest); in another
   * language each event is rendered from its fields and sentences, as a journal's replay is.
   */
  readonly lang?: string;
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

/**
 * A game event of a script's run as a line of the wire: the event message of MQTT (docs/wire.md),
 * its game named after the script, and after the edition too when the script runs under several.
 */
export const makeEventLine = (game: string, e: GameEvent): EventMessage => makeEventMessage({ ...e, game });

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
    const lang = options.lang ?? DEFAULT_LANG;
    const digest = (e: GameEvent): string => (lang === DEFAULT_LANG ? makeDigest(e) : describeEvent(e, lang));
    for (const run of runs) {
      const game = runs.length > 1 ? `${file}@${run.edition}` : file;
      for (const e of run.events) {
        out(
          options.json
            ? JSON.stringify(makeEventLine(game, e))
            : `${file} [${run.edition}] #${e.seq} @${e.at} ${digest(e)}`,
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
