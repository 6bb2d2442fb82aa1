/**
 * The composition root: the only place that wires the real process (files, stdout, stderr,
 * signals, systemd, the exit code) to the application, and the owner of the daemon's one
 * subscription. `bin/chessbridge.js` calls `main` from the built `dist/`.
 *
 *   process.exitCode = await main(process.argv.slice(2));
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncScheduler, finalize, firstValueFrom, type Observable, Subject, takeUntil, tap } from 'rxjs';
import { runCli, type DemoRequest, type SimulateRequest } from './bridge/cli/cli.js';
import { type Config, loadConfig, unknownEnvNames } from './bridge/config/index.js';
import { Daemon } from './bridge/daemon/daemon.js';
import {
  DEMO_ARBITER,
  DEMO_ARBITER_ENV,
  DEMO_PAIRINGS,
  DemoVenue,
  hasProgram,
  portOr,
} from './bridge/simulate/demo.js';
import { parsePairingsFile } from './bridge/pairings/fromFile.js';
import { generateSecret, hashPassword, weakSecretProblem } from './bridge/security/passwords.js';
import { weakSecretProblems } from './bridge/security/configUsers.js';
import { readTlsPairs } from './bridge/security/tlsFiles.js';
import { mosquittoConfSample, mosquittoFiles } from './bridge/security/mosquittoFiles.js';
import { type BoardOpener, makeBoardOpener } from './bridge/daemon/drivers.js';
import { BoardLeds } from './bridge/daemon/leds.js';
import { engineSupervisor } from './bridge/game/engine.js';
import { replayJournals } from './bridge/cli/replay/journal.js';
import { type Logger, makeLogger } from './bridge/logger.js';
import { defaultPortsDeps, formatPortsReport, runPorts } from './bridge/ports.js';
import { nodeCaptureIo, replayCaptures } from './bridge/cli/replay/capture.js';
import { nodeScriptIo, replayScripts } from './bridge/cli/replay/script.js';
import { SdNotify, watchdog$ } from './bridge/sdNotify.js';
import { runSimulate } from './bridge/simulate/run.js';
import { decodePgnBytes } from './engine/pgnRead.js';

/** The package root: one level above `src/` or `dist/`. */
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export const EXAMPLES = ['opera-game.pgn', 'repetition.pgn', 'dead-position.pgn'].map(f =>
  join(PACKAGE_ROOT, 'examples', f),
);

/** The daemon's clock: milliseconds since the epoch, monotonic within the process. */
export const daemonClock = (): number => performance.timeOrigin + performance.now();

