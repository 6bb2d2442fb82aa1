/**
 * Locates the shared reference data (perft suites, PGN corpora) that lives beside the project
 * checkout as `../shared`. Tests read it in place; nothing is copied into the project.
 *
 *   import { sharedPath } from '../support/shared.js';
 *   const pgn = readFileSync(sharedPath('data/pgn/carlsen.pgn'), 'latin1');
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared folder: $CHESSBRIDGE_SHARED if set, else `../shared` beside the checkout. */
export const SHARED_DIR = process.env.CHESSBRIDGE_SHARED ?? resolve(ROOT, '..', 'shared');

export const sharedPath = (relative: string): string => {
  const p = join(SHARED_DIR, relative);
  if (!existsSync(p)) {
    throw new Error(`shared data missing: ${relative} (looked in ${SHARED_DIR}; set CHESSBRIDGE_SHARED)`);
  }
  return p;
};

export const PROJECT_ROOT = ROOT;
