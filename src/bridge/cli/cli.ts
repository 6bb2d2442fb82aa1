/**
 * The command line: parses arguments and runs a subcommand with injected input, output and
 * services, so tests drive it without a process. `src/main.ts` wires it to the real process.
 *
 *   const code = await runCli(['check', 'config/single-board.yaml'], io);
 *
 * Commands: `run -c FILE` (the daemon), `demo` (a venue of emulated boards), `check FILE`, `passwd`,
 * `broker-config -c FILE --out DIR` (an external mosquitto's password and ACL files),
 * `cert --out DIR [--host NAME...]` (a self-signed certificate and key for TLS),
 * `ports [PATH...]`, `replay FILE...` (PGN files, board scripts, game journals; raw board
 * captures with `--driver`), `simulate`
 * (emulated boards on PTYs for any running daemon), `schema [NAME]` (the wire's JSON Schema). Exit codes: 0 success, 1 a failure (a bad
 * file or configuration, the daemon failed), 2 a usage error, 3 `replay` of a damaged journal (its
 * good records replayed, the damaged ranges marked).
 */
import { type EditionProfile, getProfile } from '../../engine/editions.js';
import { isEdition, isGameType, type Edition, type GameType, type Supervision } from '../../engine/types.js';
import { makeReplayLine, replayPgn } from './replay/pgn.js';
import { formatReplayText } from './replay/digest.js';
import { DEFAULT_LANG, LANGUAGES, languageOf } from '../i18n/messages.js';
import { CAPTURE_DRIVERS, type CaptureReplayRequest, isCaptureDriver } from './replay/capture.js';
import { COMMAND_USAGE, USAGE } from './usage.js';
import { makeWireSchemaDocument } from '../wire/document.js';
import {
  parseSimulateRequest,
  SIMULATE_FLAG_OPTIONS,
  SIMULATE_VALUE_OPTIONS,
  type SimulateRequest,
} from '../simulate/request.js';

export { USAGE } from './usage.js';
export type { SimulateRequest } from '../simulate/request.js';

export interface DemoRequest {
  readonly boards: number;
  readonly speed: number;
  readonly once: boolean;
  readonly rounds: number | undefined;
  readonly seed: number;
  /** Broadcast delay of the public outputs, in minutes. */
  readonly delayMinutes: number;
}

/** What the CLI may touch: files to read, two output streams, and the services main provides. */
export interface CliIo {
  readonly readFile: (path: string) => Promise<Uint8Array>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Decodes file bytes to text (PGN: UTF-8 or Latin-1). */
  readonly decode: (bytes: Uint8Array) => string;
  /** Example PGN files (`replay --examples`). */
  readonly examples: readonly string[];
  /** Validates a configuration file: every problem as `path: problem` (empty: valid), and a summary. */
  readonly check?: (
    path: string,
  ) => Promise<{ problems: readonly string[]; summary: string; warnings: readonly string[] }>;
  /**
   * `passwd`: the salted hash of a secret read from standard input (first line), or of a new one
   * (`generate`, returned with it); a weak secret is refused with the reason.
   */
  readonly passwd?: (
    generate: boolean,
  ) => Promise<{ ok: true; hash: string; secret?: string } | { ok: false; error: string }>;
  /**
   * `broker-config`: writes the password and ACL files of an external mosquitto for the users of
   * a configuration into `outDir`; the lines to print (a mosquitto.conf sample), or the problems.
   */
  readonly brokerConfig?: (
    configPath: string,
    outDir: string,
  ) => Promise<{ ok: true; lines: readonly string[] } | { ok: false; problems: readonly string[] }>;
  /** `cert`: writes a self-signed certificate and key into `outDir`; the lines to print, or the problems. */
  readonly cert?: (request: {
    readonly outDir: string;
    readonly hosts: readonly string[];
    readonly days: number;
    readonly force: boolean;
  }) => Promise<{ ok: true; lines: readonly string[] } | { ok: false; problems: readonly string[] }>;
  /** Runs the daemon until a signal; resolves to the exit code. */
  readonly runDaemon?: (configPath: string) => Promise<number>;
  /** Runs the demo; resolves to the exit code. */
  readonly runDemo?: (request: DemoRequest) => Promise<number>;
  /** Runs the venue simulator; resolves to the exit code. */
  readonly runSimulate?: (request: SimulateRequest) => Promise<number>;
  /** Lists and probes serial ports; the report's lines. */
  readonly ports?: (
    paths: readonly string[],
    probe: boolean,
    timeoutMs: number | undefined,
  ) => Promise<string[]>;
  /** Replays board scripts (`.cbs` files or folders of them); resolves to the exit code. */
  readonly replayScripts?: (paths: readonly string[], json: boolean, lang?: string) => Promise<number>;
  /** Replays game journals (`.jsonl`) through the supervisor; resolves to the exit code. */
  readonly replayJournals?: (paths: readonly string[], json: boolean, lang?: string) => Promise<number>;
  /** Replays raw board captures (`replay --driver D`) through the driver and the supervisor; the exit code. */
  readonly replayCaptures?: (paths: readonly string[], request: CaptureReplayRequest) => Promise<number>;
  /** This build's version (the package's). */
  readonly version?: () => Promise<string>;
  /** The environment (CHESSBRIDGE_CONFIG). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

interface Options {
  readonly flags: ReadonlySet<string>;
  readonly values: ReadonlyMap<string, string>;
  readonly positional: readonly string[];
}

/** Options that take a value, per command (`-c` is `--config`). */
const VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  run: ['--config'],
  demo: ['--boards', '--speed', '--rounds', '--seed', '--delay'],
  check: [],
  passwd: [],
  'broker-config': ['--config', '--out'],
  cert: ['--out', '--host', '--days'],
  ports: ['--timeout'],
  replay: ['--edition', '--type', '--supervision', '--driver', '--lang'],
  simulate: SIMULATE_VALUE_OPTIONS,
  schema: [],
};
const FLAG_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  run: [],
  demo: ['--once'],
  check: [],
  passwd: ['--generate'],
  'broker-config': [],
  cert: ['--force'],
  ports: ['--no-probe'],
  replay: ['--json', '--examples'],
  simulate: SIMULATE_FLAG_OPTIONS,
  schema: [],
};

