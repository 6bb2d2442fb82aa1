/**
 * Password guessing at scale (issue 15, acceptance 2): the daemon in-process with its embedded
 * broker and HTTP server and three users, then N wrong passwords for the arbiter over MQTT (raw
 * CONNECT packets on fresh connections) and N over HTTP Basic (keep-alive), each while the right
 * credentials are tried every 300 ms. Reports per transport the wall time, the CPU time of this
 * one process (broker, server and guesser share it: about the wall time on an idle machine), the
 * answers, whether any guess got in, whether the right login ever failed, and the login report's
 * lines. Writes the "Password guessing" section of docs/benchmarks.md.
 *
 *   npx tsx bench/guessing.ts [--guesses 10000] [--concurrency 64] [--no-write]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync } from 'mqtt';
import { asyncScheduler, NEVER } from 'rxjs';
import { loadConfig } from '../src/bridge/config/index.js';
import { Daemon } from '../src/bridge/daemon/daemon.js';
import { engineSupervisor } from '../src/bridge/game/engine.js';
import { memoryLogger } from '../src/bridge/logger.js';
import { hashPassword } from '../src/bridge/security/passwords.js';
import { guessHttp, guessMqtt, tallyText, type Tally } from '../test/support/guessing.js';
import { writeReportSection } from './report.js';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  const v = i < 0 ? undefined : Number(process.argv[i + 1]);
  return v !== undefined && Number.isInteger(v) && v > 0 ? v : fallback;
};
const GUESSES = arg('--guesses', 10_000);
const CONCURRENCY = arg('--concurrency', 64);
const ANNA = { username: 'anna', password: 'tarrasch-1908-opens-e4' };

interface Run {
  readonly transport: string;
  readonly wallS: number;
  readonly cpuS: number;
  readonly tally: Tally;
  readonly rightTries: number;
  readonly rightFailed: number;
}

/** Runs `flood` while `right` is tried every 300 ms; wall and CPU seconds, and the right tries. */
const measure = async (
  transport: string,
  flood: () => Promise<Tally>,
  right: () => Promise<boolean>,
): Promise<Run> => {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const flooding = { on: true };
  const outcomes: boolean[] = [];
  const tries = (async () => {
    while (flooding.on) {
      outcomes.push(await right());
      await new Promise(resolve => setTimeout(resolve, 300));
    }
  })();
  const tally = await flood().finally(() => (flooding.on = false));
  await tries;
  const used = process.cpuUsage(cpu);
  return {
    transport,
    wallS: (performance.now() - started) / 1000,
    cpuS: (used.user + used.system) / 1e6,
    tally,
    rightTries: outcomes.length,
    rightFailed: outcomes.filter(ok => !ok).length,
  };
};

const main = async (): Promise<void> => {
  const dir = await mkdtemp(join(tmpdir(), 'chessbridge-guessing-'));
  const memory = memoryLogger('info');
  const config = (
    await loadConfig({
      text: [
        `journal: { dir: ${join(dir, 'journal')} }`,
        'http: { enabled: yes }',
        `users: [{ name: anna, role: arbiter, passwordHash: '${await hashPassword(ANNA.password)}' }]`,
      ].join('\n'),
    })
  ).unwrap();
  const daemon = new Daemon({
    config,
    log: memory.logger,
    engine: engineSupervisor(),
    scheduler: asyncScheduler,
    now: Date.now,
    version: '0.0.0-bench',
    openBoard: () => NEVER,
    brokerPorts: { port: 0, wsPort: 0 },
    httpPort: 0,
    loginReportMs: 1000,
  });
  await daemon.start();
  const pipeline = daemon.pipeline$().subscribe();
  const mqttUrl = new URL(daemon.addresses?.mqtt ?? '');
  const http = daemon.addresses?.http ?? '';
  const basic = `Basic ${Buffer.from(`${ANNA.username}:${ANNA.password}`).toString('base64')}`;
  try {
    const runs = [
      await measure(
        'MQTT',
        () =>
          guessMqtt({
            host: mqttUrl.hostname,
            port: Number(mqttUrl.port),
            count: GUESSES,
            concurrency: CONCURRENCY,
            username: 'anna',
            password: i => `guess-${i}`,
          }),
        async () => {
          const c = await connectAsync(mqttUrl.href, {
            ...ANNA,
            protocolVersion: 4,
            reconnectPeriod: 0,
          }).catch(() => undefined);
          await c?.endAsync(true);
          return c !== undefined;
        },
      ),
      await measure(
        'HTTP',
        () =>
          guessHttp({
            url: `${http}/api/arbiter/resync-board`,
            count: GUESSES,
            concurrency: Math.min(CONCURRENCY, 32),
            username: 'anna',
            password: i => `http-guess-${i}`,
            body: '{"board_id":"nope"}',
          }),
        async () => {
          const r = await fetch(`${http}/api/arbiter/resync-board`, {
            method: 'POST',
            headers: { authorization: basic, 'content-type': 'application/json' },
            body: '{"board_id":"nope"}',
          });
          // Authenticated: the request is judged (an unknown board is refused as such, not as a login).
          return r.status !== 401 && r.status !== 429;
        },
      ),
    ];
    await new Promise(resolve => setTimeout(resolve, 1200)); // one more login report
    const aggregate = memory.lines.filter(l => l.includes('logins (MQTT and HTTP):'));
    const rows = runs.map(
      r =>
        `| ${r.transport} | ${GUESSES} | ${r.wallS.toFixed(1)} | ${r.cpuS.toFixed(1)} | ${Math.round(GUESSES / r.wallS)} | \`${tallyText(r.tally)}\` | ${r.tally.get(r.transport === 'MQTT' ? 0 : 200) ?? 0} | ${r.rightTries - r.rightFailed}/${r.rightTries} |`,
    );
    const body = [
      `\`npx tsx bench/guessing.ts --guesses ${GUESSES} --concurrency ${CONCURRENCY}\` on ${cpus().length} cores` +
        ` (load average ${loadavg()[0]?.toFixed(1) ?? '?'} at the end; the machine is shared).`,
      'The daemon in-process (embedded broker, HTTP server, one arbiter with a scrypt hash); wrong',
      'passwords for the arbiter over MQTT (raw CONNECT packets, a fresh connection each) and HTTP',
      "Basic (keep-alive), while the right login is tried every 300 ms. CPU is this process's",
      'time (daemon and guesser together), close to the wall time on an idle machine. MQTT answers:',
      '4 wrong, 3 slowed (try again later), -1 closed without a CONNACK; HTTP: 401 wrong, 429 slowed.',
      '',
      '| transport | guesses | wall s | CPU s | guesses/s | answers | got in | right login ok |',
      '|---|---|---|---|---|---|---|---|',
      ...rows,
      '',
      `Login report: ${aggregate.length} lines in all (one a second here), e.g. \`${(aggregate[0] ?? '').replace(/^.*?logins \(/, 'logins (')}\`.`,
      'test/integration/security.test.ts runs the same guesser at the same count.',
    ].join('\n');
    console.log(body);
    if (!process.argv.includes('--no-write'))
      console.log(`written to ${writeReportSection('Password guessing', body)}`);
    const bad = runs.filter(
      r => (r.tally.get(r.transport === 'MQTT' ? 0 : 200) ?? 0) > 0 || r.rightFailed > 0,
    );
    if (bad.length > 0) process.exitCode = 1;
  } finally {
    pipeline.unsubscribe();
    await daemon.stop();
    await rm(dir, { recursive: true, force: true });
  }
};

await main();
