/**
 * Arbiter actions over HTTP: `POST /api/arbiter/<action>` with a JSON body, protected by a user's
 * own credentials (`Authorization: Basic` with a user of the configuration, checked by the shared
 * UserDirectory: guesses slowed per address and user, never the right credentials), or the
 * venue's bearer token or password (see auth.ts). The handlers are injected (the daemon wires accept-claim,
 * penalty, restore, set-result, resync ...); replies use the request/response envelope of the
 * MQTT API: `{ status: 'ok', data, transaction? }` or `{ status: 'error', error, transaction? }`.
 *
 *   const arbiter = { token: 'secret', actions: { restore: async req => Result.ok(await restore(req.body)) } };
 *   await arbiterReply(req, 'restore', { options: arbiter, limiter, now, host: 'venue:8080' });
 *
 * Refusals: 401 without or with wrong credentials, 403 when no credential is configured, the
 * request comes from another origin or the user's role may not make the action, 415 for a body
 * that is not JSON, 413 for a body over the limit, 429 while an address's guesses are slowed (the
 * right credentials are never refused so), 404 for an unknown action; with a request gate, 429
 * when the caller is over its request rate and 503 when the daemon is busy (both with Retry-After).
 */
import type { IncomingMessage } from 'node:http';
import type { Result } from '@badrap/result';
import {
  type ArbiterAuthConfig,
  type AuthMethod,
  type FailureLimiter,
  basicCredentials,
  checkAuthorization,
  makeChallenges,
} from './auth.js';
import { type HttpReply, errorReply, jsonReply } from './reply.js';
import { type RefusalCode, refusalFields } from '../wire/refusals.js';
import type { RequestGate } from '../requestGate.js';
import type { Actor } from '../security/roles.js';
import type { UserDirectory } from '../security/users.js';

export interface ArbiterRequest {
  readonly action: string;
  /** The parsed JSON body ({} when empty). */
  readonly body: unknown;
  readonly via: AuthMethod | 'user';
  /** Client address, for the journal. */
  readonly remote: string | undefined;
  /** Who acted: the user and role, or the venue's token or password as an arbiter. */
  readonly actor: Actor;
}

/** An injected action handler: Ok data goes back to the client, Err becomes a 422 with its message. */
export type ArbiterAction = (request: ArbiterRequest) => Promise<Result<unknown, Error>>;

export interface ArbiterOptions extends ArbiterAuthConfig {
  /** Handlers by action name (the last path segment). */
  readonly actions: Readonly<Record<string, ArbiterAction>>;
  /** Largest body accepted, in bytes (default 64 KiB). */
  readonly maxBodyBytes?: number;
  /** The venue's users: Basic credentials of a user are checked here (docs/security.md). */
  readonly users?: UserDirectory;
  /** Rate limits and the bound on pending requests (shared with the MQTT requests). */
  readonly gate?: Pick<RequestGate, 'admit'>;
}

export interface ArbiterContext {
  readonly options: ArbiterOptions;
  readonly limiter: FailureLimiter;
  readonly now: number;
}

const ACTION = /^[a-z][a-z0-9-]{0,63}$/;

class BodyTooLarge extends Error {}

const readBody = (req: IncomingMessage, limit: number): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge(`body over ${limit} bytes`));
        req.removeAllListeners('data');
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** A request from a browser page of another site carries an Origin that is not ours. */
const isForeignOrigin = (req: IncomingMessage): boolean => {
  const origin = req.headers.origin;
  if (origin === undefined) return false;
  const host = req.headers.host;
  return host === undefined || (origin !== `http://${host}` && origin !== `https://${host}`);
};

const transactionOf = (body: unknown): Record<string, unknown> => {
  if (typeof body !== 'object' || body === null || !('transaction' in body)) return {};
  const t = body.transaction;
  return typeof t === 'string' || typeof t === 'number' ? { transaction: t } : {};
};

/**
 * The Basic login of a configured user, checked by the directory; undefined when the header names
 * no user of it (then the venue's token or password is tried).
 */
const userLogin = async (
  header: string | undefined,
  users: UserDirectory | undefined,
  address: string,
): Promise<Awaited<ReturnType<UserDirectory['check']>> | undefined> => {
  const given = users === undefined ? undefined : basicCredentials(header);
  if (users === undefined || given === undefined) return undefined;
  const role = users.roleOf(given.user);
  if (role === undefined || role === 'daemon') return undefined;
  return users.check(given.user, given.secret, address);
};

/** Who logged in, and how; or the reply that refuses the request (401, 403, 429). */
export type HttpLogin =
  | { readonly ok: true; readonly via: ArbiterRequest['via']; readonly actor: Actor }
  | { readonly ok: false; readonly reply: HttpReply };

/**
 * Checks a request's credentials: the Basic login of a configured user, else the venue's token or
 * password (as an arbiter). Failed guesses are slowed per address; the right credentials never are.
 */
