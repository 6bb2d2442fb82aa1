/**
 * What the Millennium, Certabo and Chessnut drivers need beyond the shared vocabulary of
 * observation.ts: observations for command acknowledgements, E2ROM registers, raw RFID scans
 * (Certabo calibration), unknown RFID tags and vendor messages; the LED request every LED encoder
 * takes; the square event every emulator applies; and small helpers for protocol errors, error
 * values and square tables built with chessops transforms.
 *
 *   const leds: LedGroup[] = [{ squares: SquareSet.fromSquare(12), style: 'blink' }];
 *   for (const o of decoder.push(chunk, now)) if (o.type === 'command-ack') ledsConfirmed(o.command);
 *   const err = makeProblem('tag on two squares', { kind: 'duplicate-tag', tag: '3000F84763' });
 */
import type { Color, Role, Square } from 'chessops';
import { charToRole, SquareSet } from 'chessops';
import {
  makeHex,
  makePiece,
  type Observation,
  type ProtocolErrorObservation,
  type ProtocolErrorReason,
  type SquareContent,
} from './observation.js';

// ---------------------------------------------------------------------------------------------
// Inputs shared by the encoders and emulators

/** One square changed on the physical board (what an emulator applies), in the game's frame. */
export interface SquareEvent {
  readonly square: Square;
  readonly content: SquareContent;
}

/**
 * How a group of squares is lit. Boards without hardware blinking (Certabo, Chessnut) light every
 * style steadily; the host blinks them by re-sending. `blink` and `blink-inverse` run in opposite
 * phase, so two neighbouring groups stay apart on boards whose squares share corner LEDs.
 */
export type LedStyle = 'steady' | 'blink' | 'blink-inverse';

export const LED_STYLES: readonly LedStyle[] = ['steady', 'blink', 'blink-inverse'];

/** Squares to light, in the game's frame (the encoder applies the board's orientation). */
export interface LedGroup {
  readonly squares: SquareSet;
  readonly style: LedStyle;
}

/** Every square some group lights. */
export const ledSquares = (groups: readonly LedGroup[]): SquareSet =>
  groups.reduce((acc, g) => acc.union(g.squares), SquareSet.empty());

// ---------------------------------------------------------------------------------------------
// Observations

/** The board confirmed a command. `command` names it, or is 'unknown' when the reply does not say. */
export interface CommandAckObservation {
  readonly type: 'command-ack';
  readonly at: number;
  readonly command: string;
  /** False when the board answered "not ready" or similar. */
  readonly ok: boolean;
}

/** A board register (Millennium E2ROM) as read back or confirmed after a write. */
export interface RegisterObservation {
  readonly type: 'register';
  readonly at: number;
  readonly address: number;
  readonly value: number;
  /** True for the acknowledgement of a write, false for a read. */
  readonly written: boolean;
}

/**
 * One RFID scan (Certabo): the tag seen on every square, index = chessops square with the
 * orientation applied, `null` where the square reads all zeros. Raw: no calibration, no vote.
 */
export interface RfidScanObservation {
  readonly type: 'rfid-scan';
  readonly at: number;
  readonly tags: readonly (string | null)[];
}

/** Tags the calibration does not know, counted as empty squares (reported, never flagged). */
export interface RfidUnknownObservation {
  readonly type: 'rfid-unknown';
  readonly at: number;
  readonly tags: readonly { readonly square: Square; readonly tag: string }[];
}

/** A message decoded but not modelled further (button, stored-game count, file transfer…). */
export interface VendorMessageObservation {
  readonly type: 'vendor-message';
  readonly at: number;
  readonly vendor: string;
  readonly name: string;
  readonly data: readonly number[];
}

export type ExtraObservation =
  | CommandAckObservation
  | RegisterObservation
  | RfidScanObservation
  | RfidUnknownObservation
  | VendorMessageObservation;

/** What the Millennium, Certabo and Chessnut decoders emit. */
export type BoardObservation = Observation | ExtraObservation;

