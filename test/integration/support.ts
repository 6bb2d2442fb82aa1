/**
 * What the acceptance tests run against: the daemon as a child process (`chessbridge run -c FILE`
 * from the sources), emulated DGT boards on real socat PTY pairs playing real games with human
 * handling, a configuration file written per test, and an MQTT subscriber with a persistent
 * session that records every message and dedupes game events by seq.
 *
 *   const venue = await startVenue({ boards: 3, dir, serialBase: 31000, firstBoard: 1 });
 *   const daemon = await startDaemon(await writeConfig(dir, { venue, url: broker.url, base: 'venue/a' }));
 *   await waitFor(() => daemon.output().includes('ready'), 20_000, 'the daemon');
 *   await venue.play(i => stepsOfPlies(...));
 *   await daemon.stop(); await venue.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { connect, type MqttClient } from 'mqtt';
import { stringify } from 'yaml';
import { demoSteps } from '../../src/bridge/simulate/demo.js';
import { DEMO_GAMES, sansOf, type DemoGame } from '../../src/bridge/simulate/demoGames.js';
import { DgtBoardEmulator } from '../../src/drivers/dgt/emulator.js';
import type { ScriptStep } from '../../src/drivers/dgt/emulatorScript.js';
import { EmulatedBoardOnPty } from '../../src/emulators/emulatorHost.js';
import { PROJECT_ROOT } from '../support/shared.js';
import { childMainArgs } from '../support/childBuild.js';
import { adoptPtyPair, makeLinkDir } from '../support/pty.js';
import type { WireName } from '../../src/bridge/wire/schema.js';
import { assertWire } from '../support/wire.js';

export { waitFor } from '../support/mosquitto.js';

/** One emulated board of a venue and the game it plays. */
export interface VenueBoard {
  readonly id: string;
  readonly serial: string;
  /** Pairing board number (the game id is r1-b<number>). */
  readonly number: number;
  readonly game: DemoGame;
  readonly plies: readonly string[];
  readonly pty: EmulatedBoardOnPty;
}

export interface Venue {
  readonly boards: readonly VenueBoard[];
  stop(): Promise<void>;
}

/** A demo game cut to at most `maxPlies` plies (the game then ends without a result). */
export const pliesOf = (game: DemoGame, maxPlies: number): string[] => sansOf(game).slice(0, maxPlies);

/** Starts `count` emulated DGT boards on PTY pairs (board numbers from `firstBoard`). */
export const startVenue = async (options: {
  readonly count: number;
  readonly firstBoard: number;
  readonly serialBase: number;
  readonly speed: number;
  readonly maxPlies: number;
}): Promise<Venue> => {
  const boards: VenueBoard[] = [];
  for (let i = 0; i < options.count; i++) {
    const number = options.firstBoard + i;
    const dir = makeLinkDir();
    const serial = String(options.serialBase + number).padStart(5, '0');
    const pty = new EmulatedBoardOnPty({
      hostPath: join(dir, 'board'),
      devicePath: join(dir, 'emulator'),
      emulator: new DgtBoardEmulator({ serial }),
      speed: options.speed,
    });
    await pty.start();
    adoptPtyPair(pty.pair, dir);
    const game = DEMO_GAMES[(number - 1) % DEMO_GAMES.length] as DemoGame;
    boards.push({ id: `b-${number}`, serial, number, game, plies: pliesOf(game, options.maxPlies), pty });
  }
  return {
    boards,
    stop: async () => {
      await Promise.allSettled(boards.map(b => b.pty.runner.stop()));
    },
  };
};

/** The emulator steps of a board's game, split after the press of ply `splitAt` (times rebased). */
export const stepsOf = (
  board: VenueBoard,
  speed: number,
  splitAt?: number,
): { first: ScriptStep[]; rest: ScriptStep[] } => {
  const steps = demoSteps({ ...board.game, moves: board.plies.join(' ') }, board.number * 7919, speed, 300);
  if (splitAt === undefined) return { first: steps, rest: [] };
  let presses = 0;
  const cut = steps.findIndex(s => s.kind === 'clock-press' && ++presses === splitAt);
  if (cut < 0) return { first: steps, rest: [] };
  const first = steps.slice(0, cut + 1);
  const t0 = (steps[cut + 1]?.at ?? 0) - 1500;
  const rest = steps.slice(cut + 1).map(s => ({ ...s, at: s.at - t0 }));
  return { first, rest };
};

