/**
 * Live PGN feed benchmark: requests per second and latency of the feed routes with 200 live games,
 * as broadcast sites and pollers hit them, with and without If-None-Match. The server runs in a
 * child process (so the load generator does not share its CPU), keeps playing moves of the real
 * games on the boards while the load runs, and listens on loopback only. Each scenario sends a
 * fixed number of requests over keep-alive connections, then stops. Prints the figures.
 *
 *   npx tsx bench/pgnFeed.ts [--games 200] [--requests 20000] [--connections 32] [--moves-per-second 7] [--shared DIR]
 *
 * Games: the FIDE Women's World Rapid 2024 broadcast export from the shared corpus (every move has
 * [%clk]), cycled to fill the boards and cut halfway, so every board has a game in progress.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { cpus } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodePgnBytes, readPgn } from '../src/engine/pgnRead.js';
import {
  type FeedState,
  gameEntry,
  makeFeedState,
  setRound,
  upsertGame,
} from '../src/bridge/feed/feedState.js';
import { liveGameFromPgn } from '../src/bridge/feed/fromPgn.js';
import { HttpServer } from '../src/bridge/http/server.js';
import { writeReportSection } from './report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const opt = (name: string, fallback: string): string => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const GAMES = Number(opt('--games', '200'));
const REQUESTS = Number(opt('--requests', '20000'));
const CONNECTIONS = Number(opt('--connections', '32'));
const MOVES_PER_SECOND = Number(opt('--moves-per-second', '7'));
const SHARED = resolve(opt('--shared', process.env.CHESSBRIDGE_SHARED ?? join(ROOT, '..', 'shared')));

// ---------------------------------------------------------------------------------------------
// Server side (child process)

const serve = async (): Promise<void> => {
  const text = decodePgnBytes(readFileSync(join(SHARED, 'data/pgn/fide-womens-world-rapid-2024.pgn')));
  const imported = readPgn(text).flatMap(r => (r.isOk ? [r.value] : []));
  const t0 = Date.now();
  let state: FeedState = setRound(makeFeedState({ name: 'Feed benchmark' }, t0), 1, {}, t0);
  const full = new Map<number, (typeof imported)[number]>();
  for (let board = 1; board <= GAMES; board++) {
    const g = imported[(board - 1) % imported.length]!;
    full.set(board, g);
    const { result: _r, ...live } = liveGameFromPgn(g, { round: 1, board });
    state = upsertGame(state, { ...live, game: g.game.truncate(Math.floor(g.game.length / 2)).unwrap() }, t0);
  }
  const server = new HttpServer({ port: 0, host: '127.0.0.1', feed: () => state });
  const { port } = await server.start();
  let next = 1;
  let moves = 0;
  const mover =
    MOVES_PER_SECOND > 0
      ? setInterval(() => {
          const board = next;
          next = (next % GAMES) + 1;
          const entry = gameEntry(state, 1, board)!;
          const record = full.get(board)!.game;
          if (entry.live.game.length >= record.length) return;
          state = upsertGame(
            state,
            { ...entry.live, game: record.truncate(entry.live.game.length + 1).unwrap() },
            Date.now(),
          );
          moves++;
        }, 1000 / MOVES_PER_SECOND)
      : undefined;
  process.on('message', msg => {
    if (msg !== 'stop') return;
    if (mover) clearInterval(mover);
    void server.stop().then(() => {
      process.send?.({ moves }, () => process.exit(0));
    });
  });
  process.send?.({ port });
};

// ---------------------------------------------------------------------------------------------
// Load generator (parent)

interface Scenario {
  readonly name: string;
  readonly requests: number;
  readonly path: (i: number) => string;
  readonly conditional: boolean;
}

interface Outcome {
  readonly seconds: number;
  readonly latencies: Float64Array;
  readonly status: Map<number, number>;
  readonly bytes: number;
}

const quantile = (sorted: Float64Array, q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

const run = async (port: number, s: Scenario): Promise<Outcome> => {
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const etags = new Map<string, string>();
  const latencies = new Float64Array(s.requests);
  const status = new Map<number, number>();
  let bytes = 0;
  let issued = 0;
  const one = (i: number): Promise<void> =>
    new Promise((done, fail) => {
      const path = s.path(i);
      const etag = s.conditional ? etags.get(path) : undefined;
      const start = performance.now();
      const req = request(
        { host: '127.0.0.1', port, path, agent, headers: etag ? { 'if-none-match': etag } : {} },
        res => {
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => {
            latencies[i] = performance.now() - start;
            status.set(res.statusCode ?? 0, (status.get(res.statusCode ?? 0) ?? 0) + 1);
            const tag = res.headers.etag;
            if (s.conditional && tag) etags.set(path, tag);
            done();
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
  const worker = async (): Promise<void> => {
    while (issued < s.requests) await one(issued++);
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (performance.now() - t0) / 1000;
  agent.destroy();
  return { seconds, latencies: latencies.sort(), status, bytes };
};

const main = async (): Promise<void> => {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', ...args], {
    execArgv: process.execArgv,
  });
  const first = await new Promise<{ port: number }>((res, rej) => {
    const timer = setTimeout(() => rej(new Error('server did not start within 60 s')), 60_000);
    child.once('message', m => {
      clearTimeout(timer);
      res(m as { port: number });
    });
    child.once('exit', code => rej(new Error(`server exited with ${code}`)));
  });
  const board = (i: number): number => (i % GAMES) + 1;
  const roundRequests = Math.max(200, Math.floor(REQUESTS / 20));
  const scenarios: Scenario[] = [
    {
      name: 'round-1/game-K.pgn',
      requests: REQUESTS,
      path: i => `/round-1/game-${board(i)}.pgn`,
      conditional: false,
    },
    {
      name: 'round-1/game-K.pgn + If-None-Match',
      requests: REQUESTS,
      path: i => `/round-1/game-${board(i)}.pgn`,
      conditional: true,
    },
    {
      name: 'round-1/games.pgn (200 games)',
      requests: roundRequests,
      path: () => '/round-1/games.pgn',
      conditional: false,
    },
    {
      name: 'round-1/games.pgn + If-None-Match',
      requests: REQUESTS,
      path: () => '/round-1/games.pgn',
      conditional: true,
    },
  ];
  const rows: string[] = [];
  try {
    for (const s of scenarios) {
      await run(first.port, { ...s, requests: Math.min(500, s.requests) }); // warm-up
      const o = await run(first.port, s);
      const codes = [...o.status]
        .sort()
        .map(([c, n]) => `${c}: ${n}`)
        .join(', ');
      rows.push(
        `| ${s.name} | ${s.requests} | ${Math.round(s.requests / o.seconds)} | ${quantile(o.latencies, 0.5).toFixed(2)} | ${quantile(o.latencies, 0.99).toFixed(2)} | ${(o.bytes / s.requests / 1024).toFixed(1)} | ${codes} |`,
      );
      console.error(`done: ${s.name}`);
    }
  } finally {
    child.send('stop');
  }
  const moves = await new Promise<number>(res => {
    child.once('message', m => res((m as { moves: number }).moves));
    child.once('exit', () => res(NaN));
  });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const report = [
    `Run: \`npx tsx bench/pgnFeed.ts\`. PGN feed over HTTP: ${GAMES} live games in one round, ${CONNECTIONS} keep-alive connections on loopback, `,
    `server in a child process playing ${MOVES_PER_SECOND} moves/s (${moves} moves during the run). `,
    `Node ${process.version}, ${cpu} (${cpus().length} cores).`,
    '',
    '| request | requests | req/s | p50 ms | p99 ms | KiB/response | statuses |',
    '|---|---:|---:|---:|---:|---:|---|',
    ...rows,
  ].join('\n');
  console.log(report);
  if (!args.includes('--no-write')) writeReportSection('Live PGN feed over HTTP', report);
};

if (args.includes('--serve')) void serve();
else
  main().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
