/**
 * What the embedded broker lets each role publish and read (docs/security.md), as pure rules.
 * Only the daemon publishes under the topic base (games, boards, bridge state, alerts, responses),
 * retained or not. An arbiter or operator publishes requests only, never retained, on
 * `<base>/bridge/request/<action>` or `<base>/bridge/request/<own user>/<action>`; the broker
 * rewrites both to `<base>/bridge/request/<user>/<action>/<sender>`, where the sender (client id and
 * address, URI-encoded) is what the broker saw, so the daemon knows who asked without trusting the
 * client. Readers read under the base; nobody but the daemon subscribes beyond it. While a broadcast
 * delay holds the public back, a display or broadcast reader (and an anonymous one) reads only the
 * delayed copies under `<base>/public/` and the daemon's `bridge/state` and `bridge/info`: the live
 * games, boards (whose states carry the position) and alerts are the arbiters' and operators'.
 *
 *   publishVerdict({ role: 'display', user: 'wall', base: 'cb', topic: 'cb/games/r1-b1', retain: true });
 *     // { ok: false, why: 'display may not publish on cb/games/r1-b1' }
 *   publishVerdict({ role: 'arbiter', user: 'anna', base: 'cb', topic: 'cb/bridge/request/set_result',
 *     retain: false, sender: 'web-1@127.0.0.1' });
 *     // { ok: true, topic: 'cb/bridge/request/anna/set_result/web-1%40127.0.0.1' }
 */
import { requestsAnything, type Role } from '../security/roles.js';

export interface PublishAttempt {
  readonly role: Role;
  readonly user: string;
  readonly base: string;
  readonly topic: string;
  readonly retain: boolean;
  /** `<client id>@<address>`, as the broker saw it. */
  readonly sender?: string;
}

export type PublishVerdict =
  { readonly ok: true; readonly topic: string } | { readonly ok: false; readonly why: string };

const ACTION = /^[a-z_]{1,40}$/;

/** Whether and where a client of `role` may publish (see the module comment). */
export const publishVerdict = (a: PublishAttempt): PublishVerdict => {
  const refuse = (why: string): PublishVerdict => ({ ok: false, why });
  if (a.topic.startsWith('$')) return refuse(`${a.role} may not publish on ${a.topic}`);
  if (a.role === 'daemon') return { ok: true, topic: a.topic };
  if (!requestsAnything(a.role)) return refuse(`${a.role} may not publish on ${a.topic}`);
  const prefix = `${a.base}/bridge/request/`;
  if (!a.topic.startsWith(prefix)) return refuse(`${a.role} may publish requests only, not on ${a.topic}`);
  if (a.retain) return refuse(`a request may not be retained (${a.topic})`);
  const levels = a.topic.slice(prefix.length).split('/');
  const action =
    levels.length === 1 ? levels[0] : levels.length === 2 && levels[0] === a.user ? levels[1] : undefined;
  if (action === undefined || !ACTION.test(action))
    return refuse(`${a.topic}: a request goes on ${prefix}<action> or ${prefix}${a.user}/<action>`);
  return { ok: true, topic: `${prefix}${a.user}/${action}/${encodeURIComponent(a.sender ?? 'unknown')}` };
};

/** The roles that read only the public topics while a broadcast delay is set. */
export const PUBLIC_READERS: ReadonlySet<Role> = new Set<Role>(['display', 'broadcast']);

/** What a public reader may subscribe to under a delay: literal prefix or exact topics, no wildcard over them. */
export const publicFilters = (
  base: string,
): { readonly prefix: string; readonly exact: readonly string[] } => ({
  prefix: `${base}/public/`,
  exact: [`${base}/bridge/state`, `${base}/bridge/info`],
});

/**
 * Whether a client of `role` may subscribe to `filter`; `delayed` when a broadcast delay is set
 * (public readers then read the delayed copies only, see the module comment).
 */
export const maySubscribe = (role: Role, base: string, filter: string, delayed = false): boolean => {
  if (role === 'daemon') return true;
  if (delayed && PUBLIC_READERS.has(role)) {
    const { prefix, exact } = publicFilters(base);
    return filter.startsWith(prefix) || exact.includes(filter);
  }
  return filter === `${base}/#` || filter.startsWith(`${base}/`);
};

/** Who sent a request, read back from its topic by the daemon. */
export interface RequestSender {
  /** Absent on `<base>/bridge/request/<action>` of an external broker (nobody verified it). */
  readonly user?: string;
  /** `<client id>@<address>` when the embedded broker saw it. */
  readonly sender?: string;
  readonly action: string;
}

/**
 * The user, action and sender of a request topic: `<base>/bridge/request/<action>`,
 * `…/<user>/<action>` (an external broker's ACL checked the user) or `…/<user>/<action>/<sender>`
 * (the embedded broker's rewrite); undefined for anything else.
 */
export const readRequestTopic = (base: string, topic: string): RequestSender | undefined => {
  const prefix = `${base}/bridge/request/`;
  if (!topic.startsWith(prefix)) return undefined;
  const levels = topic.slice(prefix.length).split('/');
  if (levels.some(l => l === '')) return undefined;
  const [first, second, third] = levels;
  if (levels.length === 1 && first !== undefined) return { action: first };
  if (levels.length === 2 && first !== undefined && second !== undefined)
    return { user: first, action: second };
  if (levels.length === 3 && first !== undefined && second !== undefined && third !== undefined) {
    let sender: string;
    try {
      sender = decodeURIComponent(third);
    } catch {
      return undefined;
    }
    return { user: first, action: second, sender };
  }
  return undefined;
};

/** True for an Origin the WebSocket listener accepts (see EmbeddedBroker). */
export const originAllowed = (
  origin: string | undefined,
  hostHeader: string | undefined,
  allowed: readonly string[],
  httpPort: number | undefined,
): boolean => {
  if (origin === undefined) return true; // not a browser: credentials decide
  if (allowed.includes(origin)) return true;
  if (httpPort === undefined || hostHeader === undefined) return false;
  let o: URL;
  try {
    o = new URL(origin);
  } catch {
    return false;
  }
  const host = hostHeader.replace(/:\d+$/, '');
  const port = o.port === '' ? (o.protocol === 'https:' ? 443 : 80) : Number(o.port);
  return (o.protocol === 'http:' || o.protocol === 'https:') && o.hostname === host && port === httpPort;
};
