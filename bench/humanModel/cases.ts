/**
 * Failing runs of the handling check as files that replay: the game, seed, dwell level and clock
 * mode that made them, the supervisor inputs themselves, each ply's handling trace and what went
 * wrong. A case replays without the PGN corpus (`npx tsx bench/humanCheck.ts --replay FILE`).
 *
 *   writeCase(dir, { ...case }); const c = readCase('bench/humanModel/cases/x.json');
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SupervisorInput } from '../../src/engine/events.js';
import type { PlyTrace } from './play.js';

export interface FailureCase {
  readonly file: string;
  readonly game: number;
  readonly seed: number;
  readonly dwell: string;
  readonly clock: boolean;
  readonly rates: string;
  readonly startFen: string;
  readonly want: { readonly sans: readonly string[]; readonly end: string | undefined };
  /** The failure's class (kind and the handling of the ply it happened on). */
  readonly kind: string;
  readonly problems: readonly string[];
  readonly plies: readonly PlyTrace[];
  readonly inputs: readonly SupervisorInput[];
}

/** A file name for a case (no directory). */
export const caseName = (c: Pick<FailureCase, 'file' | 'game' | 'seed' | 'dwell' | 'clock'>): string =>
  `${c.file.replace(/[/\\]/g, '_').replace(/\.pgn$/, '')}-g${c.game}-s${c.seed}-d${c.dwell}${c.clock ? '' : '-noclock'}.json`;

export const writeCase = (dir: string, c: FailureCase): string => {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, caseName(c));
  writeFileSync(path, `${JSON.stringify(c, null, 1)}\n`);
  return path;
};

/** Reads a case file; throws a TypeError naming the file when it is not one. */
export const readCase = (path: string): FailureCase => {
  const data = JSON.parse(readFileSync(path, 'utf8')) as Partial<FailureCase>;
  if (
    !Array.isArray(data.inputs) ||
    !Array.isArray(data.plies) ||
    typeof data.startFen !== 'string' ||
    !data.want
  )
    throw new TypeError(`${path}: not a handling case (needs inputs, plies, startFen, want)`);
  return data as FailureCase;
};
