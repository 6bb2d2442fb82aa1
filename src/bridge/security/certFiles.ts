/**
 * `chessbridge cert --out DIR [--host NAME...]`: writes a self-signed certificate
 * (`chessbridge.crt`) and its key (`chessbridge.key`, mode 0600) into DIR for a hall with no PKI,
 * and returns the lines to print: where they are, the names they are valid for, the fingerprint
 * to compare on a phone, and the configuration that uses them. Existing files are kept unless
 * `force` (rotating the pair is a deliberate act: every client must trust the new certificate).
 *
 *   const r = await writeCertFiles({ outDir: '/etc/chessbridge/tls', hosts: ['hall-pc'], days: 365, force: false, now: Date.now() });
 *   if (r.ok) r.lines.forEach(l => console.log(l));
 */
import { access, chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { makeSelfSigned } from './selfSignedCert.js';

export interface CertRequest {
  readonly outDir: string;
  readonly hosts: readonly string[];
  readonly days: number;
  readonly force: boolean;
  readonly now: number;
}

export type CertOutcome =
  | { readonly ok: true; readonly lines: readonly string[]; readonly cert: string; readonly key: string }
  | { readonly ok: false; readonly problems: readonly string[] };

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

/** Makes the pair and writes it (see the module comment). */
export const writeCertFiles = async (request: CertRequest): Promise<CertOutcome> => {
  const made = await makeSelfSigned({ hosts: request.hosts, days: request.days, now: request.now });
  if (made.isErr) return { ok: false, problems: [made.error.message] };
  const dir = resolve(request.outDir);
  const cert = join(dir, 'chessbridge.crt');
  const key = join(dir, 'chessbridge.key');
  if (!request.force) {
    const found = await Promise.all([cert, key].map(exists));
    const there = [cert, key].filter((_, i) => found[i] === true);
    if (there.length > 0)
      return {
        ok: false,
        problems: [
          `--out: ${there.join(' and ')} already there; every client trusts that certificate: give --force to replace it`,
        ],
      };
  }
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(key, made.value.keyPem, { mode: 0o600 });
    await chmod(key, 0o600);
    await writeFile(cert, made.value.certPem, { mode: 0o644 });
  } catch (e) {
    return {
      ok: false,
      problems: [`--out: cannot write into ${dir}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`],
    };
  }
  const v = made.value;
  return {
    ok: true,
    cert,
    key,
    lines: [
      `certificate ${cert}`,
      `key         ${key} (mode 0600: readable by the daemon's user only)`,
      `valid for   ${v.names.join(', ')}`,
      `until       ${v.notAfter.toISOString().slice(0, 10)}`,
      `SHA-256     ${v.fingerprint}`,
      '',
      'in the configuration (docs/security.md):',
      `  http: { tls: { cert: ${cert}, key: ${key} } }`,
      `  mqtt: { broker: { tls: { cert: ${cert}, key: ${key} } } }`,
      'browsers show a warning once per device: compare the SHA-256 above, then accept;',
      'MQTT clients trust it as their CA file (mosquitto_sub --cafile, MQTT.js ca).',
    ],
  };
};