const version = async (): Promise<string> => {
  try {
    const pkg = JSON.parse(await readFile(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
};

/** A closed pipe (`chessbridge replay … | head`) ends the output quietly, as Unix tools do. */
const quietOnClosedPipe = (stream: NodeJS.WriteStream): void => {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
};

const loggerFor = (config: Config): Logger =>
  makeLogger({
    level: config.logging.level,
    format: config.logging.format,
    write: line => process.stdout.write(line),
    repeatMs: config.logging.repeatSeconds * 1000,
  });

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e));

interface ServeOptions {
  readonly extras?: (daemon: Daemon) => readonly Observable<unknown>[];
  /** Called once the daemon serves (the demo prints its addresses). */
  readonly ready?: (daemon: Daemon) => void;
  readonly brokerPorts?: { readonly port: number; readonly wsPort: number };
  /** How boards are opened, when not as serial ports (the demo without socat). */
  readonly openBoard?: BoardOpener;
  /** The boards' LEDs the opener reads (fed by the daemon's published events). */
  readonly leds?: BoardLeds;
}

/**
 * Runs a daemon until SIGTERM or SIGINT (or the extras complete, for `demo --once`): start in
 * order, the one subscription, READY and the watchdog for systemd, then stop in reverse.
 */
const serve = async (config: Config, log: Logger, options: ServeOptions = {}): Promise<number> => {
  const daemonLog = log.child('bridge:main');
  const notify = new SdNotify({ env: process.env, log: daemonLog });
  const shutdown$ = new Subject<string>();
  const onSignal = (signal: NodeJS.Signals) => () => shutdown$.next(signal);
  const signals: [NodeJS.Signals, () => void][] = [
    ['SIGTERM', onSignal('SIGTERM')],
    ['SIGINT', onSignal('SIGINT')],
  ];
  for (const [s, f] of signals) process.on(s, f);
  const stopped = firstValueFrom(shutdown$);
  const daemon = new Daemon({
    config,
    log,
    engine: engineSupervisor(),
    scheduler: asyncScheduler,
    now: daemonClock,
    version: await version(),
    ...(options.brokerPorts === undefined ? {} : { brokerPorts: options.brokerPorts }),
    ...(options.openBoard === undefined ? {} : { openBoard: options.openBoard }),
    ...(options.leds === undefined ? {} : { leds: options.leds }),
  });
  let code = 0;
  // A signal during the start stops it: start() then rejects, once the part being started gives up.
  const start = { done: false, interrupted: false };
  try {
    void stopped.then(reason => {
      if (start.done) return;
      start.interrupted = true;
      daemonLog.info(`stopping (${reason}) while starting`);
      return daemon.stop();
    });
    await daemon.start();
    start.done = true;
    const extras = options.extras?.(daemon) ?? [];
    const done =
      extras.length === 0
        ? []
        : [
            // The demo's games: when they are over (--once), so is the daemon.
            ...extras.map(e => e.pipe(finalize(() => shutdown$.next('games over')))),
          ];
    // The one subscription of the process; takeUntil(shutdown$) is last.
    const subscription = daemon
      .pipeline$([watchdog$(notify, asyncScheduler), ...done])
      .pipe(
        tap({ error: (e: unknown) => daemonLog.error(`pipeline failed: ${describe(e)}`) }),
        takeUntil(shutdown$),
      )
      .subscribe({ error: () => shutdown$.next('error') });
    const games = daemon.games?.open().length ?? 0;
    await notify.ready(`serving ${config.boards.length} boards, ${games} games in play`);
    daemonLog.info(`ready: ${config.boards.length} boards, ${games} games in play`);
    options.ready?.(daemon);
    const reason = await stopped;
    daemonLog.info(`stopping (${reason})`);
    if (reason === 'error') code = 1;
    await notify.stopping(`stopping (${reason})`);
    subscription.unsubscribe();
  } catch (e) {
    if (!start.interrupted) {
      daemonLog.error(`cannot start: ${describe(e)}`);
      code = 1;
    }
  } finally {
    await daemon.stop();
    for (const [s, f] of signals) process.off(s, f);
  }
  return code;
};

const check = async (path: string) => {
  const r = await loadConfig({ path }, { env: process.env });
  const warnings = unknownEnvNames(process.env).map(n => `${n} names no configuration field`);
  if (r.isErr) return { problems: r.error.problems, summary: '', warnings };
  const c = r.value;
  const weak = await weakSecretProblems(c.users, process.env);
  for (const key of ['token', 'password'] as const) {
    const inline = c.http.arbiter?.[key];
    const why = inline === undefined ? undefined : weakSecretProblem(inline);
    if (why !== undefined) weak.push(`http.arbiter.${key}: weak secret: ${why}`);
  }
  const tls = await readTlsPairs(
    {
      http: { files: c.http.enabled ? c.http.tls : undefined, at: 'http.tls' },
      broker: { files: c.mqtt.url === undefined ? c.mqtt.broker.tls : undefined, at: 'mqtt.broker.tls' },
    },
    Date.now(),
  );
  if (tls.isErr) weak.push(...tls.error.problems);
  const brokerPassword = c.mqtt.password === undefined ? undefined : weakSecretProblem(c.mqtt.password);
  if (brokerPassword !== undefined) weak.push(`mqtt.password: weak secret: ${brokerPassword}`);
  if (weak.length > 0) return { problems: weak, summary: '', warnings };
  return {
    problems: [],
    summary: `valid: ${c.boards.length} boards, ${c.pairings.length} pairings, ${c.laws.edition} ${c.laws.gameType}, MQTT ${c.mqtt.url ?? 'embedded broker'}`,
    warnings,
  };
};

/** `chessbridge passwd`: the hash of the first line of stdin, or of a generated secret. */
const passwd = async (
  generate: boolean,
): Promise<{ ok: true; hash: string; secret?: string } | { ok: false; error: string }> => {
  if (generate) {
    const secret = generateSecret();
    return { ok: true, hash: await hashPassword(secret), secret };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const secret = Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  if (secret === '') return { ok: false, error: 'no secret on standard input (or use --generate)' };
  const why = weakSecretProblem(secret);
  if (why !== undefined) return { ok: false, error: `weak secret: ${why}` };
  return { ok: true, hash: await hashPassword(secret) };
};

/** `chessbridge broker-config`: an external mosquitto's password and ACL files for the users. */
const brokerConfig = async (
  path: string,
  outDir: string,
): Promise<{ ok: true; lines: readonly string[] } | { ok: false; problems: readonly string[] }> => {
  const r = await loadConfig({ path }, { env: process.env });
  if (r.isErr) return { ok: false, problems: r.error.problems };
  const c = r.value;
  const files = await mosquittoFiles({
    base: c.mqtt.baseTopic,
    daemon: { name: c.mqtt.username, secret: c.mqtt.password },
    clientId: c.mqtt.clientId,
    users: c.users,
    env: process.env,
    delayed: c.broadcast.delayMinutes > 0,
  });
  if (files.isErr) return { ok: false, problems: files.error.problems };
  const dir = resolve(outDir);
  const passwdPath = join(dir, 'chessbridge.passwd');
  const aclPath = join(dir, 'chessbridge.acl');
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(passwdPath, files.value.passwd, { mode: 0o600 });
    await chmod(passwdPath, 0o600);
    await writeFile(aclPath, files.value.acl, { mode: 0o644 });
  } catch (e) {
    return { ok: false, problems: [`--out: cannot write into ${dir}: ${describe(e)}`] };
  }
  process.stderr.write(
    `chessbridge broker-config: ${files.value.users} users in ${passwdPath} and ${aclPath}; a mosquitto.conf follows\n`,
  );
  return { ok: true, lines: mosquittoConfSample(passwdPath, aclPath).trimEnd().split('\n') };
};

const runDaemon = async (path: string): Promise<number> => {
  const r = await loadConfig({ path }, { env: process.env });
  if (r.isErr) {
    const n = r.error.problems.length;
    process.stderr.write(`chessbridge run: ${n} problem${n === 1 ? '' : 's'} in ${path}\n`);
    for (const p of r.error.problems) process.stderr.write(`  ${p}\n`);
    return 1;
  }
  const log = loggerFor(r.value);
  for (const name of unknownEnvNames(process.env))
    log.warn(`environment: ${name} names no configuration field`);
  const config = r.value;
  // Certabo calibrations live beside the games: <journal.dir>/calibration/<board>.json by default.
  // LEDs show the squares to fix after an illegal move or a mismatch, on boards that have them.
  const leds = new BoardLeds();
  const openBoard = makeBoardOpener({
    now: daemonClock,
    scheduler: asyncScheduler,
    log: log.child('bridge:drivers'),
    boards: config.boards,
    calibrationDir: join(config.journal.dir, 'calibration'),
    leds: board => leds.of(board.id),
  });
  return serve(config, log, { openBoard, leds });
};

const runDemo = async (request: DemoRequest): Promise<number> => {
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-demo-'));
  const rounds = request.rounds ?? (request.once ? 1 : 20);
  // Each board on a pseudo-terminal pair needs socat; without it the boards use in-process links.
  const link = (await hasProgram('socat')) ? 'pty' : 'memory';
  if (link === 'memory')
    process.stderr.write(
      'chessbridge demo: socat is not installed; the boards use in-process links instead of serial ports\n',
    );
  // The first round's players and pairings, as the pairing program exported them.
  const pairingsFile = join(PACKAGE_ROOT, 'examples', DEMO_PAIRINGS);
  const fileGames = parsePairingsFile(pairingsFile, await readFile(pairingsFile, 'utf8')).unwrap();
  const venue = new DemoVenue({
    boards: request.boards,
    speed: request.speed,
    rounds,
    dir,
    seed: request.seed,
    link,
    now: daemonClock,
    pairingsFile,
    fileGames,
    delayMinutes: request.delayMinutes,
  });
  try {
    await venue.start();
    const ports = { mqtt: await portOr(1883), ws: await portOr(9001), http: await portOr(8080) };
    // The arbiter's secret is made for this run and printed: nothing of the demo is open to "any password".
    const arbiterSecret = generateSecret();
    process.env[DEMO_ARBITER_ENV] = arbiterSecret;
    const r = await loadConfig({ text: venue.configText(ports), name: 'demo' });
    if (r.isErr) {
      process.stderr.write(`chessbridge demo: ${r.error.message}\n`);
      return 1;
    }
    const log = loggerFor(r.value);
    const openBoard = venue.opener();
    return await serve(r.value, log, {
      ...(openBoard === undefined ? {} : { openBoard }),
      extras: daemon => {
        const boards = daemon.boards;
        return boards === undefined ? [] : [venue.play$(boards)];
      },
      ready: daemon => {
        const a = daemon.addresses;
        const behind = request.delayMinutes > 0 ? ` (broadcast delay ${request.delayMinutes} min)` : '';
        const lines = [
          '',
          `chessbridge demo: ${request.boards} emulated DGT boards playing (speed ${request.speed}×)`,
          a?.http === undefined ? '' : `  hall display    ${a.http}/ui/display/index.html`,
          a?.http === undefined ? '' : `  one board       ${a.http}/ui/display/board.html?game=r1-b1`,
          a?.http === undefined ? '' : `  arbiter console ${a.http}/ui/console/index.html`,
          `  arbiter login   user ${DEMO_ARBITER}, password ${arbiterSecret} (made for this run)`,
          `  pairings        ${pairingsFile} (round 1: ${fileGames.length} games; read again when it changes)`,
          `  board status    MQTT chessbridge/boards/+/state (retained)${a?.http === undefined ? '' : `, ${a.http}/healthz`}`,
          a?.http === undefined ? '' : `  tournament page ${a.http}/`,
          a?.http === undefined ? '' : `  live PGN        ${a.http}/round-1/games.pgn${behind}`,
          `  export folder   ${venue.exportFolder}${behind}`,
          `  MQTT            ${a?.mqtt ?? ''}${a?.ws === undefined ? '' : ` (WebSocket ${a.ws})`}, topics chessbridge/#`,
          request.once ? '  exits when the games are over' : '  Ctrl-C to stop',
          '',
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      },
    });
  } finally {
    await venue.stop();
    await rm(dir, { recursive: true, force: true });
  }
};

/** `chessbridge simulate`, until SIGINT or SIGTERM (or, with --once, the end of its games). */
const runSimulator = async (request: SimulateRequest): Promise<number> => {
  const signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];
  let onSignal: (signal: NodeJS.Signals) => void = () => undefined;
  const stopped = new Promise<string>(resolve => (onSignal = resolve));
  for (const s of signals) process.on(s, onSignal);
  try {
    return await runSimulate(request, {
      out: line => process.stdout.write(`${line}\n`),
      err: line => process.stderr.write(`${line}\n`),
      stopped,
    });
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
};

export const main = (argv: readonly string[]): Promise<number> => {
  quietOnClosedPipe(process.stdout);
  return runCli(argv, {
    readFile: path => readFile(path),
    out: line => process.stdout.write(`${line}\n`),
    err: line => process.stderr.write(`${line}\n`),
    decode: decodePgnBytes,
    examples: EXAMPLES,
    version,
    env: process.env,
    check,
    passwd,
    brokerConfig,
    // Loaded when asked: the X.509 library is not needed to run the daemon.
    cert: async request =>
      (await import('./bridge/security/certFiles.js')).writeCertFiles({ ...request, now: Date.now() }),
    runDaemon,
    runDemo,
    runSimulate: runSimulator,
    ports: async (paths, probe, timeoutMs) =>
      formatPortsReport(
        await runPorts(
          { paths, probe, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
          defaultPortsDeps(),
        ),
      ),
    replayScripts: (paths, json, lang) =>
      replayScripts(
        paths,
        { json, ...(lang === undefined ? {} : { lang }) },
        nodeScriptIo,
        l => process.stdout.write(`${l}\n`),
        l => process.stderr.write(`${l}\n`),
      ),
    replayJournals: (paths, json, lang) =>
      replayJournals(
        paths,
        { json, ...(lang === undefined ? {} : { lang }) },
        engineSupervisor(),
        l => process.stdout.write(`${l}\n`),
        l => process.stderr.write(`${l}\n`),
      ),
    replayCaptures: (paths, request) =>
      replayCaptures(
        paths,
        request,
        nodeCaptureIo,
        engineSupervisor(),
        l => process.stdout.write(`${l}\n`),
        l => process.stderr.write(`${l}\n`),
      ),
  });
};
