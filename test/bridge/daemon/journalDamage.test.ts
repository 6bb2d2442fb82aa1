/**
 * The daemon's part of journal damage (src/bridge/daemon/journalDamage.ts): what the arbiter is
 * told at a restart, in one alert of the wire's shape, and the journaled note that keeps a later
 * restart from telling the same ranges again. The daemon runs it in
 * test/integration/journalDamage.test.ts.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/bridge/config/index.js';
import type { GameRegistry } from '../../../src/bridge/daemon/games.js';
import type { DaemonOutputs } from '../../../src/bridge/daemon/outputs.js';
import { restoreGames } from '../../../src/bridge/daemon/restore.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { JournalStore } from '../../../src/bridge/journal/index.js';
import type { Logger } from '../../../src/bridge/logger.js';
import type { DamagedRange, JournalRecord } from '../../../src/bridge/journal/index.js';
import {
  damageAlert,
  damageNote,
  damageReport,
  describeReport,
} from '../../../src/bridge/daemon/journalDamage.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';

const RANGE: DamagedRange = {
  file: 'journal/games/r1-b1.jsonl',
  fromLine: 21,
  toLine: 21,
  offset: 7012,
  bytes: 348,
  afterSeq: 19,
  nextSeq: 21,
  detail: 'not JSON',
  preview: '',
};

describe('journal damage found at a restart', () => {
  it('is told in words: where, what was lost, what was kept', () => {
    const report = damageReport('r1-b1', [RANGE], undefined, []);
    expect(report).toBeDefined();
    expect(describeReport(report!, 54)).toBe(
      'journal of game r1-b1 damaged: journal/games/r1-b1.jsonl: line 21 (348 bytes at offset 7012) ' +
        'damaged: not JSON; record seq 20 lost. 54 records kept, 1 lost; the game goes on from what ' +
        'was kept: check it against the scoresheet',
    );
  });

  it('makes one alert of the wire shape', () => {
    const report = damageReport('r1-b1', [RANGE], undefined, [])!;
    const alert = damageAlert(report, {
      text: 'x',
      kept: 54,
      at: 1_700_000_000_000,
      seq: 0,
      ply: 16,
      board: 'b-1',
    });
    expect(alert).toMatchObject({ code: 'journal_damaged', game: 'r1-b1', seq: 1, ply: 16, board: 'b-1' });
    // The words for a reader of another language, from the counts.
    expect(alert.text).toEqual([{ key: 'journal.damaged', params: { count: 54, lost: 1 } }]);
    expect(checkWire('alert', alert)).toEqual([]);
  });

  it('is not told again once the journal notes it; a new range is', () => {
    const note = damageNote(damageReport('r1-b1', [RANGE], undefined, [])!, 5000);
    const noted = [{ ...note, seq: 60, wall: 0 } as JournalRecord];
    expect(damageReport('r1-b1', [RANGE], undefined, noted)).toBeUndefined();
    const other: DamagedRange = { ...RANGE, offset: 9000, afterSeq: 30, nextSeq: 33 };
    expect(damageReport('r1-b1', [RANGE, other], undefined, noted)?.ranges).toEqual([other]);
  });

  it('a tail cut off that the log did not make good is told too', () => {
    const tail = { file: 'journal/games/r1-b1.jsonl', line: 0, offset: 9100, bytes: 25, preview: '' };
    const report = damageReport('r1-b1', [], tail, []);
    expect(report).toBeDefined();
    expect(describeReport(report!, 40)).toContain(
      'the last 25 bytes (from offset 9100) did not read as records',
    );
  });
});

describe('a journal whose header is damaged', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('is left to the arbiter, and its pairing counts as played so the board goes on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chessbridge-header-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'games'), { recursive: true });
    writeFileSync(
      join(dir, 'games', 'r1-b2.jsonl'),
      '{"type":"hea\u00ff\u00ffr"}\n{"seq":1,"wall":1,"type":"finish","at":1,"result":"*","reason":"x"}\n',
    );
    const store = new JournalStore({ dir });
    const report = (await store.start()).unwrap();
    const marked: string[] = [];
    const errors: string[] = [];
    const quiet = (): void => undefined;
    await restoreGames(report, {
      dir,
      games: { markFinished: (ids: Iterable<string>) => marked.push(...ids) } as unknown as GameRegistry,
      engine: engineSupervisor(),
      outputs: {} as DaemonOutputs,
      republish: () => 0,
      config: {} as Config,
      log: { error: (m: string) => errors.push(m), warn: quiet, info: quiet } as unknown as Logger,
      now: () => 0,
    });
    await store.stop();
    expect(marked).toEqual(['r1-b2']);
    expect(errors).toEqual([
      expect.stringMatching(/^game r1-b2 cannot be read: .*not a journal header.*the board goes on\)$/),
    ]);
  });
});
