/**
 * A self-signed certificate and its key for a hall with no PKI (`chessbridge cert`): an ECDSA
 * P-256 key made by node:crypto, and an X.509 v3 certificate built and signed by @peculiar/x509
 * (node:crypto reads certificates but cannot write them). Its subjectAltName holds the hall's host
 * names and addresses given, plus localhost, 127.0.0.1 and ::1; it is for a server (serverAuth,
 * not a CA). Clients trust this one certificate (the daemon's pages in a browser after one
 * confirmation, MQTT clients with it as their CA file).
 *
 *   const r = await makeSelfSigned({ hosts: ['hall-pc', '192.168.1.20'], days: 365, now: Date.now() });
 *   if (r.isOk) await writeFile('chessbridge.crt', r.value.certPem);
 *   r.value.fingerprint;   // 'AB:12:…' (SHA-256), to compare on a phone
 */
import { X509Certificate, createHash, randomBytes, webcrypto } from 'node:crypto';
import { isIP } from 'node:net';
import * as x509 from '@peculiar/x509';
import { Result } from '@badrap/result';
import { dataError } from '../../engine/types.js';

export interface SelfSignedRequest {
  /** Host names and IP addresses of the machine, besides localhost, 127.0.0.1 and ::1. */
  readonly hosts: readonly string[];
  /** Days it stays valid (1 to 3650). */
  readonly days: number;
  /** Milliseconds since the epoch: the start of its validity. */
  readonly now: number;
}

export interface SelfSigned {
  readonly certPem: string;
  /** PKCS #8, unencrypted: keep the file readable by the daemon's user only. */
  readonly keyPem: string;
  /** The names and addresses it is valid for. */
  readonly names: readonly string[];
  /** SHA-256 of the certificate, colon-separated hex. */
  readonly fingerprint: string;
  /** base64 SHA-256 of the public key (SubjectPublicKeyInfo): what browsers pin. */
  readonly spkiSha256: string;
  readonly notAfter: Date;
}

export type SelfSignedError = Error & { readonly kind: 'badHost' | 'badDays'; readonly value: string };

/** A DNS name: labels of letters, digits and hyphens (a `*.` wildcard first is allowed). */
const DNS_NAME =
  /^(\*\.)?([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

const DEFAULT_NAMES = ['localhost', '127.0.0.1', '::1'] as const;

/** The names of a request, defaults first, each once; or the first bad one. */
export const certificateNames = (hosts: readonly string[]): Result<string[], SelfSignedError> => {
  const names: string[] = [...DEFAULT_NAMES];
  for (const raw of hosts) {
    const host = raw.trim().replace(/^\[|\]$/g, '');
    if (isIP(host) === 0 && (!DNS_NAME.test(host) || host.length > 253))
      return Result.err(
        dataError(
          { kind: 'badHost' as const, value: raw },
          `--host "${raw}" is neither a host name (letters, digits, -, dots) nor an IP address`,
        ),
      );
    if (!names.some(n => n.toLowerCase() === host.toLowerCase())) names.push(host);
  }
  return Result.ok(names);
};

const pem = (label: string, der: ArrayBuffer): string =>
  `-----BEGIN ${label}-----\n${(
    Buffer.from(der)
      .toString('base64')
      .match(/.{1,64}/g) ?? []
  ).join('\n')}\n-----END ${label}-----\n`;

/** Makes the key and the certificate (see the module comment). */
export const makeSelfSigned = async (
  request: SelfSignedRequest,
): Promise<Result<SelfSigned, SelfSignedError>> => {
  if (!Number.isInteger(request.days) || request.days < 1 || request.days > 3650)
    return Result.err(
      dataError(
        { kind: 'badDays' as const, value: String(request.days) },
        `--days ${request.days}: give a whole number of days from 1 to 3650`,
      ),
    );
  const named = certificateNames(request.hosts);
  if (named.isErr) return Result.err(named.error);
  const names = named.value;
  x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify']);
  // Backdated a little: a phone whose clock is a few minutes slow still accepts it.
  const notBefore = new Date(request.now - 60 * 60_000);
  const notAfter = new Date(request.now + request.days * 86_400_000);
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f; // a positive integer
  const first = names[3] ?? 'localhost';
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial.toString('hex'),
    name: `CN=chessbridge ${first.replace(/[,+="\\<>;#]/g, '')}`,
    notBefore,
    notAfter,
    keys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      new x509.SubjectAlternativeNameExtension(
        names.map(n =>
          isIP(n) === 0 ? { type: 'dns' as const, value: n } : { type: 'ip' as const, value: n },
        ),
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  const certPem = cert.toString('pem').replace(/\r\n/g, '\n').trimEnd() + '\n';
  const keyPem = pem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', keys.privateKey));
  const spki = await webcrypto.subtle.exportKey('spki', keys.publicKey);
  const parsed = new X509Certificate(certPem);
  return Result.ok({
    certPem,
    keyPem,
    names,
    fingerprint: parsed.fingerprint256,
    spkiSha256: createHash('sha256').update(Buffer.from(spki)).digest('base64'),
    notAfter,
  });
};
