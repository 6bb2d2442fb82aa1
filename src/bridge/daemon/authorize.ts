/**
 * Every MQTT request authorised in the daemon too (docs/security.md): the user comes from the
 * request topic as the broker wrote it (the embedded broker puts the verified user, client id and
 * address there; an external broker's ACL lets a user publish under its own name only), the role
 * from the venue's users, and the role decides whether the action is allowed. A refusal is an
 * error response naming who asked and what the role may do; the request service logs it.
 *
 *   authorizeMqttRequest({ user: 'olga', action: 'set_result', sender: 'web-1@192.0.2.4' }, 'set_result', deps);
 *     // Err('not allowed: olga (role operator) may not request set_result (may: start_game, …)')
 */
import { refused } from '../wire/refusals.js';
import { Result } from '@badrap/result';
import type { RequestSender } from '../mqtt/brokerAccess.js';
import type { RequestAction } from '../mqtt/requestSchemas.js';
import { refusalOf, type Actor, type Role } from '../security/roles.js';

export interface AuthorizeDeps {
  readonly roleOf: (user: string) => Role | undefined;
  /** The embedded broker writes the verified user into every request topic. */
  readonly embedded: boolean;
  /** Users are configured (an external broker must then name them in the topic). */
  readonly usersConfigured: boolean;
}

/** `client@address` split at the last `@` (a client id may hold one). */
const splitSender = (sender: string): { client: string; address: string } => {
  const at = sender.lastIndexOf('@');
  return at < 0
    ? { client: sender, address: 'unknown' }
    : { client: sender.slice(0, at), address: sender.slice(at + 1) };
};

/** The actor of an MQTT request, or why it is refused. */
export const authorizeMqttRequest = (
  sender: RequestSender,
  action: RequestAction,
  deps: AuthorizeDeps,
): Result<Actor, Error> => {
  let actor: Actor;
  if (sender.user === undefined) {
    if (deps.embedded || deps.usersConfigured)
      return Result.err(
        refused(
          'user_required',
          {},
          `not allowed: a request must name its user (bridge/request/<user>/${action}, docs/security.md)`,
        ),
      );
    // An external broker and no users: its own credentials decide who may publish requests.
    actor = { role: 'arbiter', user: '(broker)', transport: 'mqtt' };
  } else {
    const role = deps.roleOf(sender.user);
    if (role === undefined)
      return Result.err(
        refused('unknown_user', { user: sender.user }, `not allowed: unknown user ${sender.user}`),
      );
    actor = {
      role,
      user: sender.user,
      transport: 'mqtt',
      ...(sender.sender === undefined ? {} : splitSender(sender.sender)),
    };
  }
  const why = refusalOf(actor, action);
  return why === undefined
    ? Result.ok(actor)
    : Result.err(refused('not_allowed', { user: actor.user, role: actor.role, action }, why));
};
