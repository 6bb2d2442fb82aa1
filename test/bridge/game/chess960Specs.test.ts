/**
 * A Chess960 game through its journal header: the settings a restart or `chessbridge replay`
 * reads back start the supervisor in Chess960, and the view's PGN carries Variant and FEN before
 * the first move (what the live PGN, the export and the push are made of).
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/bridge/config/load.js';
import { engineSettingsOf, gameInfoOf, journalSettingsOf } from '../../../src/bridge/game/gameSpecs.js';
import { foldView, makeGamePgn, makeSnapshot, startView } from '../../../src/bridge/game/gameView.js';
import { parseHeader } from '../../../src/bridge/journal/format.js';
import { chess960Fen } from '../../../src/engine/chess960.js';
import { runSupervision, startSupervision } from '../../../src/engine/supervisor/index.js';

const START = chess960Fen(97) ?? '';

describe('a Chess960 game from its journal header', () => {
  it('replays in Chess960 and writes Variant, SetUp and FEN before the first move', () => {
    const config = parseConfig('tournament: { name: Fischer Random Open }').unwrap();
    const settings = journalSettingsOf(config.laws, undefined, { startFen: START, chess960: true });
    const header = parseHeader(
      JSON.parse(
        JSON.stringify({
          type: 'header',
          format: 1,
          seq: 0,
          game: 'r1-b1',
          board: 'b-1',
          createdAt: '2026-01-01T00:00:00.000Z',
          settings,
        }),
      ),
    ).unwrap();
    expect(header.settings.chess960).toBe(true);
    const { state } = startSupervision(engineSettingsOf('r1-b1', header.settings));
    // Ne3 (f1-e3), then the rook alone castles over the king: h1 to f1 after Ne6.
    const run = runSupervision(state, [
      { kind: 'square', at: 0, square: 5, piece: 'empty' },
      { kind: 'square', at: 300, square: 20, piece: { color: 'white', role: 'knight' } },
      { kind: 'press', at: 900, side: 'white' },
      { kind: 'square', at: 1500, square: 61, piece: 'empty' },
      { kind: 'square', at: 1800, square: 44, piece: { color: 'black', role: 'knight' } },
      { kind: 'press', at: 2400, side: 'black' },
      { kind: 'square', at: 3000, square: 7, piece: 'empty' },
      { kind: 'square', at: 3400, square: 5, piece: { color: 'white', role: 'rook' } },
      { kind: 'press', at: 4000, side: 'white' },
      { kind: 'tick', at: 9000 },
    ]);
    expect(run.state.rec.game.moves.map(m => m.san)).toEqual(['Ne3', 'Ne6', 'O-O']);
    const view = run.events.reduce(foldView, startView(gameInfoOf(header, 'b-1', config)));
    expect(makeSnapshot(view)).toMatchObject({ variant: 'chess960', start_fen: START });
    const pgn = makeGamePgn(view);
    const first = pgn.indexOf('1. Ne3');
    expect(first).toBeGreaterThan(0);
    for (const tag of ['[Variant "Chess960"]', '[SetUp "1"]', `[FEN "${START}"]`])
      expect(pgn.slice(0, first), tag).toContain(tag);
    expect(pgn).toContain('2. O-O');
  });
});
