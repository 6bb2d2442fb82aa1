/**
 * What the round test (roundRun.test.ts) reads its outputs with: a server-sent event reader (with
 * a cookie, as a logged-in page's EventSource sends it), a two-round TRF file, and "when did each
 * output first show ply N" bookkeeping.
 *
 *   const abort = readSse(`${http}/events/public`, (data, at) => …, { cookie });
 *   const seen = new Sightings(['r2-b1']); seen.mark('r2-b1', 3, Date.now()); seen.at('r2-b1', 2);
 */
import { readFile } from 'node:fs/promises';
import { readPgn } from '../../src/engine/pgnRead.js';
import { trfPlayerLine } from '../support/trf.js';

/** Reads a server-sent event stream; calls `onData` with each event's data and its arrival time. */
export const readSse = (
  url: string,
  onData: (data: string, at: number) => void,
  headers: Record<string, string> = {},
): { abort: AbortController; status: Promise<number> } => {
  const abort = new AbortController();
  let status: (code: number) => void = () => undefined;
  const statusOf = new Promise<number>(resolve => (status = resolve));
  void (async () => {
    const res = await fetch(url, { signal: abort.signal, headers });
    status(res.status);
    if (!res.ok) return;
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
      const at = Date.now();
      text += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = text.indexOf('\n\n')) >= 0) {
        const data = text
          .slice(0, end)
          .split('\n')
          .filter(l => l.startsWith('data: '))
          .map(l => l.slice(6))
          .join('\n');
        text = text.slice(end + 2);
        if (data !== '') onData(data, at);
      }
    }
  })().catch(() => status(0));
  return { abort, status: statusOf };
};

/** Plies of the first game of a PGN text ('' or unreadable: 0). */
export const pliesIn = (text: string | undefined): number => {
  if (text === undefined || text === '') return 0;
  const first = readPgn(text)[0];
  return first?.isOk === true ? first.value.game.moves.length : 0;
};

export const readOrUndefined = (path: string): Promise<string | undefined> =>
  readFile(path, 'utf8').catch(() => undefined);

/** When one output first showed each ply count, per game (a count seen implies every lower one). */
export class Sightings {
  private readonly seen = new Map<string, Map<number, number>>();

  constructor(games: readonly string[]) {
    for (const g of games) this.seen.set(g, new Map());
  }

  mark(game: string, plies: number, at: number): void {
    const s = this.seen.get(game);
    if (s === undefined) return;
    for (let p = 1; p <= plies; p++) if (!s.has(p)) s.set(p, at);
  }

  /** When ply `ply` was first shown, if it was. */
  at(game: string, ply: number): number | undefined {
    return this.seen.get(game)?.get(ply);
  }
}

/**
 * A tournament of four after round 1 (results in), round 2 paired and to play: Bravo–Alpha on
 * board 1, Charlie–Delta on board 2, as Swiss-Manager or Vega export it.
 */
export const TWO_ROUNDS_TRF = [
  '012 Open de Otoño',
  trfPlayerLine({
    rank: 1,
    title: 'g',
    name: 'Alpha, Anna',
    rating: '2500',
    fed: 'ESP',
    id: '2200001',
    rounds: [
      ['2', 'w', '1'],
      ['2', 'b', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 2,
    title: 'm',
    name: 'Bravo, Ben',
    rating: '2400',
    fed: 'ARG',
    rounds: [
      ['1', 'b', '0'],
      ['1', 'w', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 3,
    name: 'Charlie, Cid',
    rating: '2300',
    rounds: [
      ['4', 'b', '='],
      ['4', 'w', ' '],
    ],
  }),
  trfPlayerLine({
    rank: 4,
    name: 'Delta, Dan',
    rounds: [
      ['3', 'w', '='],
      ['3', 'b', ' '],
    ],
  }),
  '',
].join('\n');