type Parsed = { ok: true; value: Options } | { ok: false; error: string };

const parseOptions = (command: string, args: readonly string[]): Parsed => {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    let a = args[i] ?? '';
    if (a === '-c') a = '--config';
    if (a === '--help' || a === '-h') flags.add('--help');
    else if (a.startsWith('-') && a !== '-') {
      const [name = a, inline] = a.includes('=')
        ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)]
        : [a, undefined];
      if ((VALUE_OPTIONS[command] ?? []).includes(name)) {
        const v = inline ?? args[++i];
        if (v === undefined) return { ok: false, error: `${name} needs a value` };
        // A repeated --host adds to the list (`--host a --host b` as `--host a,b`).
        const before = values.get(name);
        values.set(name, name === '--host' && before !== undefined ? `${before},${v}` : v);
      } else if ((FLAG_OPTIONS[command] ?? []).includes(name) && inline === undefined) flags.add(name);
      else return { ok: false, error: `unknown option ${a}` };
    } else positional.push(a);
  }
  return { ok: true, value: { flags, values, positional } };
};

const number = (
  o: Options,
  name: string,
  fallback: number,
  check: (n: number) => boolean,
): number | string => {
  const text = o.values.get(name);
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isFinite(n) && check(n) ? n : `${name}: "${text}" is not a valid value`;
};

interface LawsChoice {
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
}

const lawsOf = (o: Options): LawsChoice | string => {
  const edition = o.values.get('--edition') ?? 'E23';
  if (!isEdition(edition)) return `--edition: unknown edition "${edition}" (E97, E09, E14, E17, E18, E23)`;
  const gameType = o.values.get('--type') ?? 'standard';
  if (!isGameType(gameType)) return `--type: unknown game type "${gameType}" (standard, rapid, blitz)`;
  const supervision = o.values.get('--supervision') ?? 'full';
  if (supervision !== 'full' && supervision !== 'reduced')
    return `--supervision: "${supervision}" is not full or reduced`;
  return { edition, gameType, supervision };
};

const replayPgnFile = async (
  path: string,
  profile: EditionProfile,
  json: boolean,
  io: CliIo,
  lang: string,
): Promise<number> => {
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(path);
  } catch (e) {
    io.err(`chessbridge: cannot read ${path}: ${(e as Error).message}`);
    return 1;
  }
  const events = [...replayPgn(io.decode(bytes), profile)];
  const source = path.split('/').pop() ?? path;
  if (json) for (const ev of events) io.out(JSON.stringify(makeReplayLine(ev, source)));
  else for (const line of formatReplayText(events, lang)) io.out(line);
  const errors = events.filter(e => e.type === 'error').length;
  if (errors > 0) io.err(`chessbridge: ${path}: ${errors} game(s) rejected`);
  return errors > 0 ? 1 : 0;
};

const missing = (io: CliIo, command: string): number => {
  io.err(`chessbridge ${command}: not available in this build`);
  return 1;
};

