/**
 * The public contract (docs/wire.md): every game event the serializer writes conforms to the
 * wire's schema, a misspelt or missing field is named, and the published schema document and the
 * field tables of docs/wire.md are the ones the code makes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../../../src/bridge/cli/cli.js';
import { makeWireDocTables, WIRE_DOC_BEGIN, WIRE_DOC_END } from '../../../src/bridge/wire/docTables.js';
import { makeWireSchemaDocument } from '../../../src/bridge/wire/document.js';
import { makeAlertMessage, makeEventMessage } from '../../../src/bridge/wire/events.js';
import { REQUEST_ACTIONS, REQUEST_SCHEMAS } from '../../../src/bridge/wire/requestSchema.js';
import { checkWire, EVENT_TYPES, WIRE_SCHEMAS } from '../../../src/bridge/wire/schema.js';
import { endReason, wireWord } from '../../../src/bridge/wire/words.js';
import { ALERT_CODES, type GameEvent } from '../../../src/engine/events.js';
import { DECISIVE_KINDS, DRAWN_KINDS } from '../../../src/engine/outcome.js';

const ROOT = join(import.meta.dirname, '../../..');
const art = { edition: 'E23', article: '7.5.1' } as const;
const env = { game: 'r1-b1', at: 1_700_000_000_000.25 };
const move = {
  ply: 3,
  san: 'Nf3',
  uci: 'g1f3',
  fen: 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2',
};

/** One engine event of every type the supervisor publishes, with every optional part filled. */
const EVERY_EVENT: GameEvent[] = [
  {
    ...env,
    seq: 1,
    type: 'move',
    ...move,
    clocks: { whiteMs: 899_000.4, blackMs: 900_000 },
    elapsedMs: 3_210.7,
  },
  { ...env, seq: 2, type: 'move', ...move },
  { ...env, seq: 3, type: 'correction', fromPly: 3, moves: [move], reason: 'illegal-move' },
  { ...env, seq: 4, type: 'correction', fromPly: 3, moves: [], reason: 'arbiter' },
  { ...env, seq: 5, type: 'clock', whiteMs: 1000.5, blackMs: 2000, running: 'white' },
  { ...env, seq: 6, type: 'clock', whiteMs: 1000, blackMs: 2000, running: undefined },
  {
    ...env,
    seq: 7,
    type: 'alert',
    code: 'board-mismatch',
    article: art,
    color: 'black',
    grade: 'proven',
    ply: 3,
    claimed: true,
    detail: 'Two orders reach the board.',
    text: [
      {
        key: 'board.orders',
        params: {
          count: 2,
          ply: 2,
          orders: [
            ['e4', 'e5'],
            ['e3', 'e6'],
          ],
        },
      },
    ],
    evidence: {
      events: [],
      fenBefore: move.fen,
      boardFen: '8/8/8/8/8/8/8/8',
      squares: ['e4', 'e5'],
      move: 'e2e4',
      orders: [
        ['e4', 'e5'],
        ['e3', 'e6'],
      ],
      ordersAfterPly: 2,
    },
  },
  {
    ...env,
    seq: 8,
    type: 'alert',
    code: 'board-missing',
    article: art,
    detail: 'The link is lost.',
    text: [],
  },
  { ...env, seq: 9, type: 'alert-withdrawn', alert: 7, code: 'board-mismatch', reason: 'resolved' },
  {
    ...env,
    seq: 10,
    type: 'finding',
    ply: 3,
    code: 'release',
    article: art,
    color: 'white',
    grade: 'possible',
    breach: true,
    detail: 'Rested on f3.',
    text: [{ key: 'release.moved_on', params: { from: 'g1', to: 'f3' } }],
    evidence: { events: [], fenBefore: move.fen, move: 'g1f3' },
  },
  {
    ...env,
    seq: 11,
    type: 'claim',
    by: 'white',
    claim: 'fiftyMoves',
    status: 'pending',
    article: art,
    detail: 'd',
  },
  { ...env, seq: 12, type: 'claim', by: 'black', claim: 'threefold', status: 'valid', article: art },
  { ...env, seq: 13, type: 'offer', by: 'white', status: 'made', article: art },
  { ...env, seq: 14, type: 'offer', by: 'black', status: 'declined' },
  { ...env, seq: 15, type: 'end', result: '1-0', reason: 'seventyFiveMoves', winner: 'white', article: art },
  {
    ...env,
    seq: 16,
    type: 'end',
    result: '0-1',
    reason: 'a player left the hall',
    winner: 'black',
    article: art,
  },
];

