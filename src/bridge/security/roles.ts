/**
 * Who may do what (docs/security.md). A user has one role; the role decides which requests the
 * daemon accepts from them and what the embedded broker lets them publish and read. Only the daemon
 * publishes games, boards and bridge state; arbiters decide games; operators run boards and rounds
 * but set no result; displays and broadcast tools read.
 *
 *   mayRequest('operator', 'set_result');   // false
 *   refusalOf({ role: 'operator', user: 'olga', transport: 'mqtt' }, 'set_result');
 *     // 'not allowed: olga (role operator) may not request set_result (may: start_game, …)'
 */
import { REQUEST_ACTIONS, type RequestAction } from '../wire/requestSchema.js';

export const ROLES = ['daemon', 'arbiter', 'operator', 'display', 'broadcast'] as const;
export type Role = (typeof ROLES)[number];

/** The roles a configured user may have (the daemon's own user is made by the daemon). */
export const USER_ROLES = ['arbiter', 'operator', 'display', 'broadcast'] as const satisfies readonly Role[];
export type UserRole = (typeof USER_ROLES)[number];

/**
 * Who may read what is live (the HTTP server's event stream, the LiveChess feed) while a
 * broadcast delay holds the public back.
 */
export const LIVE_ROLES = ['arbiter', 'operator'] as const satisfies readonly Role[];

/** Board and round management: nothing that decides a game, changes its clock or writes on it. */
export const OPERATOR_ACTIONS: readonly RequestAction[] = [
  'start_game',
  'stop_game',
  'bind_board',
  'resync_board',
  'upload_pairings',
  'rebind_board',
  'round_control',
];

const ALLOWED: { readonly [R in Role]: ReadonlySet<RequestAction> } = {
  daemon: new Set(),
  arbiter: new Set(REQUEST_ACTIONS),
  operator: new Set(OPERATOR_ACTIONS),
  display: new Set(),
  broadcast: new Set(),
};

/** Whether a user of `role` may make the request `action`. */
export const mayRequest = (role: Role, action: RequestAction): boolean => ALLOWED[role].has(action);

/** The actions a role may request, in the contract's order. */
export const actionsOf = (role: Role): readonly RequestAction[] =>
  REQUEST_ACTIONS.filter(a => ALLOWED[role].has(a));

/** Whether a role may publish requests at all (the broker's coarse rule; the daemon decides per action). */
export const requestsAnything = (role: Role): boolean => ALLOWED[role].size > 0;

/** Who made a request: the verified user and role, the transport, and where it came from. */
export interface Actor {
  readonly role: Role;
  readonly user: string;
  readonly transport: 'mqtt' | 'http' | 'livechess';
  /** MQTT client id, when the broker saw it. */
  readonly client?: string;
  /** Network address, when known. */
  readonly address?: string;
}

/** `mqtt role=arbiter user=anna client=web-1f address=127.0.0.1`: the journal's source of a command. */
export const describeActor = (a: Actor): string =>
  [
    a.transport,
    `role=${a.role}`,
    `user=${a.user}`,
    ...(a.client === undefined ? [] : [`client=${JSON.stringify(a.client).slice(1, -1)}`]),
    ...(a.address === undefined ? [] : [`address=${a.address}`]),
  ].join(' ');

/** Why `actor` may not make `action`; undefined when it may. */
export const refusalOf = (actor: Actor, action: RequestAction): string | undefined =>
  mayRequest(actor.role, action)
    ? undefined
    : `not allowed: ${actor.user} (role ${actor.role}) may not request ${action}` +
      (actionsOf(actor.role).length === 0
        ? ' (this role only reads)'
        : ` (may: ${actionsOf(actor.role).join(', ')})`);
