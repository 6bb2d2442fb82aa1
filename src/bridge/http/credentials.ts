/**
 * The arbiter's HTTP credentials as configured (`http.arbiter`: a token and/or a password, each
 * written inline, given by an environment variable, or kept in a file) turned into the secrets
 * the arbiter route checks. Files are read here, at start, so a secret never has to stand in the
 * configuration file; a file holds one line (a final newline is not part of the secret) and is held
 * to the same shortest length as a secret written in the configuration.
 *
 *   const auth = await readArbiterSecrets(config.http.arbiter);
 *   if (auth.isErr) throw auth.error;            // "http.arbiter.tokenFile: cannot read /run/…"
 *   new HttpServer({ arbiter: { ...auth.value, actions }, … });
 */
import { readFile } from 'node:fs/promises';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';
import { MIN_PASSWORD_LENGTH, MIN_TOKEN_LENGTH } from '../config/schema.js';
import type { ArbiterAuthConfig } from './auth.js';

/** The configuration's `http.arbiter` (a subset of its fields; absent = no HTTP arbiter actions). */
export interface ArbiterCredentialSources {
  readonly token?: string | undefined;
  readonly tokenFile?: string | undefined;
  readonly password?: string | undefined;
  readonly passwordFile?: string | undefined;
}

export type CredentialProblem =
  | { readonly kind: 'unreadable'; readonly field: string; readonly path: string }
  | { readonly kind: 'tooShort'; readonly field: string; readonly path: string; readonly minLength: number };
export type CredentialError = CredentialProblem & Error;

/** The secret of a file: its first line without the line end, surrounding blanks trimmed. */
export const parseSecretFile = (text: string): string => (text.split(/\r?\n/)[0] ?? '').trim();

const fromFile = async (
  field: string,
  path: string | undefined,
  inline: string | undefined,
  minLength: number,
  read: (path: string) => Promise<string>,
): Promise<Result<string | undefined, CredentialError>> => {
  if (path === undefined) return Result.ok(inline);
  let text: string;
  try {
    text = await read(path);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return Result.err(
      dataError<CredentialProblem>(
        { kind: 'unreadable', field, path },
        `http.arbiter.${field}: cannot read ${path} (${why})`,
      ),
    );
  }
  const secret = parseSecretFile(text);
  if (secret.length < minLength)
    return Result.err(
      dataError<CredentialProblem>(
        { kind: 'tooShort', field, path, minLength },
        `http.arbiter.${field}: the secret in ${path} is shorter than ${minLength} characters`,
      ),
    );
  return Result.ok(secret);
};

/** The secrets to check arbiter actions against; none configured = `{}` (the route answers 403). */
export const readArbiterSecrets = async (
  sources: ArbiterCredentialSources | undefined,
  read: (path: string) => Promise<string> = path => readFile(path, 'utf8'),
): Promise<Result<ArbiterAuthConfig, CredentialError>> => {
  if (sources === undefined) return Result.ok({});
  const token = await fromFile('tokenFile', sources.tokenFile, sources.token, MIN_TOKEN_LENGTH, read);
  if (token.isErr) return Result.err(token.error);
  const password = await fromFile(
    'passwordFile',
    sources.passwordFile,
    sources.password,
    MIN_PASSWORD_LENGTH,
    read,
  );
  if (password.isErr) return Result.err(password.error);
  return Result.ok({
    ...(token.value === undefined ? {} : { token: token.value }),
    ...(password.value === undefined ? {} : { password: password.value }),
  });
};
