import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, parseConfig } from '../../../src/bridge/config/load.js';
import type { Config } from '../../../src/bridge/config/schema.js';

const example = (name: string): string => fileURLToPath(new URL(`../../../config/${name}`, import.meta.url));

const problemsOf = (text: string, env: Record<string, string> = {}): readonly string[] => {
  const r = parseConfig(text, { env });
  if (r.isOk) throw new Error('expected the config to be refused');
  return r.error.problems;
};

const okConfig = (text: string): Config => {
  const r = parseConfig(text);
  if (r.isErr) throw new Error(r.error.message);
  return r.value;
};

describe('example files', () => {
  it.each([
    ['single-board.yaml', 1, 'dgt'],
    ['dgt-bus-12.yaml', 12, 'dgt-bus'],
    ['mixed-hall.yaml', 7, 'dgt'],
  ])('%s loads', async (file, boards, firstDriver) => {
    const r = await loadConfig({ path: example(file) });
    if (r.isErr) throw new Error(r.error.message);
    expect(r.value.boards).toHaveLength(boards);
    expect(r.value.boards[0]?.driver).toBe(firstDriver);
    // Every pairing of the examples is bound to a configured board by serial number.
    const serials = new Set(r.value.boards.map(b => b.serial));
    expect(r.value.pairings.length).toBeGreaterThan(0);
    for (const p of r.value.pairings) expect(serials.has(p.serial)).toBe(true);
  });

  it('the bus example binds tables by serial, not by bus order', async () => {
    const r = await loadConfig({ path: example('dgt-bus-12.yaml') });
    if (r.isErr) throw new Error(r.error.message);
    const orderBySerial = r.value.boards.map(b => b.serial);
    const tableOrder = [...r.value.pairings].sort((a, b) => a.board - b.board).map(p => p.serial);
    expect(tableOrder).not.toEqual(orderBySerial);
    expect(new Set(r.value.boards.map(b => b.port)).size).toBe(2);
  });

  it('the mixed hall uses every driver', async () => {
    const r = await loadConfig({ path: example('mixed-hall.yaml') });
    if (r.isErr) throw new Error(r.error.message);
    expect(new Set(r.value.boards.map(b => b.driver))).toEqual(
      new Set(['dgt', 'dgt-bus', 'millennium', 'certabo', 'chessnut']),
    );
    expect(r.value.laws.gameType).toBe('rapid');
    expect(r.value.mqtt.broker.host).toBe('0.0.0.0');
  });
});

