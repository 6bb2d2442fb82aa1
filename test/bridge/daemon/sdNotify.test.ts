import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { levelFor, makeLogLine, memoryLogger } from '../../../src/bridge/logger.js';
import { SdNotify, socatAddress, watchdogIntervalMs, type RunHelper } from '../../../src/bridge/sdNotify.js';
import { waitFor } from '../../support/mosquitto.js';

describe('sdNotify', () => {
  it('does nothing without NOTIFY_SOCKET', async () => {
    const calls: string[] = [];
    const notify = new SdNotify({
      env: {},
      log: memoryLogger().logger,
      run: f => (calls.push(f), Promise.resolve()),
    });
    await notify.ready();
    expect(notify.enabled).toBe(false);
    expect(notify.watchdogMs).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it('pings the watchdog at half of WATCHDOG_USEC, only for the watched pid', () => {
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000' }, 7)).toBe(15_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '7' }, 7)).toBe(15_000);
    expect(watchdogIntervalMs({ WATCHDOG_USEC: '30000000', WATCHDOG_PID: '8' }, 7)).toBeUndefined();
    expect(watchdogIntervalMs({}, 7)).toBeUndefined();
  });

  it('falls back to socat when systemd-notify is missing, and switches off after a failure, with one warning', async () => {
    const calls: string[] = [];
    const enoent = Object.assign(new Error('spawn systemd-notify ENOENT'), { code: 'ENOENT' });
    let socatWorks = true;
    const run: RunHelper = (file, args, input) => {
      calls.push(
        `${file} ${args.join(' ')}${input === undefined ? '' : ` <${input.trim().replace(/\n/g, '|')}`}`,
      );
      if (file === 'systemd-notify') return Promise.reject(enoent);
      return socatWorks ? Promise.resolve() : Promise.reject(new Error('socat: connection refused'));
    };
    const { logger, lines } = memoryLogger('warn');
    const notify = new SdNotify({ env: { NOTIFY_SOCKET: '@notify' }, log: logger, pid: 42, run });
    await notify.ready('serving 3 boards');
    expect(calls).toEqual([
      'systemd-notify READY=1 STATUS=serving 3 boards MAINPID=42',
      'socat -u - ABSTRACT-SENDTO:notify <READY=1|STATUS=serving 3 boards|MAINPID=42',
    ]);
    await notify.watchdog();
    expect(calls.at(-1)).toBe('socat -u - ABSTRACT-SENDTO:notify <WATCHDOG=1|MAINPID=42');
    socatWorks = false;
    await notify.stopping();
    await notify.status('never sent');
    expect(calls).toHaveLength(4);
    expect(notify.enabled).toBe(false);
    expect(lines.filter(l => l.includes('cannot notify systemd'))).toHaveLength(1);
    expect(socatAddress('/run/systemd/notify')).toBe('UNIX-SENDTO:/run/systemd/notify');
  });

  it('delivers a datagram to a real notify socket with the real helpers', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chessbridge-notify-'));
    const socket = join(dir, 'notify.sock');
    // A stand-in for systemd: receives datagrams on a unix socket, prints them, and closes the
    // file descriptors that come with them (systemd-notify waits until its barrier's is closed).
    const python = [
      'import array, os, socket, sys',
      's = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)',
      's.bind(sys.argv[1])',
      'while True:',
      '    data, anc, _, _ = s.recvmsg(4096, socket.CMSG_SPACE(16 * 4))',
      '    for level, kind, raw in anc:',
      '        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:',
      '            for fd in array.array("i", raw[: len(raw) - len(raw) % 4]): os.close(fd)',
      '    sys.stdout.write(data.decode() + "\\n"); sys.stdout.flush()',
    ].join('\n');
    const receiver = spawn('python3', ['-c', python, socket], { stdio: ['ignore', 'pipe', 'pipe'] });
    receiver.stderr.on('data', (c: Buffer) => (got += c.toString()));
    let got = '';
    receiver.stdout.on('data', (c: Buffer) => (got += c.toString()));
    try {
      const { existsSync } = await import('node:fs');
      await waitFor(() => existsSync(socket), 5000, 'the socket');
      const { logger, lines } = memoryLogger('warn');
      const notify = new SdNotify({ env: { NOTIFY_SOCKET: socket }, log: logger, pid: 4242 });
      await notify.ready('up');
      await waitFor(() => got.includes('READY=1'), 8000, `READY=1 (got: ${got}; log: ${lines.join(' / ')})`);
      expect(got).toContain('MAINPID=4242');
      expect(lines).toEqual([]);
    } finally {
      receiver.kill('SIGKILL');
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('logger', () => {
  it('inherits levels along the namespace and evaluates thunks only when enabled', () => {
    expect(levelFor('chessbridge:driver:b-07', 'info', { 'chessbridge:driver': 'debug' })).toBe('debug');
    expect(levelFor('chessbridge:drivers', 'info', { 'chessbridge:driver': 'debug' })).toBe('info');
    const { logger, lines } = memoryLogger('info');
    let built = 0;
    logger.child('bridge').debug(() => `hex ${++built}`);
    logger.child('bridge').info(() => `move ${++built}`);
    expect(built).toBe(1);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\S+Z INFO  chessbridge:bridge move 1$/);
  });

  it('writes JSON lines for machines, with fields', () => {
    const line = makeLogLine(
      {
        time: 0,
        level: 'warn',
        namespace: 'chessbridge:bridge:board:b1',
        message: 'protocol error',
        fields: { hex: '7F' },
      },
      'json',
    );
    expect(JSON.parse(line)).toEqual({
      time: '1970-01-01T00:00:00.000Z',
      level: 'warn',
      ns: 'chessbridge:bridge:board:b1',
      msg: 'protocol error',
      hex: '7F',
    });
    expect(line.endsWith('\n')).toBe(true);
  });
});