export interface ConfigSpec {
  readonly dir: string;
  readonly venue: Venue;
  readonly url: string;
  readonly base: string;
  readonly clientId: string;
  readonly httpPort?: number;
  /** The `broadcast` section (folder export, delay); absent = none. */
  readonly broadcast?: {
    readonly folder?: string;
    readonly delayMinutes?: number;
    readonly [k: string]: unknown;
  };
  /** The `users` section (docs/security.md); absent = none. */
  readonly users?: readonly { readonly name: string; readonly role: string; readonly passwordFile: string }[];
}

/** Writes the daemon's configuration for a venue; returns its path. */
export const writeConfig = async (spec: ConfigSpec): Promise<string> => {
  const path = join(spec.dir, `${spec.clientId}.yaml`);
  await writeFile(
    path,
    stringify({
      version: 1,
      tournament: { name: 'acceptance', rounds: 1 },
      laws: { edition: 'E23', gameType: 'rapid', timeControl: '15+10' },
      journal: { dir: join(spec.dir, `journal-${spec.clientId}`), checkpointSeconds: 2 },
      mqtt: { url: spec.url, baseTopic: spec.base, clientId: spec.clientId },
      http: { enabled: spec.httpPort !== undefined, port: spec.httpPort ?? 8080 },
      ...(spec.broadcast === undefined ? {} : { broadcast: spec.broadcast }),
      ...(spec.users === undefined ? {} : { users: spec.users }),
      boards: spec.venue.boards.map(b => ({
        id: b.id,
        driver: 'dgt',
        port: b.pty.hostPath,
        serial: b.serial,
        clock: true,
      })),
      pairings: spec.venue.boards.map(b => ({
        round: 1,
        board: b.number,
        serial: b.serial,
        white: { name: b.game.white },
        black: { name: b.game.black },
      })),
      logging: { level: 'info', format: 'json' },
    }),
  );
  return path;
};

export interface DaemonProcess {
  readonly child: ChildProcess;
  /** Everything written so far (stdout and stderr). */
  output(): string;
  /** JSON log lines (logging.format json). */
  logs(): { level: string; ns: string; msg: string }[];
  /** SIGKILL. */
  kill(): Promise<void>;
  /** SIGTERM, then wait for the exit code. */
  stop(): Promise<number | null>;
}

/** The exit code of a child process, once it has exited (at once if it already has). */
export const exited = (child: ChildProcess): Promise<number | null> =>
  new Promise(resolve => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode);
    else child.once('exit', code => resolve(code));
  });

const alive = new Set<ChildProcess>();

/** `chessbridge simulate …` from the sources, in a child process; its stdout and stderr together. */
export const startSimulator = (args: readonly string[]): { child: ChildProcess; output: () => string } => {
  const child = spawn(process.execPath, [...childMainArgs, 'simulate', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return { child, output: () => out };
};

/** `chessbridge run -c FILE` from the sources, in a child process. */
export const startDaemon = (configPath: string): DaemonProcess => {
  const child = spawn(process.execPath, [...childMainArgs, 'run', '-c', configPath], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  return {
    child,
    output: () => out,
    logs: () =>
      out
        .split('\n')
        .filter(l => l.startsWith('{'))
        .map(l => JSON.parse(l) as { level: string; ns: string; msg: string }),
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      child.kill('SIGTERM');
      const code = await within(STOP_LIMIT_MS, exited(child), 'the daemon to exit after SIGTERM').catch(
        async (e: unknown) => {
          child.kill('SIGKILL');
          await exited(child);
          throw new Error(`${(e as Error).message} (daemon output: ${out.slice(-1500)})`);
        },
      );
      return code;
    },
  };
};

/** How long a daemon may take to stop after SIGTERM before a test calls it hung. */
const STOP_LIMIT_MS = 30_000;

/**
 * `promise`, or a rejection naming `what` (a text, or a function giving it then) once `ms` have passed: an unbounded wait in a test
 * becomes a failure that says where it hung instead of the test's own timeout.
 */
export const within = <T>(ms: number, promise: Promise<T>, what: string | (() => string)): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      const text = typeof what === 'string' ? what : what();
      reject(new Error(`timed out after ${ms} ms waiting for ${text}`));
    }, ms);
    promise.then(
      v => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });

/** Kills every daemon child still running (afterEach/afterAll). */
export const killAllDaemons = async (): Promise<void> => {
  const all = [...alive];
  for (const c of all) c.kill('SIGKILL');
  await Promise.all(all.map(exited));
};