describe('defaults and freezing', () => {
  it('an empty file is the default configuration', () => {
    const c = okConfig('');
    expect(c.version).toBe(1);
    expect(c.laws).toEqual({
      edition: 'E23',
      gameType: 'standard',
      supervision: 'full',
      timeControl: '90m/40 + 30m, +30s',
      alerts: 'proven',
      quietSeconds: 4,
    });
    expect(c.mqtt.url).toBeUndefined();
    expect(c.mqtt.broker).toEqual({
      host: '127.0.0.1',
      port: 1883,
      anonymousRead: false,
      origins: [],
      wsPort: 9001,
    });
    expect(c.http).toEqual({ enabled: true, host: '127.0.0.1', port: 8080, language: 'en' });
    expect(c.boards).toEqual([]);
  });

  it('fills defaults inside list entries', () => {
    const c = okConfig('boards: [{ id: b1, driver: dgt, port: /dev/ttyACM0 }]');
    expect(c.boards[0]).toEqual({
      id: 'b1',
      driver: 'dgt',
      port: '/dev/ttyACM0',
      orientation: 'auto',
      clock: false,
    });
  });

  it('is deep-frozen', () => {
    const c = okConfig('boards: [{ id: b1, driver: dgt, port: /dev/ttyACM0 }]');
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.mqtt.broker)).toBe(true);
    expect(Object.isFrozen(c.boards[0])).toBe(true);
    expect(() => {
      (c.http as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads yes/no words in boolean fields only', () => {
    const c = okConfig(`
tournament: { name: 'NO' }
http: { enabled: off }
boards:
  - { id: b1, driver: dgt, port: /dev/a, clock: yes }
  - { id: b2, driver: dgt, port: /dev/b, clock: No }
`);
    expect(c.boards.map(b => b.clock)).toEqual([true, false]);
    expect(c.http.enabled).toBe(false);
    expect(c.tournament.name).toBe('NO');
  });
});

describe('mistakes', () => {
  it('reports every one of five different mistakes at once', () => {
    const text = [
      'version: 1', //                                      line 1
      'laws:', //                                           line 2
      '  edition: E22', //                                  line 3: unknown edition
      '  timeControl: 90 minutes', //                       line 4: unreadable time control
      'mqtt:', //                                           line 5
      '  ulr: mqtt://broker', //                            line 6: unknown field (typo)
      'http: { port: 70000 }', //                           line 7: out of range
      'boards:', //                                         line 8
      '  - { id: b1, driver: dgt, port: /dev/ttyUSB0, serial: "1" }',
      '  - { id: b1, driver: dgt, port: /dev/ttyUSB1, serial: "2" }', // line 10: duplicate id
      '  - { id: b3, driver: dgt, port: /dev/ttyUSB2, serial: 00137 }', // line 11: serial not a string
      'pairings:',
      '  - { round: 1, board: 1, white: { name: A }, black: { name: B }, serial: "9" }', // unknown serial
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'laws.edition: unknown edition "E22"; expected one of E97, E09, E14, E17, E18, E23 (line 3)',
      'mqtt.ulr: unknown field (did you mean url?) (line 6)',
      'http.port: must be at most 65535, got 70000 (line 7)',
      'boards[2].serial: expected a string, got 137: put it in quotes ("00137") (line 11)',
      'boards[1].id: duplicate board id "b1" (also boards[0]) (line 10)',
      expect.stringMatching(/^laws\.timeControl: .* \(line 4\)$/),
    ]);
  });

  it('reports a pairing bound to an unknown board once every board entry is valid', () => {
    const problems = problemsOf(`
boards: [{ id: b1, driver: dgt, port: /dev/ttyUSB0, serial: '1' }]
pairings: [{ round: 1, board: 1, white: { name: A }, black: { name: B }, serial: '9' }]
`);
    expect(problems).toEqual(['pairings[0].serial: no board has serial number "9" (line 3)']);
  });

  it.each([
    ['tournament: { rounds: 0 }', 'tournament.rounds: must be at least 1, got 0 (line 1)'],
    ['tournament: { rounds: 2.5 }', 'tournament.rounds: expected a whole number, got 2.5 (line 1)'],
    ['version: 2', 'version: expected 1 (the format this chessbridge reads), got 2 (line 1)'],
    ['boards: { id: b1 }', 'boards: expected a list, got a mapping (line 1)'],
    ['boards: [{ driver: dgt, port: /dev/x }]', 'boards[0].id: missing (required) (line 1)'],
    [
      'boards: [{ id: "a/b", driver: dgt, port: /dev/x }]',
      expect.stringMatching(/^boards\[0\]\.id: expected an id: /),
    ],
    ['boards: [{ id: b, driver: dgt, port: "" }]', 'boards[0].port: must not be empty (line 1)'],
    [
      'boards: [{ id: b, driver: dgt, port: /dev/x, clock: maybe }]',
      'boards[0].clock: expected yes or no, got "maybe" (line 1)',
    ],
    [
      'mqtt: { url: "http://x" }',
      'mqtt.url: expected a broker URL such as mqtt://host:1883 or wss://host/mqtt, got "http://x" (line 1)',
    ],
    ['mqtt: { baseTopic: "a/#" }', expect.stringMatching(/^mqtt\.baseTopic: expected topic levels/)],
    [
      'logging: { level: verbose }',
      'logging.level: unknown value "verbose"; expected one of error, warn, info, debug, trace (line 1)',
    ],
    ['- 1\n- 2', 'config: expected a mapping (key: value), got a list (line 1)'],
    ['mqtt: 3', 'mqtt: expected a mapping (key: value), got 3 (line 1)'],
  ])('%s', (text, expected) => {
    expect(problemsOf(text)).toEqual([expected]);
  });

  it('reports YAML syntax errors with line and column', () => {
    const problems = problemsOf('laws:\n  edition: E23\n   gameType: rapid\nlaws: {}\n');
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/^yaml \(line \d+, column \d+\): /);
  });

  it('refuses duplicate keys', () => {
    expect(problemsOf('http: { port: 1 }\nhttp: { port: 2 }')[0]).toMatch(
      /^yaml \(line 2, column 1\): .*unique/i,
    );
  });
});

describe('loadConfig from a file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chessbridge-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the file in the error', async () => {
    const path = join(dir, 'bad.yaml');
    writeFileSync(path, 'http: { port: x }\n');
    const r = await loadConfig({ path });
    expect(r.isErr).toBe(true);
    if (r.isOk) return;
    expect(r.error.kind).toBe('invalid');
    expect(r.error.source).toBe(path);
    expect(r.error.message).toContain(`${path}: 1 configuration problem`);
    expect(r.error.problems).toEqual(['http.port: expected a whole number, got "x" (line 1)']);
  });

  it('reports a file that cannot be read', async () => {
    const path = join(dir, 'missing.yaml');
    const r = await loadConfig({ path });
    if (r.isOk) throw new Error('expected an error');
    expect(r.error.kind).toBe('unreadable');
    expect(r.error.kind === 'unreadable' ? r.error.code : '').toBe('ENOENT');
    expect(r.error.problems[0]).toContain(path);
  });

  it('loads text with a name for messages', async () => {
    const r = await loadConfig({ text: 'http: { port: -1 }', name: 'inline' });
    if (r.isOk) throw new Error('expected an error');
    expect(r.error.message.startsWith('inline: 1 configuration problem')).toBe(true);
  });
});
