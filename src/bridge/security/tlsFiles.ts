/**
 * The certificate and key of a TLS listener (the HTTP server, the embedded broker), read from the
 * files the configuration names and checked before anything listens: each file readable, the
 * certificate a PEM X.509 certificate still valid, the key a PEM private key, and the key the one
 * of the certificate. A problem names the field, as `http.tls.key: …`; a key's content is never
 * shown.
 *
 *   const r = await readTlsPair(config.http.tls, 'http.tls', Date.now());
 *   if (r.isErr) throw r.error;          // "http.tls.key: the key in … is not the certificate's …"
 *   createServer({ cert: r.value.cert, key: r.value.key }, handler);
 */
import { X509Certificate, createPrivateKey, type KeyObject } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';

/** The files as the configuration gives them. */
export interface TlsFiles {
  readonly cert: string;
  readonly key: string;
}

/** What a TLS listener needs: the certificate (chain) and the key, as read. */
export interface TlsPair {
  readonly cert: Buffer;
  readonly key: Buffer;
  /** The leaf certificate, for the log line (subject names, expiry). */
  readonly leaf: X509Certificate;
}

export type TlsFilesError = Error & { readonly kind: 'tls'; readonly problems: readonly string[] };

type Read = (path: string) => Promise<Buffer>;

const why = (e: unknown): string => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

/** Reads and checks one pair; `at` is the configuration path (`http.tls`, `mqtt.broker.tls`). */
export const readTlsPair = async (
  files: TlsFiles,
  at: string,
  now: number,
  read: Read = path => readFile(path),
): Promise<Result<TlsPair, TlsFilesError>> => {
  const problems: string[] = [];
  const fail = () =>
    Result.err<TlsFilesError>(dataError({ kind: 'tls' as const, problems }, problems.join('; ')));
  const [cert, key] = await Promise.all(
    [files.cert, files.key].map(path =>
      read(path).catch((e: unknown) => {
        problems.push(`${at}.${path === files.cert ? 'cert' : 'key'}: cannot read ${path}: ${why(e)}`);
        return undefined;
      }),
    ),
  );
  if (cert === undefined || key === undefined) return fail();
  let leaf: X509Certificate | undefined;
  try {
    if (!cert.toString('latin1').includes('-----BEGIN CERTIFICATE-----')) throw new Error('no PEM');
    leaf = new X509Certificate(cert);
  } catch {
    problems.push(`${at}.cert: ${files.cert} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  let keyObject: KeyObject | undefined;
  try {
    keyObject = createPrivateKey(key);
  } catch {
    problems.push(
      `${at}.key: ${files.key} holds no private key (PEM, unencrypted: -----BEGIN PRIVATE KEY-----)`,
    );
  }
  if (leaf !== undefined) {
    const notAfter = Date.parse(leaf.validTo);
    if (notAfter < now)
      problems.push(
        `${at}.cert: ${files.cert} expired on ${new Date(notAfter).toISOString()}; make a new one (chessbridge cert)`,
      );
    if (keyObject !== undefined && !leaf.checkPrivateKey(keyObject))
      problems.push(`${at}.key: the key in ${files.key} is not the key of the certificate in ${files.cert}`);
  }
  if (problems.length > 0 || leaf === undefined) return fail();
  return Result.ok({ cert, key, leaf });
};

/** Reads every pair that is configured; every problem at once. */
export const readTlsPairs = async <K extends string>(
  pairs: Readonly<Record<K, { readonly files: TlsFiles | undefined; readonly at: string }>>,
  now: number,
  read?: Read,
): Promise<Result<Partial<Record<K, TlsPair>>, TlsFilesError>> => {
  const out: Partial<Record<K, TlsPair>> = {};
  const problems: string[] = [];
  for (const name of Object.keys(pairs) as K[]) {
    const { files, at } = pairs[name];
    if (files === undefined) continue;
    const r = await readTlsPair(files, at, now, read);
    if (r.isOk) out[name] = r.value;
    else problems.push(...r.error.problems);
  }
  if (problems.length > 0)
    return Result.err(dataError({ kind: 'tls' as const, problems }, problems.join('; ')));
  return Result.ok(out);
};

/** `chessbridge-hall (localhost, 127.0.0.1, hall-pc), until 2027-12-04` for the start's log line. */
export const describeCertificate = (leaf: X509Certificate): string => {
  const names = (leaf.subjectAltName ?? '')
    .split(/,\s*/)
    .map(n => n.replace(/^(DNS|IP Address):/, ''))
    .filter(n => n !== '');
  const cn = /CN=([^\n,]+)/.exec(leaf.subject)?.[1] ?? leaf.subject;
  return `${cn}${names.length > 0 ? ` (${names.join(', ')})` : ''}, until ${new Date(Date.parse(leaf.validTo)).toISOString().slice(0, 10)}`;
};
