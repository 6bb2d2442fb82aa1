/**
 * Parsers of perft reference files: both EPD styles, the id/epd/perft block style, the byte
 * quirks of the shared copies (CRLF, NUL), and one typed error per way a line can be bad.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  type PerftFileErrorDetail,
  detectPerftFormat,
  parseBlockPerft,
  parseEpdPerft,
  parsePerftFile,
} from '../../src/engine/epd.js';
import { sharedPath } from '../support/shared.js';

const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

describe('parseEpdPerft', () => {
  it.for([
    ['space before semicolon', `${START} ;D1 20 ;D2 400`],
    ['space after semicolon', `${START}; D1 20; D2 400`],
    ['CRLF and NUL-terminated', `${START}; D1 20; D2 400\0\r\n`],
    ['out of order, trailing semicolon', `${START}; D2 400; D1 20;`],
  ] as const)('reads %s', ([, text]) => {
    expect(parseEpdPerft(text).unwrap()).toEqual([
      {
        id: 'line-1',
        fen: START,
        line: 1,
        counts: [
          { depth: 1, nodes: 20 },
          { depth: 2, nodes: 400 },
        ],
      },
    ]);
  });

  it('skips blank and comment lines and numbers lines from 1', () => {
    const entries = parseEpdPerft(`# header\n\n${START}; D1 20\n\n8/8/8/8/8/8/8/K6k w - -; D1 3\n`).unwrap();
    expect(entries.map(e => [e.id, e.line, e.fen])).toEqual([
      ['line-3', 3, START],
      ['line-5', 5, '8/8/8/8/8/8/8/K6k w - -'],
    ]);
  });

  it('collapses runs of blanks inside the FEN', () => {
    expect(parseEpdPerft('8/8/8/8/8/8/8/K6k w - -  0 1; D4 1').unwrap()[0]?.fen).toBe(
      '8/8/8/8/8/8/8/K6k w - - 0 1',
    );
  });

  it('keeps counts beyond 32 bits exactly', () => {
    expect(parseEpdPerft(`${START}; D7 3195901860`).unwrap()[0]?.counts).toEqual([
      { depth: 7, nodes: 3195901860 },
    ]);
  });
});

describe('parseBlockPerft', () => {
  const text = [
    '# comment',
    'id first',
    'epd 8/8/8/8/8/8/8/K6k w - -',
    'perft 1 3',
    'perft 32 1',
    '',
    'id second',
    'epd 4k3/8/8/8/8/8/8/4K2R w K -',
    'perft 1 15',
    '',
  ].join('\r\n');

  it('reads id/epd/perft blocks, with the id line as the entry line', () => {
    expect(parseBlockPerft(text).unwrap()).toEqual([
      {
        id: 'first',
        fen: '8/8/8/8/8/8/8/K6k w - -',
        line: 2,
        counts: [
          { depth: 1, nodes: 3 },
          { depth: 32, nodes: 1 },
        ],
      },
      { id: 'second', fen: '4k3/8/8/8/8/8/8/4K2R w K -', line: 7, counts: [{ depth: 1, nodes: 15 }] },
    ]);
  });

  it('is chosen by parsePerftFile for block text and not for EPD text', () => {
    expect(detectPerftFormat(text)).toBe('blocks');
    expect(detectPerftFormat(`${START}; D1 20`)).toBe('epd');
    expect(parsePerftFile(text).unwrap()).toHaveLength(2);
  });
});

describe('bad lines are typed errors naming the line', () => {
  const epdCases: [string, string, PerftFileErrorDetail][] = [
    [
      'a malformed count',
      `${START}; D1 20\n${START}; D2 four hundred`,
      { kind: 'badCount', line: 2, text: 'D2 four hundred' },
    ],
    ['depth 0', `${START}; D0 1`, { kind: 'badCount', line: 1, text: 'D0 1' }],
    ['a repeated depth', `${START}; D1 20; D1 20`, { kind: 'duplicateDepth', line: 1, depth: 1 }],
    ['a FEN without counts', START, { kind: 'noCounts', line: 1, id: 'line-1' }],
    [
      'a FEN with too few fields',
      'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w; D1 20',
      {
        kind: 'badFen',
        line: 1,
        fen: 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w',
        reason: 'expected at least 4 fields, got 2',
      },
    ],
    [
      'a bad castling field',
      '4k3/8/8/8/8/8/8/4K2R w X -; D1 1',
      { kind: 'badFen', line: 1, fen: '4k3/8/8/8/8/8/8/4K2R w X -', reason: 'ERR_CASTLING' },
    ],
  ];

  it.for(epdCases)('EPD: %s', ([, text, detail]) => {
    const result = parseEpdPerft(text);
    expect(result.isErr && { ...result.error }).toEqual(detail);
    expect(result.isErr && result.error.message).toMatch(new RegExp(`^line ${detail.line}: `));
  });

  const blockCases: [string, string, PerftFileErrorDetail][] = [
    [
      'an unknown keyword',
      'id a\nepd 8/8/8/8/8/8/8/K6k w - -\nperf 1 3',
      { kind: 'badLine', line: 3, text: 'perf 1 3', reason: 'unknownKeyword' },
    ],
    [
      'perft before any id',
      'perft 1 3\nid a',
      { kind: 'badLine', line: 1, text: 'perft 1 3', reason: 'outsideBlock' },
    ],
    [
      'an empty id',
      'id\nepd 8/8/8/8/8/8/8/K6k w - -',
      { kind: 'badLine', line: 1, text: 'id', reason: 'emptyId' },
    ],
    ['a block without epd', 'id a\nperft 1 3\nid b', { kind: 'missingEpd', line: 1, id: 'a' }],
    [
      'a second epd',
      'id a\nepd 8/8/8/8/8/8/8/K6k w - -\nepd 8/8/8/8/8/8/8/K6k b - -',
      { kind: 'duplicateEpd', line: 3, id: 'a' },
    ],
    ['a block without counts', '\nid a\nepd 8/8/8/8/8/8/8/K6k w - -', { kind: 'noCounts', line: 2, id: 'a' }],
    [
      'a perft line with three numbers',
      'id a\nepd 8/8/8/8/8/8/8/K6k w - -\nperft 1 3 4',
      { kind: 'badCount', line: 3, text: 'perft 1 3 4' },
    ],
  ];

  it.for(blockCases)('blocks: %s', ([, text, detail]) => {
    const result = parseBlockPerft(text);
    expect(result.isErr && { ...result.error }).toEqual(detail);
    expect(result.isErr && result.error.message).toMatch(new RegExp(`^line ${detail.line}: `));
  });
});

describe('the shared reference files', () => {
  it.for([
    ['perftsuite.epd', 126, 755],
    ['perft-stress.epd', 174, 814],
    ['perft-random-marcel.epd', 6838, 41028],
    ['perft-double-check-ferdy.epd', 184, 184],
    ['tricky.perft', 18, 91],
  ] as const)('%s parses to %i positions and %i counts', ([file, positions, counts]) => {
    const entries = parsePerftFile(readFileSync(sharedPath(`data/perft/${file}`), 'utf8')).unwrap();
    expect(entries).toHaveLength(positions);
    expect(entries.reduce((n, e) => n + e.counts.length, 0)).toBe(counts);
  });
});
