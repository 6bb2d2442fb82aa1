/**
 * A local stand-in for the push end of Lichess broadcasts, enforcing the contract the daemon
 * pushes to (../shared/reference/broadcast-sites.md §2 and the public API documentation):
 * `POST /api/broadcast/round/{id}/push` for a known round id only, `Authorization: Bearer TOKEN`,
 * a PGN body of 1 to 100 games (more is refused), each game replayed with chessops from its
 * start position (the `FEN` tag when there is one). The reply is `{ games: [{ tags, moves } |
 * { tags, error }] }`, one item per game: an illegal or unreadable move, or a game without tags,
 * is an error for that game only. Every request is recorded with its arrival time.
 *
 *   const lichess = await startLichessServer({ token: 'lip_…', rounds: ['abcd1234'] });
 *   lichess.url;                      // http://127.0.0.1:PORT
 *   lichess.pushes;                   // [{ at, round, status, body, games: [{ round: '1.2', plies, error }] }]
 *   lichess.failNext(2, 503);         // the next two requests answer 503
 *   lichess.refuseGame('1.2', 'no');  // reply with an error for the game with Round "1.2"
 *   await lichess.stop();
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parsePgn, startingPosition } from 'chessops/pgn';
import { parseSan } from 'chessops/san';

/** Games Lichess takes in one push body at most. */
export const LICHESS_MAX_GAMES = 100;

export interface PushedGame {
  readonly round: string | undefined;
  readonly plies: number;
  readonly result: string | undefined;
  readonly error: string | undefined;
}

export interface Push {
  readonly at: number;
  readonly round: string;
  readonly status: number;
  readonly authorization: string | undefined;
  readonly body: string;
  readonly games: readonly PushedGame[];
}

export interface LichessServer {
  readonly url: string;
  readonly pushes: Push[];
  /** The next `count` requests answer `status` (a server in trouble). */
  failNext(count: number, status: number): void;
  /** The game with this Round tag gets an error in the replies. */
  refuseGame(round: string, error: string): void;
  stop(): Promise<void>;
}

const readBody = (req: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** Replays one game's mainline; the error of the first move that does not replay. */
const replay = (game: ReturnType<typeof parsePgn>[number]): { plies: number; error: string | undefined } => {
  if (game.headers.size === 0) return { plies: 0, error: 'a game without tags' };
  const start = startingPosition(game.headers);
  if (start.isErr) return { plies: 0, error: `bad start position: ${start.error.message}` };
  const pos = start.value;
  let plies = 0;
  for (const node of game.moves.mainline()) {
    const move = parseSan(pos, node.san);
    if (move === undefined)
      return { plies, error: `illegal or unreadable move ${node.san} at ply ${plies + 1}` };
    pos.play(move);
    plies += 1;
  }
  return { plies, error: undefined };
};

export const startLichessServer = async (opts: {
  readonly token: string;
  readonly rounds: readonly string[];
}): Promise<LichessServer> => {
  const pushes: Push[] = [];
  let failing = { count: 0, status: 503 };
  const refused = new Map<string, string>();
  const server = createServer((req, res) => {
    void (async () => {
      const body = await readBody(req);
      const reply = (status: number, value: unknown, round = ''): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
        if (round !== '' || status !== 404)
          pushes.push({
            at: Date.now(),
            round,
            status,
            authorization: req.headers.authorization,
            body,
            games: (value as { games?: PushedGame[] }).games ?? [],
          });
      };
      const m = /^\/api\/broadcast\/round\/([A-Za-z0-9]{8})\/push$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !m || !opts.rounds.includes(m[1]!))
        return reply(404, { error: 'Not found' });
      const round = m[1]!;
      if (req.headers.authorization !== `Bearer ${opts.token}`)
        return reply(401, { error: 'No such token' }, round);
      if (failing.count > 0) {
        failing = { ...failing, count: failing.count - 1 };
        return reply(failing.status, { error: 'try later' }, round);
      }
      const games = parsePgn(body);
      if (games.length === 0) return reply(400, { error: 'no game in the body' }, round);
      if (games.length > LICHESS_MAX_GAMES)
        return reply(400, { error: `${games.length} games, at most ${LICHESS_MAX_GAMES}` }, round);
      const items = games.map(g => {
        const tags = Object.fromEntries(g.headers);
        const { plies, error } = replay(g);
        const refusal = refused.get(tags.Round ?? '');
        const why = error ?? refusal;
        return why === undefined ? { tags, moves: plies } : { tags, error: why };
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ games: items }));
      pushes.push({
        at: Date.now(),
        round,
        status: 200,
        authorization: req.headers.authorization,
        body,
        games: games.map((g, i) => {
          const { plies, error } = replay(g);
          const item = items[i]!;
          return {
            round: g.headers.get('Round'),
            plies,
            result: g.headers.get('Result'),
            error: 'error' in item ? item.error : error,
          };
        }),
      });
    })();
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pushes,
    failNext: (count, status) => {
      failing = { count, status };
    },
    refuseGame: (round, error) => refused.set(round, error),
    stop: () =>
      new Promise(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
