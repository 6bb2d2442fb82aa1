/**
 * Pairings from the file the config names (`tournament.pairingsFile`): a FIDE TRF file as
 * Swiss-Manager or Vega export it, or a CSV file (`.csv`). Games the file already gives a result
 * for (played rounds, forfeits) are left out: only games still to play go to the boards. Each
 * pairing becomes a config pairing, checked against the config like the ones written in it.
 *
 *   const r = await readPairingsFile('/srv/open/round5.trf', config);
 *   if (r.isOk) games.setPairings([...inlinePairings(config), ...r.value]);
 *   else log.error(r.error.message); // "/srv/open/round5.trf: line 12, field 'rating (columns 49-52)': …"
 */
import { readFile } from 'node:fs/promises';
import { Result } from '@badrap/result';
import type { Config, PairingConfig, PlayerConfig } from '../config/schema.js';
import { parseCsvPairings } from './csv.js';
import { parseTrf } from './trf.js';
import { type RefusalProblem, refused } from '../wire/refusals.js';
import { describePairingsProblem, type Pairing, type PairingsProblem, type Player } from './types.js';

const TITLE = /^[A-Z]{1,4}$/;
const FEDERATION = /^[A-Z]{3}$/;

/** Pairings that came from a pairings file (the rest of `config.pairings` is written in the config). */
const FROM_FILE = new WeakSet<PairingConfig>();

/** The pairings written in the config itself, without those read from its pairings file. */
export const inlinePairings = (config: Config): PairingConfig[] =>
  config.pairings.filter(p => !FROM_FILE.has(p));

/** The pairings read from the config's pairings file. */
export const filePairings = (config: Config): PairingConfig[] =>
  config.pairings.filter(p => FROM_FILE.has(p));

const playerOf = (p: Player): PlayerConfig => {
  const fideId = p.fideId === undefined ? undefined : Number(p.fideId);
  return {
    name: p.name,
    ...(fideId !== undefined && Number.isSafeInteger(fideId) && fideId > 0 && { fideId }),
    ...(p.title !== undefined && TITLE.test(p.title) && { title: p.title }),
    ...(p.rating !== undefined && p.rating > 0 && { rating: p.rating }),
    ...(p.federation !== undefined && FEDERATION.test(p.federation) && { federation: p.federation }),
  };
};

const pairingOf = (p: Pairing): PairingConfig => {
  const out: PairingConfig = {
    round: p.round,
    board: p.board,
    white: playerOf(p.white),
    black: playerOf(p.black),
    ...(p.boardSerial !== undefined && { serial: p.boardSerial }),
    ...(p.chess960 !== undefined && { variant: 'chess960' as const, ...p.chess960 }),
  };
  FROM_FILE.add(out);
  return out;
};

/** `csv` for a `.csv` file, else `trf` (`.trf`, `.txt` and what pairing programs call their export). */
export const pairingsFormatOf = (path: string): 'csv' | 'trf' =>
  path.toLowerCase().endsWith('.csv') ? 'csv' : 'trf';

/** The file's games still to play, as config pairings; or what is wrong, with its line. */
export const parsePairingsFile = (path: string, text: string): Result<PairingConfig[], Error> => {
  const parsed: Result<readonly Pairing[], Error> =
    pairingsFormatOf(path) === 'csv' ? parseCsvPairings(text) : parseTrf(text).map(t => t.pairings);
  if (parsed.isErr) {
    const e = parsed.error;
    const problems = 'problems' in e ? (e.problems as readonly PairingsProblem[]) : [];
    const lines = problems.length > 0 ? problems.map(describePairingsProblem) : [e.message];
    const message = lines.map(l => `${path}: ${l}`).join('\n');
    const first = problems[0];
    // As data for the pages (wire/refusals.ts): how many problems, and the first one's place and kind.
    return Result.err(
      first === undefined
        ? new Error(message)
        : refused(
            'pairings_invalid',
            {
              count: problems.length,
              line: first.line,
              field: first.field,
              value: 'value' in first ? first.value : '',
              problem: first.kind satisfies RefusalProblem,
            },
            message,
          ),
    );
  }
  return Result.ok(parsed.value.filter(p => p.result === undefined).map(pairingOf));
};

/** Why a file's pairing does not fit the config (the kinds are keys of the catalogs' `refusal.problem.*`). */
export interface PairingMisfit {
  readonly kind: 'round_beyond' | 'unknown_serial' | 'config_pairs_it';
  readonly round: number;
  readonly board: number;
  /** What the file gives that does not fit (the serial number), when there is one. */
  readonly value?: string;
  /** The English line, naming the file, the pairing and what is wrong. */
  readonly message: string;
}

/**
 * What does not fit between the file's pairings and the config: a round beyond
 * `tournament.rounds`, a serial no board reports, a round and board the config already pairs.
 */
const filePairingMisfits = (
  path: string,
  file: readonly PairingConfig[],
  config: Config,
): PairingMisfit[] => {
  const out: PairingMisfit[] = [];
  const serials = new Set(config.boards.flatMap(b => (b.serial === undefined ? [] : [b.serial])));
  const inline = new Map(inlinePairings(config).map((p, i) => [`${p.round}/${p.board}`, i]));
  for (const p of file) {
    const where = `${path}: round ${p.round} board ${p.board}`;
    const misfit = (kind: PairingMisfit['kind'], what: string, value?: string) =>
      out.push({
        kind,
        round: p.round,
        board: p.board,
        ...(value === undefined ? {} : { value }),
        message: `${where}: ${what}`,
      });
    if (p.round > config.tournament.rounds)
      misfit('round_beyond', `round ${p.round} is beyond tournament.rounds (${config.tournament.rounds})`);
    if (p.serial !== undefined && !serials.has(p.serial))
      misfit('unknown_serial', `no board has serial number "${p.serial}"`, p.serial);
    const twin = inline.get(`${p.round}/${p.board}`);
    if (twin !== undefined) misfit('config_pairs_it', `the config pairs it too (pairings[${twin}])`);
  }
  return out;
};

/**
 * The file's pairings if they fit the config; else one error with every misfit in its message and
 * the first one as data for the pages.
 */
export const fitPairings = (
  path: string,
  file: PairingConfig[],
  config: Config,
): Result<PairingConfig[], Error> => {
  const misfits = filePairingMisfits(path, file, config);
  const first = misfits[0];
  if (first === undefined) return Result.ok(file);
  return Result.err(
    refused(
      'pairings_unfit',
      {
        count: misfits.length,
        round: first.round,
        board: first.board,
        value: first.value ?? '',
        problem: first.kind satisfies RefusalProblem,
      },
      misfits.map(m => m.message).join('\n'),
    ),
  );
};

/** Reads, parses and checks the pairings file against the config. */
export const readPairingsFile = async (
  path: string,
  config: Config,
  read: (path: string) => Promise<string> = p => readFile(p, 'utf8'),
): Promise<Result<PairingConfig[], Error>> => {
  let text: string;
  try {
    text = await read(path);
  } catch (e) {
    return Result.err(
      new Error(`${path}: cannot read the file (${e instanceof Error ? e.message : String(e)})`),
    );
  }
  const parsed = parsePairingsFile(path, text);
  return parsed.isErr ? parsed : fitPairings(path, parsed.value, config);
};
