/**
 * The replay contract: what was appended is what is read back, in order, with seq 1, 2, 3, …,
 * so feeding the records to the engine again takes the same decisions. The entries cover every
 * observation kind of the drivers' vocabulary, operator commands and the final record.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EMPTY, makePiece, START_SQUARES, type Observation } from '../../../src/drivers/observation.js';
import type { GameSettings, JournalEntry, JournalRecord } from '../../../src/bridge/journal/format.js';
import { readJournal, readJournalAll } from '../../../src/bridge/journal/read.js';
import { JournalStore } from '../../../src/bridge/journal/store.js';
import { finishToWire } from '../../../src/bridge/wire/journal.js';
import { checkWire } from '../../../src/bridge/wire/schema.js';
import { assertJournalText } from '../../support/wire.js';

const SETTINGS: GameSettings = {
  edition: 'E14',
  gameType: 'blitz',
  supervision: 'reduced',
  timeControl: '3+2',
  startFen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  pairing: {
    round: 4,
    board: 17,
    white: { name: 'Åström, Sören', fideId: 1710400 },
    black: { name: 'Ng, Wei' },
  },
};

const face = (ms: number) => ({ ms, flagFallen: false, flagShown: false, timePerMove: true });

/** A blitz game's worth of board traffic at one board: every observation kind, in time order. */
const boardTraffic = (board: string): JournalEntry[] => {
  const obs: Observation[] = [
    { type: 'link', at: 0, state: 'connected' },
    { type: 'identity', at: 3, vendor: 'DGT', serial: '00137', firmware: '1.07', busAddress: 1025 },
    { type: 'snapshot', at: 10, squares: START_SQUARES },
    { type: 'battery', at: 11, percent: undefined, charging: true, minutesLeft: 240, raw: [0x58, 0, 0x3c] },
  ];
  let at = 100;
  let white = 180_000;
  let black = 180_000;
  for (let move = 0; move < 40; move++) {
    const from = (move * 7) % 64;
    const to = (move * 11 + 5) % 64;
    obs.push({ type: 'square', at: (at += 40), square: from, content: EMPTY });
    obs.push({
      type: 'square',
      at: (at += 25),
      square: to,
      content: makePiece(move % 2 === 0 ? 'white' : 'black', 'knight'),
    });
    if (move % 2 === 0) white -= 1_234;
    else black -= 987;
    obs.push({
      type: 'clock',
      at: (at += 300),
      connected: true,
      left: face(white),
      right: face(black),
      running: move % 2 === 0 ? 'right' : 'left',
      lever: move % 2 === 0 ? 'left' : 'right',
      batteryLow: false,
      status: 0x01,
    });
  }
  obs.push(
    {
      type: 'protocol-error',
      at: (at += 5),
      reason: { kind: 'checksum', expected: 0x12, actual: 0x13, address: undefined },
      hex: '86 00 43',
      count: 3,
    },
    {
      type: 'clock-ack',
      at: (at += 5),
      ack: [0x10, 0x08, 0, 0],
      ok: true,
      event: { kind: 'button', button: 'plus', held: 2 },
    },
    {
      type: 'eeprom-log',
      at: (at += 5),
      source: 'dump',
      records: [
        { kind: 'tag', tag: 'power-up' },
        { kind: 'time', side: 'left', ms: 5000 },
      ],
    },
    { type: 'bus-reply', at: (at += 5), reply: 'ping' },
    { type: 'link', at: (at += 5), state: 'lost', detail: 'read ECONNRESET' },
  );
  const entries: JournalEntry[] = obs.map(observation => ({ type: 'observation', board, observation }));
  entries.splice(50, 0, {
    type: 'command',
    at: 2_000,
    action: 'arbiter/penalty',
    params: {
      color: 'white',
      addMs: 120_000,
      note: 'Art. 7.5.5 — 2 min “extra”',
      plies: [12, -1, 0.5],
      nested: { ok: true, none: null },
    },
    source: 'mqtt:arbiter-console',
  });
  entries.push({ type: 'command', at: at + 1, action: 'arbiter/set-result', params: { result: '1-0' } });
  entries.push({ type: 'finish', at: at + 2, result: '1-0', reason: 'adjudication' });
  return entries;
};

