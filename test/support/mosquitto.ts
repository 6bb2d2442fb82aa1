/**
 * A real mosquitto for integration tests: started on a free loopback port with a temporary
 * config file and persistence folder, killed with SIGKILL and restarted on the same port, and
 * waited for (a bounded poll of TCP connects) until it accepts connections. Every instance must
 * be stopped; `stop()` kills the process and removes the folder.
 *
 *   const broker = await startMosquitto({ persistence: true });
 *   await broker.kill(); await broker.restart();      // same port, same persistence
 *   await broker.stop();
 *
 * Also helpers every broker test uses: `waitFor` (a bounded poll instead of a fixed sleep) and
 * `startTcpProxy` (cut every connection at once, as a pulled cable or a crashed peer would).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export const MOSQUITTO_BINARY = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find(p => existsSync(p));

export interface MosquittoOptions {
  /** Keep sessions, queued messages and retained messages on disk, saved after every change. */
  readonly persistence?: boolean;
  /** Extra config lines. */
  readonly extraConfig?: readonly string[];
  /**
   * The listeners and their security, instead of one open listener on the port: lines for the
   * free port found (the one `url` names and the readiness check waits for).
   */
  readonly listeners?: (port: number) => readonly string[];
  /** Milliseconds to wait for the broker to accept connections (default 5000). */
  readonly readyTimeoutMs?: number;
}

export interface Mosquitto {
  readonly port: number;
  /** `mqtt://127.0.0.1:<port>`. */
  readonly url: string;
  /** Broker log lines so far (stderr), for failure messages. */
  readonly output: () => string;
  /** With persistence: whether the broker has written its database file at least once. */
  readonly savedToDisk: () => boolean;
  /** SIGKILL, then wait for the process to be gone. */
  kill(): Promise<void>;
  /** Start again on the same port and persistence folder; waits until it accepts connections. */
  restart(): Promise<void>;
  /** SIGKILL and remove the temporary folder. Idempotent. */
  stop(): Promise<void>;
}

/** A free TCP port on 127.0.0.1 (bound, read, released). */
export const freePort = (): Promise<number> =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Resolves once a TCP connection to the port succeeds; rejects after `timeoutMs`. */
export const waitForPort = async (port: number, timeoutMs: number): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>(resolve => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`nothing accepts connections on 127.0.0.1:${port} after ${timeoutMs} ms`);
    await new Promise(resolve => setTimeout(resolve, 25));
  }
};

const exited = (child: ChildProcess): Promise<void> =>
  new Promise<void>(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** Starts a mosquitto on a free loopback port (see the module comment). */
export const startMosquitto = async (options: MosquittoOptions = {}): Promise<Mosquitto> => {
  if (MOSQUITTO_BINARY === undefined)
    throw new Error('mosquitto is not installed (see scripts/system-deps.sh)');
  const binary = MOSQUITTO_BINARY;
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-mosquitto-'));
  const port = await freePort();
  const config = [
    ...(options.listeners?.(port) ?? [`listener ${port} 127.0.0.1`, 'allow_anonymous true']),
    // When run as root mosquitto switches to the "mosquitto" user, which cannot write our folder.
    `user ${userInfo().username}`,
    'log_dest stderr',
    'log_type error',
    'log_type warning',
    'max_queued_messages 100000',
    ...(options.persistence === true
      ? [
          'persistence true',
          `persistence_location ${dir}/`,
          'autosave_interval 1',
          'autosave_on_changes true',
        ]
      : ['persistence false']),
    ...(options.extraConfig ?? []),
  ];
  const configPath = join(dir, 'mosquitto.conf');
  await writeFile(configPath, `${config.join('\n')}\n`);
  let log = '';
  let child: ChildProcess | undefined;
  const readyTimeoutMs = options.readyTimeoutMs ?? 5000;

  const launch = async () => {
    const proc = spawn(binary, ['-c', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
    child = proc;
    proc.stderr.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const early = exited(proc).then(() => {
      throw new Error(`mosquitto exited at start (code ${proc.exitCode}):\n${log}`);
    });
    early.catch(() => undefined); // a later exit (our own kill) is not an error
    await Promise.race([waitForPort(port, readyTimeoutMs), early]);
  };

  const kill = async () => {
    const proc = child;
    child = undefined;
    if (!proc) return;
    proc.kill('SIGKILL');
    await exited(proc);
  };

  await launch();
  let stopped = false;
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    output: () => log,
    savedToDisk: () => existsSync(join(dir, 'mosquitto.db')),
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
};

/**
 * How many times longer than asked a wait holds on before it fails: a wait ends as soon as its
 * condition holds, so only a failing test pays for this, and a loaded machine (the suite's own
 * workers, socat, mosquitto and daemons on two cores) does not fail a test that is only slow.
 */
const PATIENCE = 4;

/**
 * Polls `condition` every 10 ms until it holds; rejects after `timeoutMs` (times PATIENCE) with
 * `what` in the message (a function is called then, so it can tell what the wait saw).
 */
export const waitFor = async (
  condition: () => boolean,
  timeoutMs: number,
  what: string | (() => string),
): Promise<void> => {
  const limit = timeoutMs * PATIENCE;
  const deadline = Date.now() + limit;
  while (!condition()) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${limit} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise(resolve => setTimeout(resolve, 10));
  }
};

export interface TcpProxy {
  readonly port: number;
  /** Destroys every proxied connection on both sides (no MQTT DISCONNECT is sent). */
  cutAll(): void;
  close(): Promise<void>;
}

/** A loopback TCP proxy to `targetPort`, so a test can cut a client's connection abruptly. */
export const startTcpProxy = async (targetPort: number): Promise<TcpProxy> => {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer(client => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cutAll: () => sockets.forEach(socket => socket.destroy()),
    close: () =>
      new Promise<void>(resolve => {
        sockets.forEach(socket => socket.destroy());
        server.close(() => resolve());
      }),
  };
};
