/** Which role may make which request, and the request topics read back. */
import { describe, expect, it } from 'vitest';
import { REQUEST_ACTIONS } from '../../../src/bridge/wire/requestSchema.js';
import {
  ROLES,
  actionsOf,
  mayRequest,
  requestTopicOf,
  requestsAnything,
  responseTopicUser,
} from '../../../src/bridge/security/roles.js';

describe('requests per role', () => {
  it('lets the arbiter make every request', () => {
    expect(actionsOf('arbiter')).toEqual(REQUEST_ACTIONS);
  });

  it('lets an operator run boards and rounds but decide nothing', () => {
    expect(actionsOf('operator')).toEqual(['start_game', 'stop_game', 'bind_board', 'resync_board']);
    for (const a of [
      'set_result',
      'restore_position',
      'adjust_clocks',
      'clock_text',
      'apply_penalty',
    ] as const)
      expect(mayRequest('operator', a)).toBe(false);
  });

  it('lets readers and the daemon request nothing', () => {
    for (const role of ['daemon', 'display', 'broadcast'] as const) {
      expect(requestsAnything(role)).toBe(false);
      expect(REQUEST_ACTIONS.some(a => mayRequest(role, a))).toBe(false);
    }
    expect(ROLES.filter(requestsAnything)).toEqual(['arbiter', 'operator']);
  });
});

describe('topics', () => {
  it('reads user and action of a request topic', () => {
    expect(requestTopicOf('cb', 'cb/bridge/request/anna/set_result')).toEqual({
      user: 'anna',
      action: 'set_result',
    });
  });

  it.each([
    'cb/bridge/request/set_result',
    'cb/bridge/request//set_result',
    'cb/bridge/request/anna/',
    'other/bridge/request/anna/x',
    'cb/bridge/request/anna/x/y',
  ])('finds no request in %s', topic => expect(requestTopicOf('cb', topic)).toBeUndefined());

  it('reads the user of a response topic', () => {
    expect(responseTopicUser('cb', 'cb/bridge/response/anna/42')).toBe('anna');
    expect(responseTopicUser('cb', 'cb/bridge/response/')).toBeUndefined();
    expect(responseTopicUser('cb', 'cb/game/1')).toBeUndefined();
  });
});
