/**
 * `chessbridge demo --once`: emulated boards on PTYs play their games through the daemon with its
 * embedded broker and web display; the addresses are printed, the pages and the MQTT.js bundle
 * are served while it runs, and it exits 0 once every game is over. The round is the one paired in
 * examples/demo-open.trf: its players are in the live PGN, the JSON API and the folder export,
 * which is written while the games are played; the tournament page says the broadcast delay.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect, type IClientOptions } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { childMainArgs } from '../support/childBuild.js';
import { PROJECT_ROOT } from '../support/shared.js';
import { waitFor } from './support.js';

describe('chessbridge demo --once', () => {
  it('plays every board to the end, serves the display meanwhile, and exits 0', async () => {
    const child = spawn(
      process.execPath,
      [...childMainArgs, 'demo', '--boards', '2', '--speed', '10', '--once', '--delay', '2'],
      { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    const exited = new Promise<number | null>(resolve => child.once('exit', c => resolve(c)));
    try {
      await waitFor(() => /hall display\s+http:\/\/\S+/.test(out), 30_000, `the addresses (${out})`);
      const display = /hall display\s+(http:\/\/[^/\s]+)\S*/.exec(out)?.[1] ?? '';
      const page = await fetch(`${display}/ui/display/index.html?round=1`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1');
      expect((await fetch(`${display}/ui/vendor/mqtt.esm.js`)).status).toBe(200);
      // The folder export, written while the round is played.
      const folder = /^  export folder\s+(\S+)/m.exec(out)?.[1] ?? '';
      const index = join(folder, 'round-1', 'index.json');
      const indexText = () => (existsSync(index) ? readFileSync(index, 'utf8') : '');
      // Both boards' games, in whichever order their boards start them.
      await waitFor(
        () =>
          indexText().includes('"lname": "Larrañaga Goicoechea"') &&
          indexText().includes('"lname": "Montenegro Salvatierra"'),
        30_000,
        () => `both games in the export folder (${indexText()})`,
      );
      expect(JSON.parse(readFileSync(join(folder, 'tournament.json'), 'utf8'))).toMatchObject({
        name: 'chessbridge demo open',
      });
      // The players of the file's round, with titles and ratings, on the boards that play it.
      const round = await (await fetch(`${display}/api/rounds/1`)).text();
      for (const name of [
        'Montenegro Salvatierra, Rodrigo',
        'Rodríguez-Vallejo, Carmen',
        'Larrañaga Goicoechea, Iker',
      ])
        expect(round).toContain(name);
      const pgn = await (await fetch(`${display}/round-1/game-1.pgn`)).text();
      expect(pgn).toContain('[WhiteTitle "GM"]');
      expect(pgn).toContain('[BlackElo "2290"]');
      expect(await (await fetch(`${display}/`)).text()).toContain('broadcast delay 2 min');
      // The arbiter's login is made for the run and printed; nothing accepts any password.
      const login = /arbiter login\s+user arbiter, password (\S+)/.exec(out);
      expect(login?.[1]).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      const mqttUrl = /MQTT\s+(mqtt:\/\/\S+)/.exec(out)?.[1] ?? '';
      const loginCode = (options: IClientOptions) =>
        new Promise<number>(resolve => {
          const c = connect(mqttUrl, { protocolVersion: 4, reconnectPeriod: 0, ...options });
          c.once('connect', () => (c.end(true), resolve(0)));
          c.once('error', (e: Error & { code?: number }) => (c.end(true), resolve(e.code ?? -1)));
        });
      expect(await loginCode({ username: 'arbiter', password: 'any password' })).toBe(4);
      expect(await loginCode({ username: 'arbiter', password: login?.[1] ?? '' })).toBe(0);
      expect(await exited).toBe(0);
      expect(out).toMatch(/game r1-b1 finished: 1-0 \(checkmate\)/);
      expect(out).toMatch(/game r1-b2 finished: 1-0 \(checkmate\)/);
      expect(out).toMatch(/Rd8# \(seq \d+\)/); // the Opera game's last move
      expect(out).not.toMatch(/ERROR/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