/** `replay --driver D FILE...`: every file is a raw capture of that board's serial line. */
const replayCaptureFiles = (
  o: Options,
  io: CliIo,
  driver: string,
  rest: Omit<CaptureReplayRequest, 'driver'>,
): Promise<number> | number => {
  if (!isCaptureDriver(driver))
    return usage(
      io,
      'replay',
      `--driver: captures can be replayed for ${CAPTURE_DRIVERS.join(', ')}, not "${driver}"`,
    );
  if (o.flags.has('--examples')) return usage(io, 'replay', '--driver replays capture files, not --examples');
  if (o.positional.length === 0) return usage(io, 'replay', `give at least one ${driver} capture file`);
  return io.replayCaptures ? io.replayCaptures(o.positional, { ...rest, driver }) : missing(io, 'replay');
};

const replay = async (o: Options, io: CliIo): Promise<number> => {
  const laws = lawsOf(o);
  if (typeof laws === 'string') return usage(io, 'replay', laws);
  const json = o.flags.has('--json');
  const langTag = o.values.get('--lang') ?? DEFAULT_LANG;
  const lang = languageOf(langTag);
  if (lang === undefined)
    return usage(io, 'replay', `--lang: no catalog for "${langTag}" (${Object.keys(LANGUAGES).join(', ')})`);
  const driver = o.values.get('--driver');
  if (driver !== undefined) return replayCaptureFiles(o, io, driver, { ...laws, json });
  const files = o.flags.has('--examples') ? [...io.examples] : [...o.positional];
  if (files.length === 0)
    return usage(io, 'replay', 'give at least one file (PGN, board script or game journal)');
  const profile = getProfile(laws.edition, laws.gameType, laws.supervision);
  let code = 0;
  const pgn = files.filter(f => f.toLowerCase().endsWith('.pgn'));
  const journals = files.filter(f => f.toLowerCase().endsWith('.jsonl'));
  const scripts = files.filter(f => !pgn.includes(f) && !journals.includes(f));
  for (const file of pgn) {
    if (files.length > 1 && !json) io.out(`--- ${file.split('/').pop() ?? file}`);
    code = Math.max(code, await replayPgnFile(file, profile, json, io, lang));
  }
  if (journals.length > 0)
    code = worse(
      code,
      io.replayJournals ? await io.replayJournals(journals, json, lang) : missing(io, 'replay'),
    );
  if (scripts.length > 0)
    code = worse(
      code,
      io.replayScripts ? await io.replayScripts(scripts, json, lang) : missing(io, 'replay'),
    );
  return code;
};

/** Two exit codes as one: a failure (1, 2) wins over 3 (a damaged journal, salvaged), which wins over 0. */
const worse = (a: number, b: number): number => {
  const rank = (c: number): number => (c === 3 ? 0.5 : c);
  return rank(a) >= rank(b) ? a : b;
};

const usage = (io: CliIo, command: string, problem: string): number => {
  io.err(`chessbridge ${command}: ${problem}`);
  for (const line of COMMAND_USAGE[command] ?? USAGE) io.err(line);
  return 2;
};

