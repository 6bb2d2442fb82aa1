/**
 * The options of `chessbridge simulate`, checked: what the command line gave, turned into a
 * request, or the first problem in words (the CLI prints it with the usage and exits 2).
 *
 *   const r = parseSimulateRequest(new Map([['--boards', '3'], ['--games', 'games.pgn']]), new Set());
 *   if (typeof r === 'string') fail(r); else run(r);   // r.speed === 1, r.bus === 0, …
 */

export interface SimulateRequest {
  /** Emulated boards. */
  readonly boards: number;
  /** PGN file whose games are played. */
  readonly games: string;
  /** Players act this many times faster than real time (clocks too). */
  readonly speed: number;
  /** Boards per bus line; 0: every board on its own line. */
  readonly bus: number;
  /** Mean number of injected faults per game (0 to 4). */
  readonly faults: number;
  readonly seed: number;
  /** Games each board plays; undefined: enough for every game of the file once. */
  readonly rounds: number | undefined;
  /** Mean seconds per ply, game time; undefined: the rapid tempo of the handling generator. */
  readonly plySeconds: number | undefined;
  /** Plain moves as fast as a 9600-baud line carries them. */
  readonly linkMax: boolean;
  /** Where the daemon configuration is written; undefined: in the folder. */
  readonly configOut: string | undefined;
  /** Folder of the PTY links and the journal; undefined: a new temporary folder. */
  readonly dir: string | undefined;
  /** External broker URL for the configuration; undefined: the daemon's embedded broker. */
  readonly mqtt: string | undefined;
  /** File to write every ply and game played to, one JSON object a line. */
  readonly record: string | undefined;
  /** Exit when every board has played its games. */
  readonly once: boolean;
}

/** Options of the command that take a value, and flags. */
export const SIMULATE_VALUE_OPTIONS = [
  '--boards',
  '--games',
  '--speed',
  '--bus',
  '--faults',
  '--seed',
  '--rounds',
  '--ply-seconds',
  '--config-out',
  '--dir',
  '--mqtt',
  '--record',
] as const;
export const SIMULATE_FLAG_OPTIONS = ['--once', '--link-max'] as const;

/** Most boards one simulator serves (each single line is a socat process and two PTYs). */
export const MAX_SIMULATED_BOARDS = 2000;

const MQTT_URL = /^(mqtt|mqtts|ws|wss|tcp|ssl|tls):\/\/\S+$/;

type NumberOption = { readonly value: number | undefined } | { readonly problem: string };

const numberOption = (
  values: ReadonlyMap<string, string>,
  name: string,
  check: (n: number) => boolean,
  expects: string,
): NumberOption => {
  const text = values.get(name);
  if (text === undefined) return { value: undefined };
  const n = Number(text);
  return text.trim() !== '' && Number.isFinite(n) && check(n)
    ? { value: n }
    : { problem: `${name}: "${text}" is not a valid value (${expects})` };
};

const valueOf = (o: NumberOption): number | undefined => ('value' in o ? o.value : undefined);

const isInt = (lo: number, hi: number) => (n: number) => Number.isInteger(n) && n >= lo && n <= hi;

/** The request, or the first problem with the options. */
export const parseSimulateRequest = (
  values: ReadonlyMap<string, string>,
  flags: ReadonlySet<string>,
  positional: readonly string[] = [],
): SimulateRequest | string => {
  if (positional.length > 0) return `unexpected argument "${positional[0] ?? ''}"`;
  const games = values.get('--games');
  if (!values.has('--boards')) return 'give the number of boards: --boards N';
  if (games === undefined || games === '') return 'give the games to play: --games FILE.pgn';
  const numbers = {
    boards: numberOption(
      values,
      '--boards',
      isInt(1, MAX_SIMULATED_BOARDS),
      `a whole number from 1 to ${MAX_SIMULATED_BOARDS}`,
    ),
    speed: numberOption(values, '--speed', n => n > 0 && n <= 100, 'above 0, at most 100'),
    bus: numberOption(values, '--bus', isInt(2, 64), 'a whole number from 2 to 64'),
    faults: numberOption(values, '--faults', n => n >= 0 && n <= 4, 'from 0 to 4 faults per game'),
    seed: numberOption(values, '--seed', n => Number.isSafeInteger(n), 'a whole number'),
    rounds: numberOption(values, '--rounds', isInt(1, 999), 'a whole number from 1 to 999'),
    plySeconds: numberOption(values, '--ply-seconds', n => n >= 1 && n <= 3600, 'from 1 to 3600 seconds'),
  };
  for (const v of Object.values(numbers)) if ('problem' in v) return v.problem;
  const linkMax = flags.has('--link-max');
  if (linkMax) {
    const clash = ['--speed', '--ply-seconds', '--faults'].find(o => values.has(o));
    if (clash !== undefined) return `--link-max sets the pace by itself: drop ${clash}`;
  }
  const mqtt = values.get('--mqtt');
  if (mqtt !== undefined && !MQTT_URL.test(mqtt))
    return `--mqtt: "${mqtt}" is not a broker URL such as mqtt://host:1883`;
  return {
    boards: valueOf(numbers.boards) ?? 1,
    games,
    speed: valueOf(numbers.speed) ?? 1,
    bus: valueOf(numbers.bus) ?? 0,
    faults: valueOf(numbers.faults) ?? 0,
    seed: valueOf(numbers.seed) ?? 1,
    rounds: valueOf(numbers.rounds),
    plySeconds: valueOf(numbers.plySeconds),
    linkMax,
    configOut: values.get('--config-out'),
    dir: values.get('--dir'),
    mqtt,
    record: values.get('--record'),
    once: flags.has('--once'),
  };
};
