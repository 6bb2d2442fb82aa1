import { describe, expect, it } from 'vitest';
import { applyEnvOverrides, parseBooleanWord, unknownEnvNames } from '../../../src/bridge/config/env.js';
import { configFields, envName } from '../../../src/bridge/config/fields.js';
import { parseConfig } from '../../../src/bridge/config/load.js';
import type { Config } from '../../../src/bridge/config/schema.js';

const load = (text: string, env: Record<string, string>): Config => {
  const r = parseConfig(text, { env });
  if (r.isErr) throw new Error(r.error.message);
  return r.value;
};

describe('the naming rule', () => {
  it.each([
    [['mqtt', 'url'], 'CHESSBRIDGE_MQTT_URL'],
    [['http', 'port'], 'CHESSBRIDGE_HTTP_PORT'],
    [['mqtt', 'baseTopic'], 'CHESSBRIDGE_MQTT_BASE_TOPIC'],
    [['mqtt', 'broker', 'wsPort'], 'CHESSBRIDGE_MQTT_BROKER_WS_PORT'],
    [['mqtt', 'tls', 'rejectUnauthorized'], 'CHESSBRIDGE_MQTT_TLS_REJECT_UNAUTHORIZED'],
  ])('%j → %s', (segments, name) => {
    expect(envName(segments)).toBe(name);
    expect(configFields().find(f => f.segments?.join('.') === segments.join('.'))?.env).toBe(name);
  });

  it('gives every scalar field outside lists its own variable, and none to list entries', () => {
    const fields = configFields();
    const names = fields.flatMap(f => (f.env === undefined ? [] : [f.env]));
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThanOrEqual(25);
    for (const f of fields) {
      if (f.path.includes('[]')) expect(f.env, f.path).toBeUndefined();
      if (f.kind === 'section') expect(f.env, f.path).toBeUndefined();
    }
  });
});

describe('overrides', () => {
  it('win over the file and are converted by field type', () => {
    const c = load('mqtt: { url: mqtt://file:1883 }\nhttp: { port: 8080 }', {
      CHESSBRIDGE_MQTT_URL: 'mqtts://env.example:8883',
      CHESSBRIDGE_HTTP_PORT: '9090',
      CHESSBRIDGE_HTTP_ENABLED: 'no',
      CHESSBRIDGE_JOURNAL_CHECKPOINT_SECONDS: '2.5',
      CHESSBRIDGE_LAWS_EDITION: 'E18',
    });
    expect(c.mqtt.url).toBe('mqtts://env.example:8883');
    expect(c.http).toEqual({ enabled: false, host: '127.0.0.1', port: 9090, language: 'en' });
    expect(c.journal.checkpointSeconds).toBe(2.5);
    expect(c.laws.edition).toBe('E18');
  });

  it('create sections the file does not have', () => {
    const c = load('', {
      CHESSBRIDGE_MQTT_BROKER_ANONYMOUS_READ: 'yes',
      CHESSBRIDGE_MQTT_BROKER_PORT: '1884',
    });
    expect(c.mqtt.broker).toEqual({
      host: '127.0.0.1',
      port: 1884,
      wsPort: 9001,
      anonymousRead: true,
      origins: [],
    });
  });

  it('name the variable when their value is refused', () => {
    const r = parseConfig('http: { port: 8080 }', {
      env: { CHESSBRIDGE_HTTP_PORT: 'eighty', CHESSBRIDGE_LAWS_EDITION: 'E22' },
    });
    if (r.isOk) throw new Error('expected an error');
    expect(r.error.problems).toEqual([
      'laws.edition: unknown edition "E22"; expected one of E97, E09, E14, E17, E18, E23 (from CHESSBRIDGE_LAWS_EDITION)',
      'http.port: expected a whole number, got "eighty" (from CHESSBRIDGE_HTTP_PORT)',
    ]);
  });

  it('leave the input untouched and record where each value came from', () => {
    const raw = { http: { port: 1 } };
    const { value, sources } = applyEnvOverrides(raw, { CHESSBRIDGE_HTTP_PORT: '2', OTHER: 'x' });
    expect(raw).toEqual({ http: { port: 1 } });
    expect(value).toEqual({ http: { port: 2 } });
    expect([...sources]).toEqual([['/http/port', 'CHESSBRIDGE_HTTP_PORT']]);
  });

  it('do not reach into a section written as something else', () => {
    const r = parseConfig('mqtt: 3', { env: { CHESSBRIDGE_MQTT_URL: 'mqtt://x' } });
    if (r.isOk) throw new Error('expected an error');
    expect(r.error.problems).toEqual(['mqtt: expected a mapping (key: value), got 3 (line 1)']);
  });
});

describe('helpers', () => {
  it('lists prefixed variables that name no field', () => {
    expect(
      unknownEnvNames({
        CHESSBRIDGE_MQTT_ULR: 'x',
        CHESSBRIDGE_MQTT_URL: 'x',
        CHESSBRIDGE_CONFIG: 'a.yaml',
        PATH: '/bin',
        CHESSBRIDGE_BOARDS_ID: 'b',
      }),
    ).toEqual(['CHESSBRIDGE_BOARDS_ID', 'CHESSBRIDGE_MQTT_ULR']);
  });

  it.each([
    ['yes', true],
    ['No', false],
    ['TRUE', true],
    ['off', false],
    ['1', true],
    [' 0 ', false],
    ['maybe', undefined],
    ['', undefined],
  ])('reads %j as %j', (word, value) => {
    expect(parseBooleanWord(word)).toBe(value);
  });
});
