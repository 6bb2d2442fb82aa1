/**
 * Credentials for arbiter actions: a bearer token (`Authorization: Bearer TOKEN`, for scripts and
 * the console's fetch calls) or a password (`Authorization: Basic`, any user name, so a browser's
 * own login prompt works). Secrets are compared in constant time; repeated failures from one
 * address are refused for a while.
 *
 *   const verdict = checkAuthorization(req.headers.authorization, { token: 'secret' });
 *   if (verdict.isErr) return unauthorized(verdict.error); // 401 or 403
 *   verdict.value; // 'token' | 'password'
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';

export interface ArbiterAuthConfig {
  /** Bearer token accepted for arbiter actions. */
  readonly token?: string;
  /** Password accepted with HTTP Basic authentication (the user name is not checked). */
  readonly password?: string;
}

export type AuthMethod = 'token' | 'password';

export type AuthProblem =
  /** Neither a token nor a password is configured: arbiter actions are off. */
  | { readonly kind: 'disabled' }
  | { readonly kind: 'missing' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'wrong'; readonly method: AuthMethod };
export type AuthError = AuthProblem & Error;

const MESSAGES: { readonly [K in AuthProblem['kind']]: string } = {
  disabled: 'arbiter actions are disabled: configure a token or a password',
  missing: 'credentials required (Authorization: Bearer TOKEN, or Basic with the password)',
  malformed: 'unreadable Authorization header',
  wrong: 'wrong credentials',
};

const fail = (p: AuthProblem): Result<never, AuthError> => Result.err(dataError(p, MESSAGES[p.kind]));

/** Constant-time comparison of two secrets of any length (hash first, then compare the digests). */
export const sameSecret = (given: string, expected: string): boolean =>
  timingSafeEqual(
    createHash('sha256').update(given).digest(),
    createHash('sha256').update(expected).digest(),
  );

/** The user and secret of an `Authorization: Basic …` header; undefined for any other header. */
export const basicCredentials = (
  header: string | undefined,
): { readonly user: string; readonly secret: string } | undefined => {
  const m = header === undefined ? null : /^\s*basic\s+(\S+)\s*$/i.exec(header);
  if (m?.[1] === undefined) return undefined;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : { user: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
};

export const checkAuthorization = (
  header: string | undefined,
  config: ArbiterAuthConfig,
): Result<AuthMethod, AuthError> => {
  const { token, password } = config;
  if ((token ?? '') === '' && (password ?? '') === '') return fail({ kind: 'disabled' });
  if (header === undefined || header.trim() === '') return fail({ kind: 'missing' });
  const m = /^\s*(\w+)\s+(\S+)\s*$/.exec(header);
  if (!m) return fail({ kind: 'malformed' });
  const scheme = (m[1] as string).toLowerCase();
  const value = m[2] as string;
  if (scheme === 'bearer') {
    if (token === undefined || token === '') return fail({ kind: 'wrong', method: 'token' });
    return sameSecret(value, token) ? Result.ok('token') : fail({ kind: 'wrong', method: 'token' });
  }
  if (scheme === 'basic') {
    const decoded = Buffer.from(value, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return fail({ kind: 'malformed' });
    if (password === undefined || password === '') return fail({ kind: 'wrong', method: 'password' });
    return sameSecret(decoded.slice(colon + 1), password)
      ? Result.ok('password')
      : fail({ kind: 'wrong', method: 'password' });
  }
  return fail({ kind: 'malformed' });
};

/** The WWW-Authenticate challenges a 401 carries for a configuration. */
export const makeChallenges = (config: ArbiterAuthConfig): string[] => [
  ...((config.token ?? '') !== '' ? ['Bearer realm="chessbridge arbiter"'] : []),
  ...((config.password ?? '') !== '' ? ['Basic realm="chessbridge arbiter", charset="UTF-8"'] : []),
];

export interface FailureLimitOptions {
  /** Failed attempts allowed per address within the window. */
  readonly maxFailures: number;
  readonly windowMs: number;
}

/**
 * Counts failed attempts per client address in a fixed window; once over the limit, the address is
 * refused (429) until the window ends. Bounded: the table is cleared when it holds too many addresses.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, { count: number; since: number }>();

  constructor(private readonly opts: FailureLimitOptions) {}

  /** Milliseconds until `address` may try again, or 0 when it may try now. */
  blockedFor(address: string, now: number): number {
    const f = this.failures.get(address);
    if (!f || now - f.since >= this.opts.windowMs) return 0;
    return f.count >= this.opts.maxFailures ? f.since + this.opts.windowMs - now : 0;
  }

  recordFailure(address: string, now: number): void {
    const f = this.failures.get(address);
    if (!f || now - f.since >= this.opts.windowMs) {
      if (this.failures.size >= 10_000) this.failures.clear();
      this.failures.set(address, { count: 1, since: now });
    } else f.count++;
  }
}