// ---------------------------------------------------------------------------------------------
// Helpers

/** How many offending bytes a protocol error quotes. */
export const ERROR_SAMPLE_BYTES = 48;

/** A protocol-error observation quoting at most the first 48 of `bytes`. */
export const makeProtocolError = (
  at: number,
  reason: ProtocolErrorReason,
  bytes: Uint8Array | readonly number[],
  count: number = bytes.length,
): ProtocolErrorObservation => ({
  type: 'protocol-error',
  at,
  reason,
  hex: makeHex(bytes.slice(0, ERROR_SAMPLE_BYTES)),
  count,
});

/** An Error carrying a discriminated problem (the error value of a Result). */
export const makeProblem = <P extends { readonly kind: string }>(message: string, problem: P): Error & P =>
  Object.assign(new Error(message), problem);

/** A 64-entry square table built from a chessops transform (STYLE item 4: no hand-written index maths). */
export const makeSquareTable = (transform: (s: SquareSet) => SquareSet): readonly Square[] =>
  Array.from({ length: 64 }, (_, sq) => transform(SquareSet.fromSquare(sq)).first() ?? sq);

/** Inverts a permutation table. */
export const invertTable = (table: readonly Square[]): readonly Square[] => {
  const out = new Array<Square>(64).fill(0);
  table.forEach((to, from) => {
    out[to] = from;
  });
  return out;
};

/** FEN piece letters, upper case for White. */
export type PieceLetter = 'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'b' | 'n' | 'p';

export const PIECE_LETTERS: readonly PieceLetter[] = [
  'K',
  'Q',
  'R',
  'B',
  'N',
  'P',
  'k',
  'q',
  'r',
  'b',
  'n',
  'p',
];

const PIECE_LETTER_SET: ReadonlySet<string> = new Set(PIECE_LETTERS);

export const isPieceLetter = (s: string): s is PieceLetter => PIECE_LETTER_SET.has(s);

/**
 * One shared content per letter, read-only like EMPTY: boards decode every square of every frame
 * through these two (a hall of RFID boards sends thousands of frames a second).
 */
const colorOfLetter = (l: PieceLetter): Color => (l === l.toUpperCase() ? 'white' : 'black');
const CONTENT_OF_LETTER: ReadonlyMap<string, SquareContent> = new Map(
  PIECE_LETTERS.map(l => [l, makePiece(colorOfLetter(l), charToRole(l))]),
);
const LETTER_OF_PIECE: Record<Color, Partial<Record<Role, PieceLetter>>> = { white: {}, black: {} };
for (const l of PIECE_LETTERS) LETTER_OF_PIECE[colorOfLetter(l)][charToRole(l)] = l;

/** The piece a FEN letter names, or undefined. */
export const contentFromPieceLetter = (letter: string): SquareContent | undefined =>
  CONTENT_OF_LETTER.get(letter);

/** The FEN letter of a piece; undefined for anything that is not a recognised piece. */
export const pieceLetterOf = (c: SquareContent): PieceLetter | undefined =>
  c.kind === 'piece' ? LETTER_OF_PIECE[c.color][c.role] : undefined;

/**
 * Bytes as text, one character per byte (ISO 8859-1, exactly: byte n is U+00nn). Converted a slice
 * at a time: spreading a whole RFID line (1,283 bytes) into one call is several times slower.
 */
export const latin1Text = (bytes: Uint8Array): string => {
  let text = '';
  // apply takes any array-like; a typed array is passed as it is, not copied into an Array.
  for (let i = 0; i < bytes.length; i += 512)
    text += String.fromCharCode.apply(null, bytes.subarray(i, i + 512) as unknown as number[]);
  return text;
};

/** Number of set bits in a byte. */
export const popcount8 = (b: number): number => {
  let n = 0;
  for (let x = b & 0xff; x !== 0; x &= x - 1) n++;
  return n;
};
