/**
 * The command line: parses arguments and runs a subcommand with injected input and output, so
 * tests drive it without a process. `src/main.ts` wires it to the real process.
 *
 *   const code = await runCli(['replay', 'games.pgn', '--json'], { readFile, out, err });
 *
 * Subcommands today: `replay FILE.pgn` and `demo`. Usage errors exit with 2, bad input files with 1.
 */
import { type EditionProfile, getProfile } from '../engine/editions.js';
import { isEdition, isGameType, type Edition, type GameType, type Supervision } from '../engine/types.js';
import { formatReplayText, replayPgn } from './replay.js';

/** What the CLI may touch: files to read, and two output streams. */
export interface CliIo {
  readonly readFile: (path: string) => Promise<Uint8Array>;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Decodes file bytes to text (PGN: UTF-8 or Latin-1). */
  readonly decode: (bytes: Uint8Array) => string;
  /** Example files for `demo`, with their display names. */
  readonly examples: readonly string[];
}

export const USAGE = [
  'usage: chessbridge <command> [options]',
  '',
  'commands:',
  '  replay FILE.pgn [--json] [--edition E] [--type T] [--supervision S]',
  '                       replay recorded games through the rules and print what they decide',
  '  demo                 replay the example games under the current Laws and an older edition',
  '',
  'options:',
  '  --edition E          Laws of Chess edition: E97, E09, E14, E17, E18, E23 (default E23)',
  '  --type T             standard, rapid or blitz (default standard)',
  '  --supervision S      full or reduced (default full)',
  '  --json               one JSON object a line instead of text',
];

interface Options {
  readonly json: boolean;
  readonly edition: Edition;
  readonly gameType: GameType;
  readonly supervision: Supervision;
  readonly positional: string[];
}

type Parsed = { ok: true; value: Options } | { ok: false; error: string };

const parseOptions = (args: readonly string[]): Parsed => {
  let json = false;
  let edition: Edition = 'E23';
  let gameType: GameType = 'standard';
  let supervision: Supervision = 'full';
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? '';
    const value = (): string | undefined => args[++i];
    if (a === '--json') json = true;
    else if (a === '--edition') {
      const v = value() ?? '';
      if (!isEdition(v))
        return { ok: false, error: `--edition: unknown edition "${v}" (E97, E09, E14, E17, E18, E23)` };
      edition = v;
    } else if (a === '--type') {
      const v = value() ?? '';
      if (!isGameType(v))
        return { ok: false, error: `--type: unknown game type "${v}" (standard, rapid, blitz)` };
      gameType = v;
    } else if (a === '--supervision') {
      const v = value() ?? '';
      if (v !== 'full' && v !== 'reduced')
        return { ok: false, error: `--supervision: "${v}" is not full or reduced` };
      supervision = v;
    } else if (a.startsWith('--')) return { ok: false, error: `unknown option ${a}` };
    else positional.push(a);
  }
  return { ok: true, value: { json, edition, gameType, supervision, positional } };
};

const replayFile = async (
  path: string,
  profile: EditionProfile,
  json: boolean,
  io: CliIo,
): Promise<number> => {
  let bytes: Uint8Array;
  try {
    bytes = await io.readFile(path);
  } catch (e) {
    io.err(`chessbridge: cannot read ${path}: ${(e as Error).message}`);
    return 1;
  }
  const events = [...replayPgn(io.decode(bytes), profile)];
  if (json) for (const ev of events) io.out(JSON.stringify(ev));
  else for (const line of formatReplayText(events)) io.out(line);
  const errors = events.filter(e => e.type === 'error').length;
  if (errors > 0) io.err(`chessbridge: ${path}: ${errors} game(s) rejected`);
  return errors > 0 ? 1 : 0;
};

/** Runs the CLI; resolves to the process exit code. */
export const runCli = async (argv: readonly string[], io: CliIo): Promise<number> => {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    for (const line of USAGE) (command === undefined ? io.err : io.out)(line);
    return command === undefined ? 2 : 0;
  }
  const parsed = parseOptions(rest);
  if (!parsed.ok) {
    io.err(`chessbridge ${command}: ${parsed.error}`);
    return 2;
  }
  const { json, edition, gameType, supervision, positional } = parsed.value;
  switch (command) {
    case 'replay': {
      const [file, ...extra] = positional;
      if (file === undefined || extra.length > 0) {
        io.err('chessbridge replay: give exactly one PGN file');
        return 2;
      }
      return replayFile(file, getProfile(edition, gameType, supervision), json, io);
    }
    case 'demo': {
      let code = 0;
      for (const ed of ['E23', 'E09'] as const) {
        io.out(`=== Example games under the ${ed} Laws of Chess (${gameType}) ===`);
        for (const file of io.examples) {
          if (!json) io.out(`--- ${file.split('/').pop() ?? file}`);
          code = Math.max(code, await replayFile(file, getProfile(ed, gameType, supervision), json, io));
        }
        io.out('');
      }
      return code;
    }
    default:
      io.err(`chessbridge: unknown command "${command}"`);
      for (const line of USAGE) io.err(line);
      return 2;
  }
};
