/**
 * Runs pgn-extract, a real and independent PGN program, as an oracle for the corpus tests and the
 * benchmark. Debian installs it in /usr/games, which is often not on PATH; it exits 0 even when a
 * game fails, so its error log is read and returned.
 *
 *   const out = runPgnExtract(['--json', '-F'], pgnFile);
 *   out.games[0]?.plyCount; out.errors; // lines of its log
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodePgnBytes } from '../../src/engine/pgnRead.js';

const CANDIDATES = ['/usr/games/pgn-extract', '/usr/bin/pgn-extract', '/usr/local/bin/pgn-extract'];

/** Path of the pgn-extract binary, or undefined when it is not installed. */
export const findPgnExtract = (): string | undefined => {
  const env = process.env.PGN_EXTRACT;
  if (env !== undefined && existsSync(env)) return env;
  return CANDIDATES.find(p => existsSync(p));
};

export interface ExtractedGame {
  readonly tags: Record<string, string>;
  readonly plies: number;
  /** FEN after the last move; undefined for a game without moves. */
  readonly finalFen: string | undefined;
}

export interface ExtractResult {
  readonly games: ExtractedGame[];
  /** Non-empty lines of pgn-extract's error log. */
  readonly errors: string[];
}

/** Splits pgn-extract's PGN output into games: tags, PlyCount and the final FEN comment. */
export const parseExtractOutput = (text: string): ExtractedGame[] => {
  const games: ExtractedGame[] = [];
  let tags: Record<string, string> | undefined;
  let movetext = '';
  const flush = (): void => {
    if (!tags) return;
    const fen = /\{\s*"([^"]+)"\s*\}/.exec(movetext)?.[1];
    games.push({ tags, plies: Number(tags.PlyCount ?? NaN), finalFen: fen });
    tags = undefined;
    movetext = '';
  };
  for (const line of text.split(/\r?\n/)) {
    const tag = /^\[(\w+)\s+"(.*)"\]\s*$/.exec(line);
    if (tag) {
      if (movetext.trim() !== '') flush();
      tags ??= {};
      tags[tag[1]!] = tag[2]!.replace(/\\(["\\])/g, '$1');
    } else if (tags) {
      movetext += `${line}\n`;
    }
  }
  flush();
  return games;
};

/** Reads every game of `file` with pgn-extract and returns its view: plies and final position. */
export const extractGames = (file: string): ExtractResult => {
  const bin = findPgnExtract();
  if (!bin) throw new Error('pgn-extract is not installed (Debian package pgn-extract; .ci/run installs it)');
  const dir = mkdtempSync(join(tmpdir(), 'pgnx-'));
  try {
    const log = join(dir, 'log.txt');
    const out = join(dir, 'out.pgn');
    execFileSync(
      bin,
      ['-C', '-N', '-V', '-F', '--plycount', '--nofauxep', '-s', '-w', '1000', '-l', log, '-o', out, file],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    const games = existsSync(out) ? parseExtractOutput(decodePgnBytes(readFileSync(out))) : [];
    const errors = existsSync(log)
      ? readFileSync(log, 'latin1')
          .split('\n')
          .filter(l => l.trim() !== '')
      : [];
    return { games, errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
