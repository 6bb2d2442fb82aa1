import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/bridge/config/index.js';
import { nextPairing } from '../../../src/bridge/game/gameSpecs.js';
import { inlinePairings, parsePairingsFile } from '../../../src/bridge/pairings/fromFile.js';
import { trfPlayerLine } from '../../support/trf.js';

/** Four players: round 1 played (1 beat 3, 2 and 4 drew), round 2 paired and not played yet. */
const TRF = [
  '012 Open de Primavera',
  trfPlayerLine({
    rank: 1,
    title: 'g',
    name: 'Alpha, Anna',
    rating: '2500',
    fed: 'ESP',
    id: '2200001',
    rounds: [
      ['3', 'w', '1'],
      ['2', 'b', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 2,
    title: 'm',
    name: 'Bravo, Ben',
    rating: '2400',
    fed: 'ARG',
    rounds: [
      ['4', 'b', '='],
      ['1', 'w', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 3,
    name: 'Charlie, Cid',
    rating: '2300',
    rounds: [
      ['1', 'b', '0'],
      ['4', 'w', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 4,
    name: 'Delta, Dan',
    rounds: [
      ['2', 'w', '='],
      ['3', 'b', ' '],
    ],
  }),
  '',
].join('\n');

describe('pairings from a file', () => {
  it('takes only the games still to play from a TRF file, with titles, ratings and federations', () => {
    const r = parsePairingsFile('round2.trf', TRF).unwrap();
    expect(r.map(p => [p.round, p.board, p.white.name, p.black.name])).toEqual([
      [2, 1, 'Bravo, Ben', 'Alpha, Anna'],
      [2, 2, 'Charlie, Cid', 'Delta, Dan'],
    ]);
    expect(r[0]!.black).toEqual({
      name: 'Alpha, Anna',
      fideId: 2200001,
      title: 'GM',
      rating: 2500,
      federation: 'ESP',
    });
    expect(r[0]!.white).toEqual({ name: 'Bravo, Ben', title: 'IM', rating: 2400, federation: 'ARG' });
    expect(r[1]!.black).toEqual({ name: 'Delta, Dan' });
  });

  it('reads a CSV file by its name, board serials included', () => {
    const csv = 'round,board,white,black,board_serial\n3,1,"Ju, Wenjun","Lei, Tingjie",23012\n';
    const r = parsePairingsFile('r3.csv', csv).unwrap();
    expect(r).toEqual([
      { round: 3, board: 1, white: { name: 'Ju, Wenjun' }, black: { name: 'Lei, Tingjie' }, serial: '23012' },
    ]);
  });

  it('names the file, the line and the field of a problem', () => {
    const bad = TRF.replace('2300', '23x0');
    const r = parsePairingsFile('round2.trf', bad);
    expect(r.isErr && r.error.message).toMatch(/^round2\.trf: .*line 4, field 'rating \(columns 49-52\)'/s);
  });

  it('a board takes the pairing that names its serial, else the one with its board number', () => {
    const pairings = [
      { round: 2, board: 1, white: { name: 'A' }, black: { name: 'B' } },
      { round: 1, board: 1, white: { name: 'C' }, black: { name: 'D' } },
      { round: 1, board: 2, serial: 'S-9', white: { name: 'E' }, black: { name: 'F' } },
    ];
    expect(nextPairing(pairings, { number: 1 }, new Set())?.white.name).toBe('C');
    expect(nextPairing(pairings, { number: 1 }, new Set(['r1-b1']))?.white.name).toBe('A');
    expect(nextPairing(pairings, { serial: 'S-9', number: 2 }, new Set())?.white.name).toBe('E');
    // Board number 2 is taken by the pairing that names a serial; an unknown serial binds nothing.
    expect(nextPairing(pairings, { serial: 'S-1', number: 2 }, new Set())).toBeUndefined();
    expect(nextPairing(pairings, {}, new Set())).toBeUndefined();
  });
});

describe('tournament.pairingsFile in the config', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chessbridge-pairings-'));
    await writeFile(join(dir, 'round2.trf'), TRF);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const venue = (extra: string) =>
    [
      'tournament: { name: Open, rounds: 2, pairingsFile: round2.trf }',
      'boards:',
      '  - { id: b1, driver: dgt, port: /dev/ttyUSB0, number: 1 }',
      '  - { id: b2, driver: dgt, port: /dev/ttyUSB1, number: 2 }',
      extra,
    ].join('\n');

  it('adds the file’s games to the pairings, the path taken from the config file’s folder', async () => {
    const path = join(dir, 'venue.yaml');
    await writeFile(
      path,
      venue('pairings:\n  - { round: 1, board: 3, white: { name: X }, black: { name: Y } }'),
    );
    const config = (await loadConfig({ path })).unwrap();
    expect(config.tournament.pairingsFile).toBe(join(dir, 'round2.trf'));
    expect(config.pairings.map(p => `${p.round}.${p.board}`)).toEqual(['1.3', '2.1', '2.2']);
    expect(inlinePairings(config).map(p => p.white.name)).toEqual(['X']);
  });

  it('refuses a file that pairs what the config pairs, or is missing, with the file named', async () => {
    const path = join(dir, 'twice.yaml');
    await writeFile(
      path,
      venue('pairings:\n  - { round: 2, board: 2, white: { name: X }, black: { name: Y } }'),
    );
    const twice = await loadConfig({ path });
    expect(twice.isErr && twice.error.problems).toEqual([
      `tournament.pairingsFile: ${join(dir, 'round2.trf')}: round 2 board 2: the config pairs it too (pairings[0])`,
    ]);
    const missing = join(dir, 'missing.yaml');
    await writeFile(missing, venue('').replace('round2.trf', 'nowhere.trf'));
    const r = await loadConfig({ path: missing });
    expect(r.isErr && r.error.message).toContain(
      `tournament.pairingsFile: ${join(dir, 'nowhere.trf')}: cannot read the file`,
    );
  });

  it('refuses two boards with one board number', async () => {
    const path = join(dir, 'numbers.yaml');
    await writeFile(
      path,
      venue('').replace('port: /dev/ttyUSB1, number: 2', 'port: /dev/ttyUSB1, number: 1'),
    );
    const r = await loadConfig({ path });
    expect(r.isErr && r.error.message).toContain('boards[1].number: board number 1 is also');
  });
});
