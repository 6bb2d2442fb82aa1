/**
 * `chessbridge replay JOURNAL --lang es` as main wires it: a game journal written by the journal
 * store (the arbiter's moves, an illegal one among them, a draw offer and a claim out of turn)
 * replayed through the supervisor; the text speaks Spanish, rendered from the events' fields and
 * sentences, and the JSON is the same in every language.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../../../src/bridge/cli/cli.js';
import { replayJournals } from '../../../src/bridge/cli/replay/journal.js';
import { nodeScriptIo, replayScripts } from '../../../src/bridge/cli/replay/script.js';
import { engineSupervisor } from '../../../src/bridge/game/engine.js';
import { JournalStore } from '../../../src/bridge/journal/index.js';
import { INITIAL_FEN } from 'chessops/fen';
import { decodePgnBytes } from '../../../src/engine/pgnRead.js';
import { EXAMPLES } from '../../../src/main.js';

const dir = mkdtempSync(join(tmpdir(), 'chessbridge-replay-lang-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const replay = async (argv: readonly string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    readFile: path => Promise.resolve(readFileSync(path)),
    out: l => out.push(l),
    err: l => err.push(l),
    decode: decodePgnBytes,
    examples: EXAMPLES,
    replayJournals: (paths, json, lang) =>
      replayJournals(
        paths,
        { json, ...(lang === undefined ? {} : { lang }) },
        engineSupervisor(),
        l => out.push(l),
        l => err.push(l),
      ),
    replayScripts: (paths, json, lang) =>
      replayScripts(
        paths,
        { json, ...(lang === undefined ? {} : { lang }) },
        nodeScriptIo,
        l => out.push(l),
        l => err.push(l),
      ),
  };
  const code = await runCli(argv, io);
  return { code, out, err };
};

const journal = async (name = 'journal'): Promise<string> => {
  const store = new JournalStore({ dir: join(dir, name) });
  expect((await store.start()).isOk).toBe(true);
  const settings = {
    edition: 'E23',
    gameType: 'standard',
    supervision: 'full',
    timeControl: '-',
    startFen: INITIAL_FEN,
  } as const;
  expect((await store.createGame({ game: 'r1-b2', board: 'dgt-2', settings })).isOk).toBe(true);
  const command = (at: number, action: string, params: Record<string, unknown>) =>
    store.append('r1-b2', {
      type: 'command',
      at,
      action,
      params: { game_id: 'r1-b2', ...params },
      source: 'cli',
    });
  for (const r of [
    await command(1000, 'set_moves', { after_ply: 0, moves: ['e4', 'e5', 'Nf3'] }),
    await command(2000, 'set_moves', { after_ply: 3, moves: ['Qxf7'] }),
    await command(3000, 'claim', { color: 'white', claim: 'threefold' }),
  ])
    expect(r.isOk).toBe(true);
  await store.stop();
  return join(dir, name, 'games', 'r1-b2.jsonl');
};

describe('chessbridge replay JOURNAL --lang', () => {
  it('prints the journal’s alerts, claims and moves in Spanish; the JSON is the same in every language', async () => {
    const file = await journal();
    const es = await replay(['replay', file, '--lang', 'es']);
    expect(es.err).toEqual([]);
    expect(es.code).toBe(0);
    const text = es.out.join('\n');
    expect(text).toContain(
      'ALERTA arbiter_decision_needed [E23 art. 7.6] No se registraron las jugadas dadas tras la jugada 3: Qxf7 no es una jugada legal tras la jugada 3.',
    );
    expect(text).toMatch(
      /Se rechaza la reclamación de Blancas: tablas por triple repetición \[E23 art\. 9\.2[.\d]*\] Solo puede reclamar el jugador que tiene el turno; Blancas no lo tienen\./,
    );
    expect(es.out[0]).toMatch(/^r1-b2 en el tablero dgt-2 \(registro del .*; E23 standard, -\)$/);
    expect(text).toContain('corrección desde la jugada 1 (árbitro): e4 e5 Cf3');
    expect(es.out.at(-1)).toBe('3 registros, 3 eventos, sin terminar');
    const en = await replay(['replay', file]);
    expect(en.out.join('\n')).toContain(
      'ALERT arbiter-decision-needed [E23 7.6] The moves given after ply 3 were not recorded: Qxf7 is not a legal move after ply 3.',
    );
    const jsonEs = await replay(['replay', file, '--json', '--lang', 'es']);
    const jsonEn = await replay(['replay', file, '--json']);
    expect(jsonEs.out.length).toBeGreaterThan(2);
    expect(jsonEs.out).toEqual(jsonEn.out);
  });

  it('prints a damaged journal’s damage lines in Spanish', async () => {
    const file = await journal('second');
    const lines = readFileSync(file, 'utf8').split('\n');
    // The second record (seq 2) overwritten with bytes that are not JSON.
    lines[2] = '{"type":"command", torn';
    writeFileSync(file, lines.join('\n'));
    const es = await replay(['replay', file, '--lang', 'es']);
    expect(es.code).toBe(3);
    const text = es.out.join('\n');
    expect(text).toMatch(
      /DAÑADO .*r1-b2\.jsonl: línea 3 \(\d+ bytes en la posición \d+\) dañada: no es JSON; se perdió el registro de seq 2/,
    );
    expect(es.out.at(-1)).toMatch(
      /^2 registros, \d+ eventos \(recuperado en torno a 1 tramo dañado, 1 registro perdido\), sin terminar$/,
    );
    expect(text).not.toMatch(/DAMAGED|damaged|lost|records/);
    const en = await replay(['replay', file]);
    expect(en.out.join('\n')).toMatch(
      /DAMAGED .*line 3 \(\d+ bytes at offset \d+\) damaged: not JSON; record seq 2 lost/,
    );
  });
});

describe('chessbridge replay SCRIPT --lang', () => {
  it('prints a board script’s events in Spanish; the JSON is the same in every language', async () => {
    const script = 'test/scenarios/basic/s07-touched-own-other-moved.cbs';
    const es = await replay(['replay', script, '--lang', 'es']);
    expect(es.err).toEqual([]);
    expect(es.code).toBe(0);
    expect(es.out).toContain(
      `${script} [E23] #2 @1800 ALERTA touch_move [E23 art. 4.3.1] Blancas tocaron primero el caballo de g1, que podía moverse, pero movieron la pieza de e2.`,
    );
    const en = await replay(['replay', script]);
    expect(en.out.join('\n')).toMatch(/\[E23\] #2 @1800 .*touch/);
    expect(en.out.join('\n')).not.toContain('ALERTA');
    const jsonEs = await replay(['replay', script, '--json', '--lang', 'es']);
    const jsonEn = await replay(['replay', script, '--json']);
    expect(jsonEs.out.length).toBeGreaterThan(2);
    expect(jsonEs.out).toEqual(jsonEn.out);
  });
});