/** A stand-in for the engine: a decision per record that depends on everything before it. */
const decisions = (records: readonly (JournalEntry | JournalRecord)[]): string[] => {
  const occupied = new Set<number>();
  let lastClock = '';
  return records.map(r => {
    switch (r.type) {
      case 'observation': {
        const o = r.observation;
        if (o.type === 'square') {
          if (o.content.kind === 'empty') occupied.delete(o.square);
          else occupied.add(o.square);
        } else if (o.type === 'snapshot') {
          occupied.clear();
          o.squares.forEach((c, sq) => c.kind !== 'empty' && occupied.add(sq));
        } else if (o.type === 'clock') lastClock = `${o.left.ms}/${o.right.ms}/${o.running ?? '-'}`;
        return `${o.type}@${o.at}:${occupied.size}:${lastClock}`;
      }
      case 'command':
        return `command:${r.action}:${JSON.stringify(r.params)}`;
      case 'finish':
        return `finish:${r.result}`;
    }
  });
};

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('written then read back', () => {
  it('is identical, in order, with seq strictly increasing, and replays to the same decisions', async () => {
    const store = new JournalStore({ dir });
    (await store.start()).unwrap();
    const games = ['r4-b17', 'r4-b18'];
    const traffic = games.map(g => boardTraffic(`board-${g}`));
    for (const g of games)
      (await store.createGame({ game: g, board: `board-${g}`, settings: SETTINGS })).unwrap();
    // The two boards' traffic interleaved, in bursts of concurrent appends as a pipeline makes them.
    const acked: JournalRecord[][] = games.map(() => []);
    const longest = Math.max(...traffic.map(t => t.length));
    for (let i = 0; i < longest; i += 7) {
      const burst = games.flatMap((g, k) =>
        (traffic[k] ?? []).slice(i, i + 7).map(e => store.append(g, e).then(r => acked[k]?.push(r.unwrap()))),
      );
      await Promise.all(burst);
    }
    await store.stop();

    for (const [k, game] of games.entries()) {
      const written = traffic[k] ?? [];
      const read = (await readJournalAll(join(dir, 'games', `${game}.jsonl`))).unwrap();
      expect(read.header).toMatchObject({ game, board: `board-${game}`, settings: SETTINGS });
      expect(read.tornTail).toBeUndefined();
      // Deep-equal to what was appended (JSON drops undefined-valued properties: equal here, …
      expect(read.records.map(({ seq: _s, wall: _w, ...entry }) => entry)).toEqual(written);
      // … and exactly the JSON image of it).
      expect(read.records.map(({ seq: _s, wall: _w, ...entry }) => entry)).toStrictEqual(
        JSON.parse(JSON.stringify(written)),
      );
      expect(read.records.map(r => r.seq)).toEqual(written.map((_, i) => i + 1));
      expect(read.records).toEqual(acked[k]);
      expect(decisions(read.records)).toEqual(decisions(written));
    }
  });

  it('streams a long game without reading it whole, and can be iterated twice', async () => {
    const store = new JournalStore({ dir });
    (await store.start()).unwrap();
    (await store.createGame({ game: 'long', board: 'b', settings: SETTINGS })).unwrap();
    const n = 20_000;
    for (let i = 0; i < n; i += 1_000) {
      await Promise.all(
        Array.from({ length: 1_000 }, (_, k) =>
          store.append('long', {
            type: 'observation',
            board: 'b',
            observation: { type: 'bus-reply', at: i + k, reply: 'ping' },
          }),
        ),
      );
    }
    await store.stop();
    const opened = (await readJournal(join(dir, 'games', 'long.jsonl'))).unwrap();
    for (let pass = 0; pass < 2; pass++) {
      const seqs: number[] = [];
      const times: number[] = [];
      for await (const r of opened.records) {
        seqs.push(r.seq);
        if (r.type === 'observation') times.push(r.observation.at);
      }
      expect(seqs).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(times).toEqual(Array.from({ length: n }, (_, i) => i));
    }
  });
});

