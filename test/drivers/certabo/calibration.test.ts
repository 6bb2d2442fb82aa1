/**
 * Certabo calibration (reference §2.6, errata 2 and 13): learning from start-position scans with
 * noise, spare queens, storing and reloading, the "add piece" pass, every error, and how the
 * decoder uses a calibration (unknown tags are empty and reported, 3-frame vote, newest wins).
 */
import { parseSquare } from 'chessops';
import { describe, expect, it } from 'vitest';
import {
  extendCalibration,
  makeCalibration,
  makeCalibrationJson,
  parseCalibration,
  type Calibration,
  type RfidScan,
} from '../../../src/drivers/certabo/calibration.js';
import { CertaboDecoder, voteSquares } from '../../../src/drivers/certabo/codec.js';
import { CertaboEmulator } from '../../../src/drivers/certabo/emulator.js';
import { makePiece, START_SQUARES, EMPTY, type SquareContent } from '../../../src/drivers/observation.js';

const sq = (name: string): number => parseSquare(name)!;
const WHITE_QUEEN = makePiece('white', 'queen');
const BLACK_QUEEN = makePiece('black', 'queen');

/** Raw scans of an emulated board, read back through the decoder. */
const scansOf = (board: CertaboEmulator, n: number): RfidScan[] => {
  const d = new CertaboDecoder();
  return Array.from({ length: n }, (_, i) => d.push(board.frame(), i))
    .flat()
    .flatMap(o => (o.type === 'rfid-scan' ? [o.tags] : []));
};

const withSpares = START_SQUARES.map((c, i) =>
  i === sq('d6') ? BLACK_QUEEN : i === sq('d3') ? WHITE_QUEEN : c,
);

describe('learning (§2.6)', () => {
  it('learns the 32 start pieces from 7 noisy scans (6 random ids on empty squares per frame, §2.4)', () => {
    const board = new CertaboEmulator({ noise: { seed: 11, squares: 6 } });
    const learned = makeCalibration(scansOf(board, 7)).unwrap();
    expect(Object.keys(learned.calibration.pieces)).toHaveLength(32);
    expect(learned.spares).toEqual([]);
    for (let i = 0; i < 64; i++) {
      const tag = board.tagAt(i);
      if (tag !== null) expect(learned.calibration.pieces[tag]).toBe(board.calibration.pieces[tag]);
    }
  });

  it('learns the spare queens on d6 and d3 when they stand there (Certabo 4.x, picochess)', () => {
    const board = new CertaboEmulator({ squares: withSpares, noise: { seed: 3, squares: 8 } });
    const learned = makeCalibration(scansOf(board, 15)).unwrap();
    expect(learned.spares).toEqual(['d6', 'd3']);
    expect(learned.calibration.pieces[board.tagAt(sq('d6')) ?? '']).toBe('q');
    expect(learned.calibration.pieces[board.tagAt(sq('d3')) ?? '']).toBe('Q');
    // haklein's way (errata 13): spare squares are not looked at.
    expect(makeCalibration(scansOf(board, 7), { spareQueens: 'ignore' }).unwrap().spares).toEqual([]);
  });

  it('fails with "require" when the spare queens are missing', () => {
    const r = makeCalibration(scansOf(new CertaboEmulator(), 7), { spareQueens: 'require' });
    expect(r.isErr && r.error).toMatchObject({ kind: 'empty-square', square: 'd6' });
  });

  it.each<[string, () => RfidScan[], object]>([
    [
      'too few samples',
      () => scansOf(new CertaboEmulator(), 6),
      { kind: 'too-few-samples', needed: 7, got: 6 },
    ],
    [
      'a scan of the wrong size',
      () => [...scansOf(new CertaboEmulator(), 7), new Array<null>(63).fill(null)],
      { kind: 'bad-sample', index: 7, length: 63 },
    ],
    [
      'a missing piece',
      () =>
        scansOf(
          new CertaboEmulator({ squares: START_SQUARES.map((c, i) => (i === sq('g1') ? EMPTY : c)) }),
          7,
        ),
      { kind: 'empty-square', square: 'g1' },
    ],
    [
      'no majority on a square',
      () => {
        const scans = scansOf(new CertaboEmulator(), 8);
        return scans.map((s, i) => s.map((t, j) => (j === sq('e2') && i % 2 === 0 ? `AAAAAAAA0${i}` : t)));
      },
      { kind: 'no-majority', square: 'e2', best: 4, samples: 8 },
    ],
    [
      'one tag on two squares',
      () =>
        scansOf(new CertaboEmulator(), 7).map(s =>
          s.map((t, j) => (j === sq('b2') ? (s[sq('a2')] ?? null) : t)),
        ),
      { kind: 'duplicate-tag', squares: ['a2', 'b2'] },
    ],
  ])('reports %s', (_name, scans, problem) => {
    const r = makeCalibration(scans());
    expect(r.isErr).toBe(true);
    expect(r.isErr && r.error).toMatchObject(problem);
    expect(r.isErr && r.error).toBeInstanceOf(Error);
  });
});