describe('the wire schema', () => {
  it('takes every event the serializer writes, of every type', () => {
    const types = new Set<string>();
    for (const e of EVERY_EVENT) {
      const msg = makeEventMessage(e);
      types.add(msg.type);
      expect(checkWire('event', msg), `${e.type} ${e.seq}`).toEqual([]);
      const alert = makeAlertMessage(e, { board: 'dgt-1', ply: 3 });
      if (alert) expect(checkWire('alert', alert), `alert for ${e.type} ${e.seq}`).toEqual([]);
    }
    expect([...types].sort()).toEqual([...EVENT_TYPES].sort());
  });

  it('names a misspelt, a missing, a mistyped and an unknown field', () => {
    const msg = makeEventMessage(EVERY_EVENT[0] as GameEvent) as unknown as Record<string, unknown>;
    const { san, ...rest } = msg;
    expect(checkWire('event', { ...rest, sna: san })).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/sna: Unexpected property/),
        expect.stringMatching(/^\/san: Expected required property/),
      ]),
    );
    expect(checkWire('event', { ...msg, clocks: { ...(msg.clocks as object), white_ms: 'x' } })).toEqual(
      expect.arrayContaining([expect.stringMatching(/^\/clocks\/white_ms: /)]),
    );
    expect(checkWire('event', { ...msg, type: 'restore' })).toEqual(['/type: unknown event type "restore"']);
    expect(checkWire('event', { ...msg, whiteMs: 1 })).toEqual([
      expect.stringMatching(/^\/whiteMs: Unexpected property/),
    ]);
  });

  it('spells every engine name one way: snake_case, by one rule', () => {
    expect(ALERT_CODES.map(wireWord)).toContain('board_mismatch');
    expect(wireWord('seventyFiveMoves')).toBe('seventy_five_moves');
    for (const kind of [...DECISIVE_KINDS, ...DRAWN_KINDS, 'bothLose'] as const) {
      const r = endReason(kind);
      expect(r.reason).toMatch(/^[a-z0-9_]+$/);
      expect(endReason(r.reason)).toEqual(r);
    }
    expect(endReason('illegalMoves').termination).toBe('rules infraction');
    expect(endReason('flag').termination).toBe('time forfeit');
  });

  it('is published as one JSON Schema document: `chessbridge schema` and docs/schema/wire.schema.json', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      readFile: () => Promise.reject(new Error('no files')),
      out: l => out.push(l),
      err: l => err.push(l),
      decode: b => new TextDecoder().decode(b),
      examples: [],
    };
    expect(await runCli(['schema'], io)).toBe(0);
    const printed = JSON.parse(out.join('\n')) as Record<string, unknown>;
    expect(printed).toEqual(makeWireSchemaDocument());
    const file = JSON.parse(readFileSync(join(ROOT, 'docs/schema/wire.schema.json'), 'utf8')) as unknown;
    expect(file, 'docs/schema/wire.schema.json is out of date: run npx tsx scripts/wireDoc.ts').toEqual(
      printed,
    );
    out.length = 0;
    expect(await runCli(['schema', 'event'], io)).toBe(0);
    expect(JSON.parse(out.join('\n'))).toEqual((printed.$defs as Record<string, unknown>).event);
    expect(await runCli(['schema', 'events'], io)).toBe(2);
    expect(err[0]).toMatch(/no document "events" on the wire \(event, game, alert/);
  });

  it('is what docs/wire.md lists, field by field', () => {
    const doc = readFileSync(join(ROOT, 'docs/wire.md'), 'utf8');
    const begin = doc.indexOf(WIRE_DOC_BEGIN);
    const end = doc.indexOf(WIRE_DOC_END);
    expect(begin, 'docs/wire.md has the generated section').toBeGreaterThan(0);
    expect(
      doc.slice(begin, end + WIRE_DOC_END.length),
      'docs/wire.md is out of date: run npx tsx scripts/wireDoc.ts',
    ).toBe(makeWireDocTables());
  });

  it('takes the examples docs/journal.md shows of a game file, line by line', () => {
    const doc = readFileSync(join(ROOT, 'docs/journal.md'), 'utf8');
    const lines = [...doc.matchAll(/```json\n([\s\S]*?)```/g)]
      .flatMap(m => (m[1] ?? '').split('\n'))
      .filter(l => l.startsWith('{"type":"header"') || l.startsWith('{"seq":'));
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) {
      const value = JSON.parse(line) as { type: string };
      expect(checkWire(value.type === 'header' ? 'journal_header' : 'journal_record', value), line).toEqual(
        [],
      );
    }
  });

  it('holds every request action, the fields docs/mqtt.md lists for it, and names what a request gets wrong', () => {
    const doc = readFileSync(join(ROOT, 'docs/mqtt.md'), 'utf8');
    const rows = new Map(
      [...doc.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)].map(m => [
        m[1],
        [...(m[2] ?? '').matchAll(/`([a-z_]+)\??`/g)].map(f => f[1]),
      ]),
    );
    for (const action of REQUEST_ACTIONS) {
      const name = `request_${action}` as keyof typeof WIRE_SCHEMAS;
      expect(WIRE_SCHEMAS[name], name).toBe(REQUEST_SCHEMAS[action]);
      const fields = Object.keys(REQUEST_SCHEMAS[action].properties).filter(f => f !== 'transaction');
      expect(rows.get(action), `docs/mqtt.md's row of ${action}`).toEqual(expect.arrayContaining(fields));
      const documented = makeWireSchemaDocument().$defs as Record<string, { $comment: string }>;
      expect(documented[name]?.$comment).toContain(`bridge/request/${action}`);
    }
    expect(checkWire('request_set_result', { game_id: 'r1-b1', result: '1-0' })).toEqual([]);
    const misspelt = checkWire('request_set_result', { game_id: 'r1-b1', reslt: '1-0' });
    expect(misspelt).toContain('/reslt: Unexpected property, got "1-0"');
    expect(misspelt).toContain('/result: Expected required property, got undefined');
    expect(checkWire('request_restore_position', { game_id: 'r1-b1', ply: -1 })[0]).toMatch(/^\/ply: /);
  });
});
