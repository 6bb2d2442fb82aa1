/**
 * The self-signed pair of `chessbridge cert` (names, validity, key usage) read back by node's own
 * X.509 parser, and the checks of a configured certificate and key: each problem a
 * `path: problem` line naming the field and the file.
 */
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { certificateNames, makeSelfSigned } from '../../../src/bridge/security/selfSignedCert.js';
import { readTlsPair, readTlsPairs } from '../../../src/bridge/security/tlsFiles.js';

const NOW = Date.UTC(2026, 11, 4, 12);
const DAY = 86_400_000;

const pairOf = async (hosts: readonly string[] = []) =>
  (await makeSelfSigned({ hosts, days: 30, now: NOW })).unwrap();

/** A reader over an in-memory folder. */
const files =
  (contents: Record<string, string>) =>
  (path: string): Promise<Buffer> =>
    path in contents
      ? Promise.resolve(Buffer.from(contents[path] ?? ''))
      : Promise.reject(Object.assign(new Error('no such file'), { code: 'ENOENT' }));

describe('chessbridge cert: the self-signed pair', () => {
  it('is valid for the names given plus localhost, 127.0.0.1 and ::1, for the days asked, as a server', async () => {
    const made = await pairOf(['hall-pc', '192.168.1.20', 'HALL-PC', '[fe80::1]']);
    expect(made.names).toEqual(['localhost', '127.0.0.1', '::1', 'hall-pc', '192.168.1.20', 'fe80::1']);
    const cert = new X509Certificate(made.certPem);
    expect(cert.checkHost('hall-pc')).toBe('hall-pc');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(cert.checkHost('other-pc')).toBeUndefined();
    expect(cert.checkIP('192.168.1.20')).toBe('192.168.1.20');
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkIP('192.168.1.21')).toBeUndefined();
    expect(cert.ca).toBe(false);
    expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']); // serverAuth
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(Date.parse(cert.validTo)).toBeGreaterThanOrEqual(NOW + 30 * DAY - 1000);
    expect(Date.parse(cert.validFrom)).toBeLessThan(NOW);
    expect(cert.fingerprint256).toBe(made.fingerprint);
    expect(made.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('refuses a name that is neither a host name nor an address, and days out of range', async () => {
    expect(certificateNames(['hall pc']).isErr).toBe(true);
    expect(certificateNames(['hall_pc.local']).isErr).toBe(true);
    const bad = await makeSelfSigned({ hosts: ['-bad-'], days: 30, now: NOW });
    expect(bad.isErr && bad.error.message).toBe(
      '--host "-bad-" is neither a host name (letters, digits, -, dots) nor an IP address',
    );
    const days = await makeSelfSigned({ hosts: [], days: 0, now: NOW });
    expect(days.isErr && days.error.message).toBe('--days 0: give a whole number of days from 1 to 3650');
  });
});

describe('a configured certificate and key', () => {
  it('reads a matching pair', async () => {
    const p = await pairOf(['hall-pc']);
    const r = await readTlsPair(
      { cert: 'c.pem', key: 'k.pem' },
      'http.tls',
      NOW,
      files({ 'c.pem': p.certPem, 'k.pem': p.keyPem }),
    );
    expect(r.isOk && r.value.leaf.checkHost('hall-pc')).toBe('hall-pc');
  });

  it('names each problem with its field and file', async () => {
    const [a, b] = await Promise.all([pairOf(), pairOf()]);
    const read = files({
      'a.crt': a.certPem,
      'a.key': a.keyPem,
      'b.key': b.keyPem,
      'notes.txt': 'hello',
    });
    const problems = async (cert: string, key: string, now = NOW) => {
      const r = await readTlsPair({ cert, key }, 'mqtt.broker.tls', now, read);
      return r.isErr ? r.error.problems : [];
    };
    expect(await problems('a.crt', 'b.key')).toEqual([
      'mqtt.broker.tls.key: the key in b.key is not the key of the certificate in a.crt',
    ]);
    expect(await problems('missing.crt', 'a.key')).toEqual([
      'mqtt.broker.tls.cert: cannot read missing.crt: ENOENT',
    ]);
    expect(await problems('notes.txt', 'notes.txt')).toEqual([
      'mqtt.broker.tls.cert: notes.txt holds no PEM certificate (-----BEGIN CERTIFICATE-----)',
      'mqtt.broker.tls.key: notes.txt holds no private key (PEM, unencrypted: -----BEGIN PRIVATE KEY-----)',
    ]);
    // The key file given as the certificate and the other way round.
    expect((await problems('a.key', 'a.crt'))[0]).toMatch(/^mqtt\.broker\.tls\.cert: a\.key holds no PEM/);
    expect(await problems('a.crt', 'a.key', NOW + 40 * DAY)).toEqual([
      expect.stringMatching(
        /^mqtt\.broker\.tls\.cert: a\.crt expired on 2027-01-03T\d\d:\d\d:\d\d\.\d+Z; make a new one \(chessbridge cert\)$/,
      ),
    ]);
    // Both listeners at once: every problem, and nothing for a listener without TLS.
    const both = await readTlsPairs(
      {
        http: { files: { cert: 'a.crt', key: 'nope.key' }, at: 'http.tls' },
        broker: { files: { cert: 'a.crt', key: 'b.key' }, at: 'mqtt.broker.tls' },
        none: { files: undefined, at: 'x' },
      },
      NOW,
      read,
    );
    expect(both.isErr && both.error.problems).toEqual([
      'http.tls.key: cannot read nope.key: ENOENT',
      'mqtt.broker.tls.key: the key in b.key is not the key of the certificate in a.crt',
    ]);
  });
});
