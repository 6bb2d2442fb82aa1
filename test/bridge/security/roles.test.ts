/** Which role may make which request, and the request topics read back. */
import { describe, expect, it } from 'vitest';
import { REQUEST_ACTIONS } from '../../../src/bridge/wire/requestSchema.js';
import {
  ROLES,
  actionsOf,
  mayRequest,
  describeActor,
  refusalOf,
  requestsAnything,
} from '../../../src/bridge/security/roles.js';

describe('requests per role', () => {
  it('lets the arbiter make every request', () => {
    expect(actionsOf('arbiter')).toEqual(REQUEST_ACTIONS);
  });

  it('lets an operator run boards and rounds but decide nothing', () => {
    expect(actionsOf('operator')).toEqual([
      'start_game',
      'stop_game',
      'bind_board',
      'resync_board',
      'upload_pairings',
      'rebind_board',
      'round_control',
    ]);
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

describe('actors', () => {
  it('describes who acted for the journal, and refuses what the role may not do', () => {
    const actor = {
      role: 'operator',
      user: 'olga',
      transport: 'mqtt',
      client: 'web-1',
      address: '192.0.2.4',
    } as const;
    expect(describeActor(actor)).toBe('mqtt role=operator user=olga client=web-1 address=192.0.2.4');
    expect(refusalOf(actor, 'start_game')).toBeUndefined();
    expect(refusalOf(actor, 'clock_text')).toBe(
      'not allowed: olga (role operator) may not request clock_text (may: start_game, stop_game, bind_board, resync_board, upload_pairings, rebind_board, round_control)',
    );
    expect(refusalOf({ role: 'display', user: 'wall', transport: 'http' }, 'set_result')).toBe(
      'not allowed: wall (role display) may not request set_result (this role only reads)',
    );
  });
});