describe('storing and reloading', () => {
  const calibration = makeCalibration(scansOf(new CertaboEmulator(), 7)).unwrap().calibration;

  it('reloads what it stored, as text and as a parsed value', () => {
    const text = makeCalibrationJson(calibration);
    expect(parseCalibration(text).unwrap()).toEqual(calibration);
    expect(parseCalibration(JSON.parse(text)).unwrap()).toEqual(calibration);
    expect(makeCalibrationJson(parseCalibration(text).unwrap())).toBe(text);
  });

  it.each<[string, unknown, object]>([
    ['text that is not JSON', '{"version":1,', { kind: 'bad-json' }],
    ['an array', [], { kind: 'bad-value', path: '' }],
    ['another version', { version: 2, pieces: {} }, { kind: 'bad-version', found: '2' }],
    ['no pieces object', { version: 1 }, { kind: 'bad-value', path: 'pieces' }],
    [
      'a lower-case tag',
      { version: 1, pieces: { '3000f84763': 'r' } },
      { kind: 'bad-value', path: 'pieces.3000f84763' },
    ],
    [
      'a bad piece letter',
      { version: 1, pieces: { '3000F84763': 'x' } },
      { kind: 'bad-value', path: 'pieces.3000F84763' },
    ],
    ['a set without kings', { version: 1, pieces: { '3000F84763': 'r' } }, { kind: 'incomplete' }],
  ])('rejects %s, naming the problem', (_name, value, problem) => {
    const r = parseCalibration(value);
    expect(r.isErr && r.error).toMatchObject(problem);
  });

  it('names the missing pieces', () => {
    const pieces = Object.fromEntries(
      Object.entries(calibration.pieces).filter(([, l]) => l !== 'K' && l !== 'n'),
    );
    const r = parseCalibration({ version: 1, pieces });
    expect(r.isErr && r.error).toMatchObject({ kind: 'incomplete', missing: ['K', 'n'] });
  });
});

describe('adding pieces (§2.6 step 6)', () => {
  it('adds a second set of queens and reports a tag already known as another piece', () => {
    const board = new CertaboEmulator({ squares: withSpares });
    const base = makeCalibration(scansOf(board, 7), { spareQueens: 'ignore' }).unwrap().calibration;
    const added = extendCalibration(base, scansOf(board, 7), { d6: 'q', d3: 'Q' }).unwrap();
    expect(added.added).toHaveLength(2);
    expect(added.calibration.pieces[board.tagAt(sq('d3')) ?? '']).toBe('Q');
    const again = extendCalibration(added.calibration, scansOf(board, 7), { d6: 'q' }).unwrap();
    expect(again.added).toEqual([]);
    const conflict = extendCalibration(added.calibration, scansOf(board, 7), { d6: 'Q' });
    expect(conflict.isErr && conflict.error).toMatchObject({
      kind: 'conflict',
      square: 'd6',
      existing: 'q',
      wanted: 'Q',
    });
  });
});

describe('decoding with a calibration (errata 2)', () => {
  const board = new CertaboEmulator({ noise: { seed: 5, squares: 10 } });
  const calibration: Calibration = makeCalibration(scansOf(board, 7)).unwrap().calibration;

  it('counts unknown ids as empty and reports them, once per change', () => {
    const d = new CertaboDecoder({ calibration, voteFrames: 1 });
    const out = d.push(board.frame(), 0);
    expect(out.map(o => o.type)).toEqual(['rfid-unknown', 'snapshot']);
    const [unknown, snapshot] = out;
    expect(unknown?.type === 'rfid-unknown' && unknown.tags).toHaveLength(10);
    expect(snapshot).toEqual({ type: 'snapshot', at: 0, squares: START_SQUARES });
    const quiet = new CertaboDecoder({ calibration: board.calibration, voteFrames: 1 });
    const clean = new CertaboEmulator();
    expect(quiet.push(clean.frame(), 0).map(o => o.type)).toEqual(['snapshot']);
    expect(quiet.push(clean.frame(), 1).map(o => o.type)).toEqual(['snapshot']);
  });

  it('votes over the last 3 frames, the newest frame winning a tie', () => {
    const k = makePiece('white', 'king');
    const q = makePiece('white', 'queen');
    const frames: SquareContent[][] = [[k], [q], [EMPTY]].map(first => [...first, ...START_SQUARES.slice(1)]);
    expect(voteSquares(frames)[0]).toEqual(EMPTY); // three different readings: the newest
    expect(voteSquares([frames[0]!, frames[1]!, frames[0]!])[0]).toEqual(k); // 2 of 3
    expect(voteSquares([frames[1]!, frames[0]!])[0]).toEqual(k); // a tie of 1 to 1: the newest
  });

  it('hides a one-frame misread with the default vote', () => {
    const d = new CertaboDecoder({ calibration: board.calibration });
    const clean = new CertaboEmulator();
    d.push(clean.frame(), 0);
    d.push(clean.frame(), 1);
    const misread = new CertaboEmulator({
      squares: START_SQUARES.map((c, i) => (i === sq('e2') ? EMPTY : c)),
    });
    const [snap] = d.push(misread.frame(), 2);
    expect(snap).toEqual({ type: 'snapshot', at: 2, squares: START_SQUARES });
  });
});