export interface Seen {
  readonly topic: string;
  readonly payload: string;
  readonly retain: boolean;
}

/** An MQTT subscriber with a persistent session (QoS 1, fixed client id) recording every message. */
export interface Subscriber {
  readonly client: MqttClient;
  readonly seen: Seen[];
  /** Game events per game, first arrival of each seq, in arrival order. */
  firstArrivals(): Map<string, WireEvent[]>;
  /** The latest message on a topic. */
  latest(topic: string): string | undefined;
  /** Messages that did not conform to the wire's schema (each naming its topic and fields). */
  problems(): string[];
  /** Disconnects; throws if any message did not conform to the wire's schema. */
  close(): Promise<void>;
}

export const subscribe = async (
  url: string,
  filters: readonly string[],
  clientId: string,
  /** A user of the embedded broker (an external test broker needs none). */
  login?: { readonly username: string; readonly password: string },
): Promise<Subscriber> => {
  const client = connect(url, { clientId, clean: false, reconnectPeriod: 200, protocolVersion: 4, ...login });
  const seen: Seen[] = [];
  // Every message the daemon publishes is checked against the wire's schema as it arrives.
  const problems: string[] = [];
  client.on('message', (topic, payload, packet) => {
    const text = payload.toString();
    seen.push({ topic, payload: text, retain: packet.retain });
    const name = wireNameOf(topic);
    if (name === undefined || text === '') return;
    try {
      assertWire(name, JSON.parse(text), topic);
    } catch (e) {
      problems.push(e instanceof Error ? e.message : String(e));
    }
  });
  const conforming = (): void => {
    if (problems.length > 0)
      throw new Error(`messages off the wire's schema:\n${problems.slice(0, 5).join('\n')}`);
  };
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  await client.subscribeAsync([...filters], { qos: 1 });
  return {
    client,
    seen,
    firstArrivals: () => {
      conforming();
      const out = new Map<string, WireEvent[]>();
      for (const m of seen) {
        if (!m.topic.endsWith('/events')) continue;
        const e = JSON.parse(m.payload) as WireEvent;
        const list = out.get(e.game) ?? [];
        if (!list.some(x => x.seq === e.seq)) list.push(e);
        out.set(e.game, list);
      }
      return out;
    },
    latest: topic => seen.filter(m => m.topic === topic).at(-1)?.payload,
    problems: () => [...problems],
    close: async () => {
      await client.endAsync();
      conforming();
    },
  };
};

/** The wire document a topic carries (undefined: requests, PGN text, topics of others). */
export const wireNameOf = (topic: string): WireName | undefined => {
  if (/\/games\/[^/]+\/events$/.test(topic)) return 'event';
  if (/\/games\/[^/]+\/pgn$/.test(topic)) return undefined;
  if (/\/games\/[^/]+$/.test(topic)) return 'game';
  if (/\/alerts$/.test(topic)) return 'alert';
  if (/\/boards\/[^/]+\/state$/.test(topic)) return 'board_state';
  if (/\/bridge\/state$/.test(topic)) return 'bridge_state';
  if (/\/bridge\/info$/.test(topic)) return 'bridge_info';
  if (/\/bridge\/health$/.test(topic)) return 'bridge_health';
  if (/\/bridge\/response\/[^/]+$/.test(topic)) return 'response';
  return undefined;
};

/** A game event as received (snake_case wire form). */
export interface WireEvent {
  readonly game: string;
  readonly seq: number;
  /** When the daemon made the event (ms since the epoch). */
  readonly at?: number;
  readonly type: string;
  readonly ply?: number;
  readonly san?: string;
  readonly from_ply?: number;
  readonly moves?: readonly { readonly san: string }[];
  readonly code?: string;
  readonly result?: string;
}

/** The moves a game's events amount to: moves applied in seq order, corrections replacing from their ply. */
export const movesFromEvents = (events: readonly WireEvent[]): string[] => {
  const moves: string[] = [];
  for (const e of [...events].sort((a, b) => a.seq - b.seq)) {
    if (e.type === 'move' && e.ply !== undefined && e.san !== undefined)
      moves.splice(e.ply - 1, Infinity, e.san);
    if (e.type === 'correction' && e.from_ply !== undefined)
      moves.splice(e.from_ply - 1, Infinity, ...(e.moves ?? []).map(m => m.san));
  }
  return moves;
};
