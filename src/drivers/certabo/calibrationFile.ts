/**
 * A Certabo calibration kept in a JSON file on this machine (reference §2.6 step 6: one table
 * per board), as a `CalibrationStore` for the Certabo session. Loading a missing file is "no
 * calibration yet"; a file that cannot be read or parsed is an error that names the path and the
 * problem. Saving writes a temporary file next to it and renames it over the old one, so a crash
 * never leaves half a table behind; the folder is created when missing.
 *
 *   const store = fileCalibrationStore('/var/lib/chessbridge/certabo-board-7.json');
 *   certaboSession$(port, { calibration: store }); // loads it, saves what it learns
 *   (await store.load()).unwrap(); // Calibration | undefined
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Result } from '@badrap/result';
import { makeCalibrationJson, parseCalibration } from './calibration.js';
import type { CalibrationStore } from './sessionCalibration.js';

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const codeOf = (e: unknown): string | undefined =>
  typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string' ? e.code : undefined;

export const fileCalibrationStore = (path: string): CalibrationStore => ({
  location: path,
  load: async () => {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (e) {
      if (codeOf(e) === 'ENOENT') return Result.ok(undefined);
      return Result.err(new Error(`cannot read the calibration file ${path}: ${message(e)}`));
    }
    const parsed = parseCalibration(text);
    return parsed.isOk
      ? Result.ok(parsed.value)
      : Result.err(new Error(`the calibration file ${path} is not valid: ${parsed.error.message}`));
  },
  save: async calibration => {
    const tmp = `${path}.${process.pid}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(tmp, makeCalibrationJson(calibration), 'utf8');
      await rename(tmp, path);
      return Result.ok(true);
    } catch (e) {
      await rm(tmp, { force: true }).catch(() => undefined);
      return Result.err(new Error(`cannot save the calibration file ${path}: ${message(e)}`));
    }
  },
});