export const httpLogin = async (
  req: IncomingMessage,
  ctx: Pick<ArbiterContext, 'options' | 'limiter' | 'now'>,
): Promise<HttpLogin> => {
  const { options, limiter, now } = ctx;
  const address = req.socket.remoteAddress ?? 'unknown';
  const login = await userLogin(req.headers.authorization, options.users, address);
  if (login !== undefined) {
    if (!login.ok) {
      if (login.why !== 'wrong')
        return {
          ok: false,
          reply: errorReply(
            429,
            'too many failed attempts; try again later',
            'json',
            { 'retry-after': '1' },
            { code: 'too_many_attempts', params: {} },
          ),
        };
      const refused = errorReply(
        401,
        'wrong credentials',
        'json',
        {},
        { code: 'credentials_wrong', params: {} },
      );
      return {
        ok: false,
        reply: { ...refused, headers: { ...refused.headers, 'www-authenticate': makeChallenges(options) } },
      };
    }
    return { ok: true, via: 'user', actor: { ...login.principal, transport: 'http', address } };
  }
  // Users of the list log in with Basic even where no venue token or password is set.
  const users = options.users;
  const people = users?.names().some(n => users.roleOf(n) !== 'daemon') ?? false;
  const challenges = [
    ...makeChallenges(options),
    ...(people && (options.password ?? '') === '' ? ['Basic realm="chessbridge", charset="UTF-8"'] : []),
  ];
  const auth = checkAuthorization(req.headers.authorization, options);
  if (auth.isErr) {
    const kind = auth.error.kind;
    if (kind === 'disabled' && !people)
      return {
        ok: false,
        reply: errorReply(403, auth.error.message, 'json', {}, { code: 'logins_off', params: {} }),
      };
    // A guessing address is slowed; the right token or password is never refused so.
    const wait = limiter.blockedFor(address, now);
    if (wait > 0)
      return {
        ok: false,
        reply: errorReply(
          429,
          'too many failed attempts; try again later',
          'json',
          { 'retry-after': String(Math.ceil(wait / 1000)) },
          { code: 'too_many_attempts', params: {} },
        ),
      };
    if (kind !== 'missing' && kind !== 'disabled') limiter.recordFailure(address, now);
    const message =
      kind === 'disabled'
        ? req.headers.authorization === undefined
          ? 'credentials required (Authorization: Basic with your user name and password)'
          : 'wrong credentials'
        : auth.error.message;
    const code: RefusalCode =
      kind === 'missing' || (kind === 'disabled' && req.headers.authorization === undefined)
        ? 'credentials_required'
        : 'credentials_wrong';
    const refused = errorReply(401, message, 'json', {}, { code, params: {} });
    return {
      ok: false,
      reply: { ...refused, headers: { ...refused.headers, 'www-authenticate': challenges } },
    };
  }
  return {
    ok: true,
    via: auth.value,
    actor: { role: 'arbiter', user: `(${auth.value})`, transport: 'http', address },
  };
};

export const arbiterReply = async (
  req: IncomingMessage,
  action: string,
  ctx: ArbiterContext,
): Promise<HttpReply> => {
  const { options } = ctx;
  if (req.method !== 'POST')
    return errorReply(405, 'arbiter actions are POST requests', 'json', { allow: 'POST' }, undefined);
  const address = req.socket.remoteAddress ?? 'unknown';
  const login = await httpLogin(req, ctx);
  if (!login.ok) return login.reply;
  const { via, actor } = login;
  if (isForeignOrigin(req))
    return errorReply(
      403,
      'arbiter actions are refused from other origins',
      'json',
      {},
      {
        code: 'foreign_origin',
        params: {},
      },
    );
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json')
    return errorReply(
      415,
      'send the action as application/json',
      'json',
      {},
      {
        code: 'json_content_type',
        params: {},
      },
    );
  const handler = ACTION.test(action) ? options.actions[action] : undefined;
  if (!handler)
    return errorReply(
      404,
      `unknown arbiter action '${action}'`,
      'json',
      {},
      {
        code: 'unknown_action',
        params: { action },
      },
    );
  const ticket = options.gate?.admit({
    transport: 'http',
    address,
    ...(via === 'user' ? { user: actor.user } : {}),
  });
  if (ticket?.ok === false)
    return errorReply(
      ticket.reason === 'rate_limited' ? 429 : 503,
      ticket.message,
      'json',
      { 'retry-after': String(ticket.retryAfterS) },
      { code: ticket.reason, params: { seconds: ticket.retryAfterS } },
    );
  try {
    return await act(req, action, handler, { via, actor }, options);
  } finally {
    if (ticket?.ok === true) ticket.release();
  }
};

/** Reads the body and runs the action (the request is authorised and admitted). */
const act = async (
  req: IncomingMessage,
  action: string,
  handler: ArbiterAction,
  who: Pick<ArbiterRequest, 'via' | 'actor'>,
  options: ArbiterOptions,
): Promise<HttpReply> => {
  let body: unknown;
  try {
    const bytes = await readBody(req, options.maxBodyBytes ?? 64 * 1024);
    body = bytes.length === 0 ? {} : (JSON.parse(bytes.toString('utf8')) as unknown);
  } catch (e) {
    if (e instanceof BodyTooLarge)
      return errorReply(
        413,
        e.message,
        'json',
        { connection: 'close' },
        { code: 'body_too_large', params: {} },
      );
    return errorReply(
      400,
      `body is not valid JSON: ${(e as Error).message}`,
      'json',
      {},
      {
        code: 'bad_json',
        params: {},
      },
    );
  }
  const transaction = transactionOf(body);
  const result = await handler({ action, body, ...who, remote: req.socket.remoteAddress });
  if (result.isErr) {
    const kind =
      'kind' in result.error && typeof result.error.kind === 'string' ? { kind: result.error.kind } : {};
    if (kind.kind === 'notAllowed')
      return jsonReply(403, {
        status: 'error',
        error: result.error.message,
        ...refusalFields(result.error),
        ...kind,
        ...transaction,
      });
    return jsonReply(422, {
      status: 'error',
      error: result.error.message,
      ...refusalFields(result.error),
      ...kind,
      ...transaction,
    });
  }
  return jsonReply(200, { status: 'ok', data: result.value ?? null, ...transaction });
};
