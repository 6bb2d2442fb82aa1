/**
 * Millennium replies (board → host, reference §1.3–§1.4) as values, in the board's own frame:
 * `parseReply` reads the text of one frame the framer accepted; `makeReply` writes one with its
 * checksum (the emulator's side, and round-trip tests).
 *
 *   parseReply('v010374'); // ok: { kind: 'version', major: 1, minor: 3 }
 *   makeReply({ kind: 'leds-ack' }); // "l6C"
 *   makeWire(makeReply({ kind: 'version', major: 1, minor: 3 })); // 76 B0 31 B0 B3 37 34
 */
import { Result } from '@badrap/result';
import { ProtocolError } from '../observation.js';
import {
  IDENTIFY_REPLY,
  makeHexByte,
  makeMessageText,
  parseHexField,
  PIECE_LETTERS,
  REPLY_LENGTH,
} from './protocol.js';

export type MillenniumReply =
  /** 64 piece letters in the order sent (orientation is applied later). */
  | { readonly kind: 'status'; readonly board: string }
  | { readonly kind: 'version'; readonly major: number; readonly minor: number }
  | { readonly kind: 'leds-ack' }
  | { readonly kind: 'leds-off-ack' }
  | { readonly kind: 'register-written'; readonly address: number; readonly value: number }
  | { readonly kind: 'register'; readonly address: number; readonly value: number }
  /** The reply to `I00` (UNVERIFIED): the hex text before the line feed, e.g. "FF". */
  | { readonly kind: 'identify'; readonly text: string };

const LETTER: Readonly<Record<MillenniumReply['kind'], string>> = {
  status: 's',
  version: 'v',
  'leds-ack': 'l',
  'leds-off-ack': 'x',
  'register-written': 'w',
  register: 'r',
  identify: IDENTIFY_REPLY,
};

const badField = (field: string, value: number): Result<MillenniumReply, ProtocolError> =>
  Result.err(new ProtocolError({ kind: 'bad-field', field, value }));

/**
 * Parses the text of one frame (checksum included, already verified by the framer). Checks the
 * length and fields again, so it is safe on any string.
 */
export const parseReply = (text: string): Result<MillenniumReply, ProtocolError> => {
  const letter = text[0] ?? '';
  const id = text.charCodeAt(0);
  if (letter === IDENTIFY_REPLY) {
    const lf = text.indexOf('\n');
    if (lf < 1 || text.length !== lf + 3)
      return Result.err(
        new ProtocolError({ kind: 'bad-length', id, declared: text.length, expected: 'i…LF + 2' }),
      );
    return Result.ok({ kind: 'identify', text: text.slice(1, lf) });
  }
  const expected = REPLY_LENGTH[letter];
  if (expected === undefined) return Result.err(new ProtocolError({ kind: 'unknown-message', id }));
  if (text.length !== expected)
    return Result.err(
      new ProtocolError({ kind: 'bad-length', id, declared: text.length, expected: String(expected) }),
    );
  switch (letter) {
    case 's': {
      const board = text.slice(1, 65);
      const bad = Array.from(board).find(c => !PIECE_LETTERS.includes(c));
      return bad === undefined ? Result.ok({ kind: 'status', board }) : badField('piece', bad.charCodeAt(0));
    }
    case 'l':
      return Result.ok({ kind: 'leds-ack' });
    case 'x':
      return Result.ok({ kind: 'leds-off-ack' });
    default: {
      const hi = parseHexField(text, 1, 2);
      const lo = parseHexField(text, 3, 2);
      if (hi === undefined || lo === undefined) return badField('hex', text.charCodeAt(1));
      if (letter === 'v') return Result.ok({ kind: 'version', major: hi, minor: lo });
      return Result.ok({ kind: letter === 'w' ? 'register-written' : 'register', address: hi, value: lo });
    }
  }
};

/** The text of a reply with its checksum. */
export const makeReply = (r: MillenniumReply): string => {
  const letter = LETTER[r.kind];
  switch (r.kind) {
    case 'status':
      if (r.board.length !== 64)
        throw new TypeError(`status board must have 64 letters, got ${r.board.length}`);
      return makeMessageText(letter + r.board);
    case 'version':
      return makeMessageText(letter + makeHexByte(r.major) + makeHexByte(r.minor));
    case 'leds-ack':
    case 'leds-off-ack':
      return makeMessageText(letter);
    case 'register-written':
    case 'register':
      return makeMessageText(letter + makeHexByte(r.address) + makeHexByte(r.value));
    case 'identify':
      // Chesstimation answers "iFF" + LF with the checksum after the LF; we count the LF in it.
      return makeMessageText(`${letter}${r.text}\n`);
  }
};