describe('the spelling on disk (format 2) and journals of format 1', () => {
  it('writes every line in the wire spelling the schema lists, and reads a format-1 file the same', async () => {
    const d = mkdtempSync(join(tmpdir(), 'chessbridge-format-'));
    try {
      const store = new JournalStore({ dir: d });
      (await store.start()).unwrap();
      (await store.createGame({ game: 'f2', board: 'b', settings: SETTINGS })).unwrap();
      const written = boardTraffic('b');
      written[written.length - 1] = { type: 'finish', at: 99_999, result: '0-1', reason: 'seventyFiveMoves' };
      for (const e of written) (await store.append('f2', e)).unwrap();
      await store.stop();
      const text = readFileSync(join(d, 'games', 'f2.jsonl'), 'utf8');
      assertJournalText(text, 'f2.jsonl');
      for (const word of [
        '"protocol_error"',
        '"clock_ack"',
        '"eeprom_log"',
        '"bus_reply"',
        '"power_up"',
        '"flag_fallen"',
        '"bus_address"',
        '"minutes_left"',
        '"created_at"',
        '"fide_id"',
        '"seventy_five_moves"',
      ])
        expect(text).toContain(word);
      for (const word of ['protocol-error', 'flagFallen', 'createdAt', 'fideId', 'seventyFiveMoves'])
        expect(text).not.toContain(word);

      // The same game as the earlier build wrote it: camelCase keys, kebab-case words, format 1.
      const v1 = mkdtempSync(join(tmpdir(), 'chessbridge-format1-'));
      mkdirSync(join(v1, 'games'));
      const header = {
        type: 'header',
        format: 1,
        seq: 0,
        game: 'f2',
        board: 'b',
        createdAt: '2025-03-01T10:00:00.000Z',
        settings: SETTINGS,
      };
      const lines = [header, ...written.map((e, i) => ({ seq: i + 1, wall: 1, ...e }))].map(l =>
        JSON.stringify(l),
      );
      writeFileSync(join(v1, 'games', 'f2.jsonl'), `${lines.join('\n')}\n`);
      const old = (await readJournalAll(join(v1, 'games', 'f2.jsonl'))).unwrap();
      const now = (await readJournalAll(join(d, 'games', 'f2.jsonl'))).unwrap();
      rmSync(v1, { recursive: true, force: true });
      expect(old.header).toEqual({ ...now.header, format: 1, createdAt: '2025-03-01T10:00:00.000Z' });
      const entries = (r: typeof old) => r.records.map(({ seq: _s, wall: _w, ...e }) => e);
      // Read back in the daemon's names: the drivers' observations exactly as appended.
      expect(entries(now).slice(0, -2)).toEqual(JSON.parse(JSON.stringify(written.slice(0, -2))));
      expect(entries(old).slice(0, -1)).toEqual(entries(now).slice(0, -1));
      expect(decisions(old.records)).toEqual(decisions(now.records));
      // An ending is the wire's reason once on disk, whichever build wrote it.
      expect(now.records.at(-1)).toMatchObject({ type: 'finish', reason: 'seventy_five_moves' });
      expect(old.records.at(-1)).toMatchObject({ type: 'finish', reason: 'seventyFiveMoves' });
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('keeps an arbiter’s own words for an ending apart from the wire’s reason', () => {
    expect(finishToWire('adjudication')).toEqual({ reason: 'arbiter', detail: 'adjudication' });
    expect(finishToWire('fiftyMoves')).toEqual({ reason: 'fifty_moves' });
  });

  it('names the field a misspelt record gets wrong', () => {
    const record = {
      seq: 3,
      wall: 1,
      type: 'observation',
      board: 'b',
      observation: {
        type: 'clock',
        at: 5,
        connected: true,
        left: { ms: 1, flagFallen: false, flag_shown: false, time_per_move: false },
        right: { ms: 1, flag_fallen: false, flag_shown: false, time_per_move: false },
        lever: 'left',
        battery_low: false,
        status: 0,
      },
    };
    expect(checkWire('journal_record', record).join('\n')).toMatch(/\/observation\/left\/flagFallen/);
    expect(checkWire('journal_record', { ...record, observation: { type: 'clock-ack', at: 1 } })).toEqual([
      '/observation/type: unknown observation type "clock-ack"',
    ]);
  });
});
