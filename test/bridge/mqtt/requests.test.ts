// Request parsing and validation (pure): every refusal names the field and problem.
import { Result } from '@badrap/result';
import { describe, expect, it } from 'vitest';
import { REQUEST_ACTIONS, REQUEST_SCHEMAS } from '../../../src/bridge/mqtt/requestSchemas.js';
import { makeResponse, parseRequest } from '../../../src/bridge/mqtt/requests.js';

const refusal = (action: string, payload: string) => {
  const parsed = parseRequest(action, payload);
  if (parsed.isOk) throw new Error(`expected a refusal, got ${JSON.stringify(parsed.value)}`);
  return { kind: parsed.error.kind, message: parsed.error.message, transaction: parsed.error.transaction };
};

describe('parseRequest', () => {
  it('accepts a valid request and keeps its fields', () => {
    const parsed = parseRequest(
      'restore_position',
      Buffer.from('{"game_id":"r1-b3","ply":12,"transaction":"x"}'),
    );
    expect(parsed.isOk && parsed.value).toEqual({
      action: 'restore_position',
      request: { game_id: 'r1-b3', ply: 12, transaction: 'x' },
    });
  });

  it.each([
    // [action, payload, kind, message, transaction]
    ['start_game', '{"game_id": ', 'malformedJson', /^malformed JSON: /, undefined],
    ['start_game', '', 'malformedJson', 'malformed JSON: empty payload', undefined],
    ['start_game', '[1,2]', 'notAnObject', 'payload: expected a JSON object', undefined],
    ['start_game', '"start"', 'notAnObject', 'payload: expected a JSON object', undefined],
    [
      'teleport',
      '{"transaction":"t1"}',
      'unknownAction',
      /^unknown action "teleport" \(known: start_game, /,
      't1',
    ],
    [
      'restore_position',
      '{"game_id":42,"ply":"4","transaction":9}',
      'invalidFields',
      'game_id: expected string; ply: expected integer',
      9,
    ],
    ['restore_position', '{"ply":4}', 'invalidFields', 'game_id: required', undefined],
    [
      'restore_position',
      '{"game_id":"g1","ply":-1}',
      'invalidFields',
      'ply: expected integer to be greater or equal to 0',
      undefined,
    ],
    [
      'restore_position',
      '{"game_id":"g1","ply":4,"plies":5}',
      'invalidFields',
      'plies: unknown field',
      undefined,
    ],
    [
      'restore_position',
      '{"game_id":"g/1","ply":4}',
      'invalidFields',
      'game_id: expected an id without "/", "+", "#" or whitespace',
      undefined,
    ],
    [
      'set_result',
      '{"game_id":"g1","result":"draw"}',
      'invalidFields',
      'result: expected one of "1-0", "0-1", "1/2-1/2"',
      undefined,
    ],
    [
      'set_edition',
      '{"game_id":"g1","edition":"E2023"}',
      'invalidFields',
      /^edition: expected one of "E97", /,
      undefined,
    ],
    [
      'apply_penalty',
      '{"game_id":"g1","color":"red","penalty":"warning"}',
      'invalidFields',
      'color: expected one of "white", "black"',
      undefined,
    ],
    [
      'clock_text',
      '{"board_id":"b1","text":"hi","transaction":true}',
      'invalidFields',
      'transaction: expected string or number',
      undefined,
    ],
    [
      'adjust_clocks',
      '{"game_id":"g1","white_ms":1.5,"black_ms":0}',
      'invalidFields',
      'white_ms: expected integer',
      undefined,
    ],
  ])('%s %s → %s', (action, payload, kind, message, transaction) => {
    const r = refusal(action, payload);
    expect(r.kind).toBe(kind);
    if (typeof message === 'string') expect(r.message).toBe(message);
    else expect(r.message).toMatch(message);
    expect(r.transaction).toBe(transaction);
  });

  it('has a schema for every action of the issue, all refusing unknown fields', () => {
    expect([...REQUEST_ACTIONS].sort()).toEqual(
      [
        'accept_claim',
        'adjust_clocks',
        'apply_penalty',
        'bind_board',
        'claim',
        'clock_text',
        'reject_claim',
        'restore_position',
        'resync_board',
        'set_edition',
        'set_moves',
        'set_result',
        'set_time_control',
        'start_game',
        'stop_game',
        'upload_pairings',
        'rebind_board',
        'round_control',
      ].sort(),
    );
    for (const action of REQUEST_ACTIONS) expect(REQUEST_SCHEMAS[action].additionalProperties).toBe(false);
  });
});

describe('makeResponse', () => {
  it('wraps results in the one envelope, echoing the transaction only when there is one', () => {
    expect(makeResponse(Result.ok({ ply: 3 }), 'abc')).toEqual({
      status: 'ok',
      data: { ply: 3 },
      transaction: 'abc',
    });
    expect(makeResponse(Result.err(new Error('no game g9')), undefined)).toEqual({
      status: 'error',
      data: {},
      error: 'no game g9',
    });
  });
});
