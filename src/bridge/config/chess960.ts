/**
 * Chess960 in the venue configuration: which games start from a Chess960 position, and from which
 * one. A pairing, a board or a round (`tournament.chess960`) may say so, the most specific first;
 * a Chess960 game with neither `position` nor `fen` takes its start from the board (the daemon
 * waits for a Chess960 start position with the pawns in place, docs/operations.md).
 *
 *   chess960Problems(config);   // [{ path: 'pairings[2].fen', problem: 'give position or fen, not both' }]
 *   startOf(config, pairing, board);  // { variant: 'chess960', fen: 'bbqnnrkr/…' } | { variant: 'standard' }
 */
import { chess960Fen, chess960Game } from '../../engine/chess960.js';
import { makePathOf, type SchemaProblem } from './errors.js';
import type { Config } from './schema.js';

/** Where a game starts: standard, or Chess960 from a FEN (undefined: read off the board). */
export type GameStartSpec =
  { readonly variant: 'standard' } | { readonly variant: 'chess960'; readonly fen: string | undefined };

interface StartFields {
  readonly variant?: 'standard' | 'chess960';
  readonly position?: number;
  readonly fen?: string;
}

const fenOf = (f: StartFields): string | undefined => {
  if (f.fen !== undefined) {
    const g = chess960Game({ fen: f.fen });
    return g.isOk ? g.value.start.fen : f.fen;
  }
  return f.position === undefined ? undefined : chess960Fen(f.position);
};

/** The start of the game of `pairing` on `board`: the pairing's, else the board's, else the round's. */
export const startOf = (
  config: Pick<Config, 'tournament'>,
  pairing: (StartFields & { readonly round: number }) | undefined,
  board: StartFields | undefined,
): GameStartSpec => {
  for (const f of [pairing, board]) {
    if (f?.variant === 'standard') return { variant: 'standard' };
    if (f?.variant === 'chess960') return { variant: 'chess960', fen: fenOf(f) };
  }
  const round =
    pairing === undefined ? undefined : config.tournament.chess960.find(r => r.round === pairing.round);
  return round === undefined ? { variant: 'standard' } : { variant: 'chess960', fen: fenOf(round) };
};

const problem = (segments: readonly (string | number)[], text: string): SchemaProblem => ({
  pointer: '/' + segments.join('/'),
  path: makePathOf(segments),
  problem: text,
});

const entryProblems = (
  at: readonly (string | number)[],
  v: unknown,
  needsVariant: boolean,
): SchemaProblem[] => {
  if (typeof v !== 'object' || v === null) return [];
  const f = v as Record<string, unknown>;
  const out: SchemaProblem[] = [];
  const given = f['position'] !== undefined || f['fen'] !== undefined;
  if (f['position'] !== undefined && f['fen'] !== undefined)
    out.push(problem([...at, 'fen'], 'give position or fen, not both'));
  if (needsVariant && given && f['variant'] !== 'chess960')
    out.push(
      problem(
        [...at, f['position'] !== undefined ? 'position' : 'fen'],
        'a start position is for Chess960 games: add variant: chess960',
      ),
    );
  if (typeof f['fen'] === 'string') {
    const g = chess960Game({ fen: f['fen'] });
    if (g.isErr) out.push(problem([...at, 'fen'], g.error.message));
  }
  return out;
};

/** What is wrong with the Chess960 settings of pairings, boards and rounds, each at its key. */
export const chess960Problems = (value: unknown): SchemaProblem[] => {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const list = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
  const tournament = (v['tournament'] ?? {}) as Record<string, unknown>;
  const out: SchemaProblem[] = [];
  list(v['pairings']).forEach((p, i) => out.push(...entryProblems(['pairings', i], p, true)));
  list(v['boards']).forEach((b, i) => out.push(...entryProblems(['boards', i], b, true)));
  const seen = new Set<unknown>();
  list(tournament['chess960']).forEach((r, i) => {
    out.push(...entryProblems(['tournament', 'chess960', i], r, false));
    const round = (r as Record<string, unknown> | null)?.['round'];
    if (seen.has(round))
      out.push(problem(['tournament', 'chess960', i, 'round'], `round ${String(round)} is listed twice`));
    seen.add(round);
    if (typeof round === 'number' && typeof tournament['rounds'] === 'number' && round > tournament['rounds'])
      out.push(
        problem(
          ['tournament', 'chess960', i, 'round'],
          `round ${round} is beyond tournament.rounds (${tournament['rounds']})`,
        ),
      );
  });
  return out;
};
