/**
 * Board scripts from game moves: the lift/place habits of reference §5.5 for quiet moves,
 * captures (direct replacement), castling (king first), en passant (captured pawn last) and
 * promotion; the final position equals the one chessops reaches.
 */
import { Chess, parseSquare } from 'chessops';
import { makeFen } from 'chessops/fen';
import { parseSan } from 'chessops/san';
import { describe, expect, it } from 'vitest';
import { scriptFromSans, squaresOf } from '../../../src/drivers/dgt/emulatorScript.js';

const sq = (n: string): number => parseSquare(n)!;
const squareSteps = (sans: string[]) =>
  scriptFromSans(sans)
    .unwrap()
    .steps.filter(s => s.kind === 'square')
    .map(s => `${String(s.square)}=${s.piece}`);

describe('scriptFromSans', () => {
  it('a quiet move is a lift then a place', () => {
    expect(squareSteps(['e4'])).toEqual([`${sq('e2')}=empty`, `${sq('e4')}=P`]);
  });

  it('a capture replaces the captured piece directly (25 of 35 captures in §5.5)', () => {
    expect(squareSteps(['e4', 'd5', 'exd5']).slice(-2)).toEqual([`${sq('e4')}=empty`, `${sq('d5')}=P`]);
  });

  it('castling: king lift, king place, rook lift, rook place (all six castlings in §5.5)', () => {
    const steps = squareSteps(['e4', 'e5', 'Nf3', 'Nc6', 'Bc4', 'Bc5', 'O-O']).slice(-4);
    expect(steps).toEqual([`${sq('e1')}=empty`, `${sq('g1')}=K`, `${sq('h1')}=empty`, `${sq('f1')}=R`]);
  });

  it('queenside castling puts the king on c8 and the rook on d8', () => {
    const sans = ['d4', 'd5', 'c4', 'Nc6', 'Nc3', 'Bf5', 'e3', 'Qd7', 'a3', 'O-O-O'];
    expect(squareSteps(sans).slice(-4)).toEqual([
      `${sq('e8')}=empty`,
      `${sq('c8')}=k`,
      `${sq('a8')}=empty`,
      `${sq('d8')}=r`,
    ]);
  });

  it('en passant: capturing pawn lifted and placed, the captured pawn removed last', () => {
    const steps = squareSteps(['e4', 'a6', 'e5', 'd5', 'exd6']).slice(-3);
    expect(steps).toEqual([`${sq('e5')}=empty`, `${sq('d6')}=P`, `${sq('d5')}=empty`]);
  });

  it('promotion places the new piece', () => {
    const sans = ['h4', 'g5', 'hxg5', 'h6', 'gxh6', 'Nf6', 'h7', 'Ng8', 'hxg8=Q'];
    expect(squareSteps(sans).slice(-2)).toEqual([`${sq('h7')}=empty`, `${sq('g8')}=Q`]);
  });

  it('ends in the position chessops reaches, with clock presses by the mover’s side', () => {
    const sans = ['e4', 'c5', 'Nf3', 'd6', 'd4', 'cxd4', 'Nxd4', 'Nf6', 'Nc3', 'a6'];
    const script = scriptFromSans(sans, { pressAfterMs: 50, whiteSide: 'right' }).unwrap();
    const pos = Chess.default();
    for (const san of sans) pos.play(parseSan(pos, san)!);
    expect(script.final).toEqual(squaresOf(pos));
    expect(makeFen(pos.toSetup())).toContain('rnbqkb1r/1p2pppp/p2p1n2');
    const presses = script.steps.filter(s => s.kind === 'clock-press').map(s => s.side);
    expect(presses).toEqual([
      'right',
      'left',
      'right',
      'left',
      'right',
      'left',
      'right',
      'left',
      'right',
      'left',
    ]);
    const times = script.steps.map(s => s.at);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(script.endsAt).toBe(times.at(-1));
  });

  it('an illegal move is an error naming the ply', () => {
    const r = scriptFromSans(['e4', 'e4']);
    expect(r.isErr && r.error.message).toBe('ply 2: "e4" is not a legal move here');
  });
});
