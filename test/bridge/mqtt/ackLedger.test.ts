// The acknowledged-seq ledger: a small state file that may lag but is never ahead.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AckLedger, makeLedger, parseLedger } from '../../../src/bridge/mqtt/ackLedger.js';
import { silentLog } from '../../../src/bridge/mqtt/log.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chessbridge-ackledger-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('AckLedger', () => {
  it('starts empty without a file, records only increases, and survives a reload', async () => {
    const path = join(dir, 'state', 'acked.json');
    const ledger = new AckLedger({ path, log: silentLog });
    expect((await ledger.load()).isOk).toBe(true);
    expect(ledger.acked('g1')).toBeUndefined();
    ledger.record('g1', 5);
    ledger.record('g1', 3); // late acknowledgement of a duplicate: never lowers
    ledger.record('g2', 1);
    await ledger.stop();
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ version: 1, games: { g1: 5, g2: 1 } });

    const again = new AckLedger({ path, log: silentLog });
    const loaded = await again.load();
    expect(loaded.isOk && [...loaded.value]).toEqual([
      ['g1', 5],
      ['g2', 1],
    ]);
    again.forget('g2');
    await again.stop();
    expect(parseLedger(await readFile(path, 'utf8'))).toEqual(new Map([['g1', 5]]));
  });

  it('writes after the flush delay without an explicit flush', async () => {
    const path = join(dir, 'acked.json');
    const ledger = new AckLedger({ path, log: silentLog, flushDelayMs: 5 });
    ledger.record('g1', 2);
    const deadline = Date.now() + 2000;
    let text = '';
    while (Date.now() < deadline) {
      text = await readFile(path, 'utf8').catch(() => '');
      if (text !== '') break;
      await new Promise(resolve => setTimeout(resolve, 5));
    }
    expect(parseLedger(text)).toEqual(new Map([['g1', 2]]));
    await ledger.stop();
  });

  it.each([
    ['not JSON', '{"version":1,'],
    ['wrong version', '{"version":2,"games":{}}'],
    ['negative seq', '{"version":1,"games":{"g1":-3}}'],
    ['fractional seq', '{"version":1,"games":{"g1":1.5}}'],
  ])('reports a corrupt file (%s) and starts empty: everything is re-published', async (_name, text) => {
    const path = join(dir, 'acked.json');
    await writeFile(path, text);
    const ledger = new AckLedger({ path, log: silentLog });
    const loaded = await ledger.load();
    expect(loaded.isErr && loaded.error.kind).toBe('corrupt');
    expect(ledger.acked('g1')).toBeUndefined();
  });

  it('round-trips the file format', () => {
    const games = new Map([
      ['b', 2],
      ['a', 10],
    ]);
    expect(makeLedger(games)).toBe('{"version":1,"games":{"a":10,"b":2}}\n');
    expect(parseLedger(makeLedger(games))).toEqual(games);
  });
});
