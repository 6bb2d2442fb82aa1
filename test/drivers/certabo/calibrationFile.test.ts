/**
 * The Certabo calibration file store on a real temporary folder: a missing file is "nothing
 * stored yet", a saved table loads back equal, a broken or foreign file is an error naming the
 * path and the problem, and a folder that cannot be made is a save error, not an exception.
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CertaboEmulator } from '../../../src/drivers/certabo/emulator.js';
import { fileCalibrationStore } from '../../../src/drivers/certabo/calibrationFile.js';

const dirs: string[] = [];
const tempDir = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'chessbridge-cal-'));
  dirs.push(d);
  return d;
};

afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const resolved = async <T>(v: T | Promise<T>): Promise<T> => v;

describe('fileCalibrationStore', () => {
  it('a missing file loads as ok(undefined)', async () => {
    const store = fileCalibrationStore(join(tempDir(), 'none.json'));
    const r = await resolved(store.load());
    expect(r.isOk && r.value).toBeUndefined();
  });

  it('saves into a new folder, leaves no temporary file, and loads the same table back', async () => {
    const dir = tempDir();
    const path = join(dir, 'venue', 'board-3.json');
    const store = fileCalibrationStore(path);
    const table = new CertaboEmulator().calibration;
    expect((await resolved(store.save(table))).isOk).toBe(true);
    expect(readdirSync(join(dir, 'venue'))).toEqual(['board-3.json']);
    const back = await resolved(fileCalibrationStore(path).load());
    expect(back.isOk && back.value).toEqual(table);
  });

  it('a broken file is an error naming the path and the problem', async () => {
    const path = join(tempDir(), 'broken.json');
    writeFileSync(path, '{"version": 2, "pieces": {}}');
    const r = await resolved(fileCalibrationStore(path).load());
    expect(r.isErr && r.error.message).toMatch(/broken\.json is not valid: calibration: version 2/);
    writeFileSync(path, 'not json');
    const r2 = await resolved(fileCalibrationStore(path).load());
    expect(r2.isErr && r2.error.message).toMatch(/not JSON/);
  });

  it('a folder that cannot be made gives a save error', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    const r = await resolved(
      fileCalibrationStore(join(dir, 'file', 'sub', 'c.json')).save(new CertaboEmulator().calibration),
    );
    expect(r.isErr && r.error.message).toMatch(/cannot save the calibration file .*c\.json/);
  });
});