/** Runs the CLI; resolves to the process exit code. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    const topic = command === 'help' ? rest[0] : undefined;
    for (const line of (topic === undefined ? undefined : COMMAND_USAGE[topic]) ?? USAGE)
      (command === undefined ? io.err : io.out)(line);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-V' || command === 'version') {
    if (rest.length > 0) return usage(io, 'version', `unexpected argument "${rest[0] ?? ''}"`);
    io.out(`chessbridge ${io.version === undefined ? 'unknown' : await io.version()}`);
    return 0;
  }
  if (!(command in VALUE_OPTIONS)) {
    io.err(`chessbridge: unknown command "${command}"`);
    for (const line of USAGE) io.err(line);
    return 2;
  }
  const parsed = parseOptions(command, rest);
  if (!parsed.ok) return usage(io, command, parsed.error);
  const o = parsed.value;
  if (o.flags.has('--help')) {
    for (const line of COMMAND_USAGE[command] ?? USAGE) io.out(line);
    return 0;
  }
  switch (command) {
    case 'run': {
      const file = o.values.get('--config') ?? o.positional[0] ?? io.env?.CHESSBRIDGE_CONFIG;
      if (file === undefined || o.positional.length > (o.values.has('--config') ? 0 : 1))
        return usage(io, 'run', 'give the configuration file: chessbridge run -c FILE');
      return io.runDaemon ? io.runDaemon(file) : missing(io, 'run');
    }
    case 'demo': {
      if (o.positional.length > 0) return usage(io, 'demo', `unexpected argument "${o.positional[0] ?? ''}"`);
      const boards = number(o, '--boards', 4, n => Number.isInteger(n) && n >= 1 && n <= 64);
      const speed = number(o, '--speed', 1, n => n > 0 && n <= 50);
      const rounds = number(o, '--rounds', 0, n => Number.isInteger(n) && n >= 1 && n <= 100);
      const seed = number(o, '--seed', 1, n => Number.isInteger(n));
      const delay = number(o, '--delay', 1, n => n >= 0 && n <= 1440);
      for (const v of [boards, speed, rounds, seed, delay])
        if (typeof v === 'string') return usage(io, 'demo', v);
      const request: DemoRequest = {
        boards: boards as number,
        speed: speed as number,
        once: o.flags.has('--once'),
        rounds: (rounds as number) === 0 ? undefined : (rounds as number),
        seed: seed as number,
        delayMinutes: delay as number,
      };
      return io.runDemo ? io.runDemo(request) : missing(io, 'demo');
    }
    case 'check': {
      const [file, ...extra] = o.positional;
      if (file === undefined || extra.length > 0)
        return usage(io, 'check', 'give exactly one configuration file');
      if (!io.check) return missing(io, 'check');
      const r = await io.check(file);
      for (const w of r.warnings) io.err(`warning: ${w}`);
      if (r.problems.length > 0) {
        io.err(`${file}: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`);
        for (const p of r.problems) io.err(`  ${p}`);
        return 1;
      }
      io.out(`${file}: ${r.summary}`);
      return 0;
    }
    case 'passwd': {
      if (o.positional.length > 0)
        return usage(io, 'passwd', `unexpected argument "${o.positional[0] ?? ''}"`);
      if (!io.passwd) return missing(io, 'passwd');
      const r = await io.passwd(o.flags.has('--generate'));
      if (!r.ok) {
        io.err(`chessbridge passwd: ${r.error}`);
        return 1;
      }
      if (r.secret !== undefined) io.err(`secret (give it to the user; it is not stored): ${r.secret}`);
      io.out(r.hash);
      return 0;
    }
    case 'broker-config': {
      const file = o.values.get('--config') ?? io.env?.CHESSBRIDGE_CONFIG;
      const out = o.values.get('--out');
      if (o.positional.length > 0)
        return usage(io, 'broker-config', `unexpected argument "${o.positional[0] ?? ''}"`);
      if (file === undefined || out === undefined)
        return usage(io, 'broker-config', 'give the configuration and a folder: -c FILE --out DIR');
      if (!io.brokerConfig) return missing(io, 'broker-config');
      const r = await io.brokerConfig(file, out);
      if (!r.ok) {
        io.err(`${file}: ${r.problems.length} problem${r.problems.length === 1 ? '' : 's'}`);
        for (const p of r.problems) io.err(`  ${p}`);
        return 1;
      }
      for (const line of r.lines) io.out(line);
      return 0;
    }
    case 'cert': {
      const out = o.values.get('--out');
      if (o.positional.length > 0) return usage(io, 'cert', `unexpected argument "${o.positional[0] ?? ''}"`);
      if (out === undefined) return usage(io, 'cert', 'give the folder to write into: --out DIR');
      const days = number(o, '--days', 365, n => Number.isInteger(n) && n >= 1 && n <= 3650);
      if (typeof days === 'string') return usage(io, 'cert', days);
      if (!io.cert) return missing(io, 'cert');
      const hosts = (o.values.get('--host') ?? '').split(',').filter(h => h.trim() !== '');
      const r = await io.cert({ outDir: out, hosts, days, force: o.flags.has('--force') });
      if (!r.ok) {
        for (const p of r.problems) io.err(`chessbridge cert: ${p}`);
        return 1;
      }
      for (const line of r.lines) io.out(line);
      return 0;
    }
    case 'ports': {
      const timeout = number(o, '--timeout', 1500, n => n >= 100 && n <= 60_000);
      if (typeof timeout === 'string') return usage(io, 'ports', timeout);
      if (!io.ports) return missing(io, 'ports');
      for (const line of await io.ports(o.positional, !o.flags.has('--no-probe'), timeout)) io.out(line);
      return 0;
    }
    case 'replay':
      return replay(o, io);
    case 'schema': {
      const doc = makeWireSchemaDocument();
      const [name, ...extra] = o.positional;
      if (extra.length > 0) return usage(io, 'schema', `unexpected argument "${extra[0] ?? ''}"`);
      if (name === undefined) {
        io.out(JSON.stringify(doc, null, 2));
        return 0;
      }
      const defs = doc.$defs as Record<string, unknown>;
      if (!(name in defs))
        return usage(io, 'schema', `no document "${name}" on the wire (${Object.keys(defs).join(', ')})`);
      io.out(JSON.stringify(defs[name], null, 2));
      return 0;
    }
    case 'simulate': {
      const request = parseSimulateRequest(o.values, o.flags, o.positional);
      if (typeof request === 'string') return usage(io, 'simulate', request);
      return io.runSimulate ? io.runSimulate(request) : missing(io, 'simulate');
    }
    default:
      return usage(io, command, 'unknown command');
  }
};
