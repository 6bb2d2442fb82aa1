/**
 * Login sessions for the live event stream (docs/security.md, "HTTP arbiter actions"). A page's
 * EventSource cannot send an Authorization header, so while a broadcast delay makes `/events` the
 * arbiters' and operators' only, a page logs in once with `POST /api/session` (the same login as
 * the arbiter routes: a user's Basic, or the venue's token or password) and gets a cookie holding
 * a random token (HttpOnly, SameSite=Strict, Secure over TLS) that the stream accepts for the
 * user's role. The token lives in the daemon's memory only, for `ttlMs` at most;
 * `DELETE /api/session` ends it. Nothing secret ever goes into a URL.
 *
 *   const sessions = new SessionStore({ ttlMs: 12 * 3600_000, now: Date.now });
 *   const { token, expiresAt } = sessions.open(actor);
 *   res.setHeader('set-cookie', sessionCookie(token, expiresAt - Date.now(), { secure: true }));
 *   sessions.actorOf(req.headers.cookie);   // the actor, while the session lasts
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Actor } from '../security/roles.js';
import { type ArbiterContext, httpLogin } from './arbiterRoutes.js';
import { type HttpReply, jsonReply, methodNotAllowed } from './reply.js';

/** The cookie's name. */
export const SESSION_COOKIE = 'chessbridge_session';

/** A session lasts at most a playing day; the page logs in again after it. */
export const SESSION_TTL_MS = 12 * 3600_000;

/** Sessions held at most; the oldest goes first beyond it. */
const MAX_SESSIONS = 1000;

export interface SessionStoreOptions {
  readonly ttlMs?: number;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
}

/** The value of cookie `name` in a Cookie header, if any. */
export const cookieValue = (header: string | undefined, name: string): string | undefined => {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
};

/** The Set-Cookie header of a session (`maxAgeMs` 0 clears it). */
export const sessionCookie = (token: string, maxAgeMs: number, opts: { readonly secure: boolean }): string =>
  [
    `${SESSION_COOKIE}=${token}`,
    'Path=/',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(opts.secure ? ['Secure'] : []),
  ].join('; ');

const digest = (token: string): string => createHash('sha256').update(token).digest('base64url');

export class SessionStore {
  /** By the token's digest (the tokens themselves are not kept). */
  private readonly sessions = new Map<string, { readonly actor: Actor; readonly expiresAt: number }>();
  private readonly ttlMs: number;

  constructor(private readonly opts: SessionStoreOptions) {
    this.ttlMs = opts.ttlMs ?? SESSION_TTL_MS;
  }

  /** A new session for `actor`: its token (for the cookie) and when it ends. */
  open(actor: Actor): { readonly token: string; readonly expiresAt: number } {
    const now = this.opts.now();
    for (const [key, s] of this.sessions) if (s.expiresAt <= now) this.sessions.delete(key);
    while (this.sessions.size >= MAX_SESSIONS) {
      const oldest = this.sessions.keys().next().value;
      if (oldest === undefined) break;
      this.sessions.delete(oldest);
    }
    const token = randomBytes(32).toString('base64url');
    const expiresAt = now + this.ttlMs;
    this.sessions.set(digest(token), { actor, expiresAt });
    return { token, expiresAt };
  }

  /** The actor of the session named in a Cookie header, while it lasts. */
  actorOf(cookieHeader: string | undefined): Actor | undefined {
    const token = cookieValue(cookieHeader, SESSION_COOKIE);
    if (token === undefined || token === '') return undefined;
    const key = digest(token);
    const s = this.sessions.get(key);
    if (s === undefined) return undefined;
    if (s.expiresAt <= this.opts.now()) {
      this.sessions.delete(key);
      return undefined;
    }
    return s.actor;
  }

  /** Ends the session named in a Cookie header, if any. */
  close(cookieHeader: string | undefined): void {
    const token = cookieValue(cookieHeader, SESSION_COOKIE);
    if (token !== undefined) this.sessions.delete(digest(token));
  }
}

/**
 * `POST /api/session` (log in: 200 with the user, role and end of the session, and its cookie) and
 * `DELETE /api/session` (log out: 204, the cookie cleared).
 */
export const sessionReply = async (
  req: IncomingMessage,
  ctx: Pick<ArbiterContext, 'options' | 'limiter' | 'now'> & {
    readonly sessions: SessionStore;
    readonly secure: boolean;
  },
): Promise<HttpReply> => {
  const method = req.method ?? 'GET';
  const noStore = { 'cache-control': 'no-store' };
  if (method === 'DELETE') {
    ctx.sessions.close(req.headers.cookie);
    return {
      status: 204,
      headers: { ...noStore, 'set-cookie': sessionCookie('', 0, { secure: ctx.secure }) },
    };
  }
  if (method !== 'POST') return methodNotAllowed('POST, DELETE', 'json');
  const login = await httpLogin(req, ctx);
  if (!login.ok) return login.reply;
  const { token, expiresAt } = ctx.sessions.open(login.actor);
  return jsonReply(
    200,
    { user: login.actor.user, role: login.actor.role, expires_at: new Date(expiresAt).toISOString() },
    { ...noStore, 'set-cookie': sessionCookie(token, expiresAt - ctx.now, { secure: ctx.secure }) },
  );
};
