/**
 * Who may do what (docs/security.md). A user has one role; the role decides which requests the
 * daemon accepts from them and what the embedded broker lets them publish and read. Only the daemon
 * publishes games, boards and bridge state; arbiters decide games; operators run boards and rounds
 * but set no result; displays and broadcast tools read.
 *
 *   mayRequest('operator', 'set_result');   // false
 *   requestTopicOf('chessbridge', 'chessbridge/bridge/request/anna/set_result');
 *     // { user: 'anna', action: 'set_result' }
 */
import { REQUEST_ACTIONS, type RequestAction } from '../wire/requestSchema.js';

export const ROLES = ['daemon', 'arbiter', 'operator', 'display', 'broadcast'] as const;
export type Role = (typeof ROLES)[number];

/** The roles a configured user may have (the daemon's own user is made by the daemon). */
export const USER_ROLES = ['arbiter', 'operator', 'display', 'broadcast'] as const satisfies readonly Role[];
export type UserRole = (typeof USER_ROLES)[number];

/** Board and round management: nothing that decides a game, changes its clock or writes on it. */
export const OPERATOR_ACTIONS: readonly RequestAction[] = [
  'start_game',
  'stop_game',
  'bind_board',
  'resync_board',
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

/** `<base>/bridge/request/<user>/<action>` read back; undefined for any other topic. */
export const requestTopicOf = (
  base: string,
  topic: string,
): { readonly user: string; readonly action: string } | undefined => {
  const prefix = `${base}/bridge/request/`;
  if (!topic.startsWith(prefix)) return undefined;
  const rest = topic.slice(prefix.length).split('/');
  if (rest.length !== 2 || rest[0] === '' || rest[1] === '') return undefined;
  return { user: rest[0] as string, action: rest[1] as string };
};

/** `<base>/bridge/response/<user>/…`: the user a response topic belongs to; undefined otherwise. */
export const responseTopicUser = (base: string, topic: string): string | undefined => {
  const prefix = `${base}/bridge/response/`;
  if (!topic.startsWith(prefix)) return undefined;
  const user = topic.slice(prefix.length).split('/')[0];
  return user === undefined || user === '' ? undefined : user;
};
