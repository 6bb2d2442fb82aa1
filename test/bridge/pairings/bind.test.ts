import { describe, expect, it } from 'vitest';
import { bindPairings } from '../../../src/bridge/pairings/bind.js';
import { parseCsvPairings } from '../../../src/bridge/pairings/csv.js';

const PAIRINGS = parseCsvPairings(
  [
    'round,board,white,black,board_serial',
    '1,1,"A, A","B, B",',
    '1,2,"C, C","D, D",S-7',
    '1,3,"E, E","F, F",',
    '1,4,"G, G","H, H",S-9',
    '2,1,"B, B","C, C",',
  ].join('\n'),
).unwrap();

describe('bindPairings', () => {
  it('binds by serial first, by board number otherwise, and reports what is left over', () => {
    const boards = [
      { id: 'usb0', number: 1, serial: 's-7' }, // serial matches board 2's pairing, whatever its number
      { id: 'usb1', number: 3 },
      { id: 'usb2', number: 2, serial: '11' },
      { id: 'usb3', number: 5 },
    ];
    const { bindings, problems } = bindPairings(PAIRINGS, 1, boards);
    expect(bindings.map(b => [b.pairing.board, b.board.id, b.by])).toEqual([
      [2, 'usb0', 'serial'],
      [3, 'usb1', 'number'],
    ]);
    expect(
      problems.map(p =>
        p.kind === 'idleBoard'
          ? [p.kind, p.board.id]
          : p.kind === 'unboundPairing'
            ? [p.kind, p.pairing.board, p.reason]
            : [p.kind],
      ),
    ).toEqual([
      ['unboundPairing', 4, 'no connected board reports serial S-9'],
      ['unboundPairing', 1, 'board usb0 (number 1) is bound by serial to board 2'],
      ['idleBoard', 'usb2'],
      ['idleBoard', 'usb3'],
    ]);
  });

  it('binds only the asked round and reports two boards with the same serial or number', () => {
    const boards = [
      { id: 'a', number: 1, serial: 'X' },
      { id: 'b', number: 1, serial: 'x ' },
    ];
    const { bindings, problems } = bindPairings(PAIRINGS, 2, boards);
    expect(bindings.map(b => [b.pairing.round, b.pairing.board, b.board.id])).toEqual([[2, 1, 'a']]);
    expect(
      problems.flatMap(p => (p.kind === 'duplicateBoard' ? [[p.board.id, p.other.id, p.field]] : [])),
    ).toEqual([
      ['b', 'a', 'serial'],
      ['b', 'a', 'number'],
    ]);
  });
});
