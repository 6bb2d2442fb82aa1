/**
 * A pure Certabo / TabuTronic board: 64 squares, a set of RFID-tagged pieces (or occupancy only),
 * LEDs, and optional seeded noise on empty squares (reference §2.4: random ids on 5–12 empty
 * squares per frame on a noisy set). It writes the frame lines the board streams (§2.3) and
 * acknowledges LED commands with `L` or `D` (§2.3, UNVERIFIED on Certabo-branded boards).
 *
 *   const board = new CertaboEmulator({ sensing: 'rfid', noise: { seed: 1, squares: 6 } });
 *   port.write(board.frame()); // ":48 0 160 …\r\n", called by the transport about twice a second
 *   board.apply({ square: 12, content: EMPTY }); // returns the next frame; board.calibration decodes it
 */
import { SquareSet } from 'chessops';
import { orientSquare, START_SQUARES, type Orientation, type SquareContent } from '../observation.js';
import { PIECE_LETTERS, pieceLetterOf, type PieceLetter, type SquareEvent } from '../observationExtra.js';
import { CALIBRATION_VERSION, type Calibration } from './calibration.js';
import { CertaboCommandReader, type Rgb } from './commands.js';
import { makeLine, type CertaboFrame } from './frames.js';
import { FRAME_SQUARE, makeTag, occupancyByteBit, RGB_LED_COUNT, type RfidTag } from './protocol.js';

export interface CertaboEmulatorOptions {
  /** 'rfid' (Certabo, Cerno: 320 numbers) or 'occupancy' (Sentio, Tactum: 8 numbers). */
  readonly sensing?: 'rfid' | 'occupancy';
  /** 'mono' (8-byte bitmap, acknowledged with L) or 'rgb' (Spectrum, acknowledged with D). */
  readonly leds?: 'mono' | 'rgb';
  readonly orientation?: Orientation;
  /** Initial contents (game frame); default the start position. */
  readonly squares?: readonly SquareContent[];
  /** First two id bytes of every tag in the set (sets share them, §2.4); default 48 0. */
  readonly tagPrefix?: readonly [number, number];
  /** Random ids on this many empty squares in every frame, from a seeded generator. */
  readonly noise?: { readonly seed: number; readonly squares: number };
  /** End lines in space + CR LF instead of CR LF (errata 3: both occur). */
  readonly trailingSpace?: boolean;
}

/** Tags per piece letter in the emulated set (enough for promotions). */
export const TAGS_PER_PIECE = 10;

const ASCII = new TextEncoder();

/** mulberry32: a small seeded generator, so noisy frames are reproducible. */
const makeRng = (seed: number): (() => number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export class CertaboEmulator {
  readonly orientation: Orientation;
  readonly sensing: 'rfid' | 'occupancy';
  readonly ledKind: 'mono' | 'rgb';
  /** The tag → piece table of the emulated set (what a full calibration would learn). */
  readonly calibration: Calibration;
  private readonly pool: ReadonlyMap<PieceLetter, readonly RfidTag[]>;
  /** Tag on each game square (rfid), or 'x' for an occupied square (occupancy); null = empty. */
  private readonly board: (RfidTag | null)[] = new Array<RfidTag | null>(64).fill(null);
  private readonly contents: SquareContent[];
  private readonly reader: CertaboCommandReader;
  private readonly rng: (() => number) | undefined;
  private readonly noiseSquares: number;
  private readonly trailingSpace: boolean;
  private lit = SquareSet.empty();
  private rgb: readonly Rgb[] = Array.from({ length: RGB_LED_COUNT }, (): Rgb => [0, 0, 0]);

  constructor(options: CertaboEmulatorOptions = {}) {
    this.orientation = options.orientation ?? 'normal';
    this.sensing = options.sensing ?? 'rfid';
    this.ledKind = options.leds ?? 'mono';
    const [p0, p1] = options.tagPrefix ?? [48, 0];
    const pool = new Map<PieceLetter, RfidTag[]>();
    const pieces: Record<RfidTag, PieceLetter> = {};
    PIECE_LETTERS.forEach((l, li) => {
      const tags = Array.from(
        { length: TAGS_PER_PIECE },
        (_, k) => makeTag([p0, p1, 0xa0 + li, 0x10 + k, 0x5a ^ (li * 16 + k)]) ?? '',
      );
      pool.set(l, tags);
      for (const t of tags) pieces[t] = l;
    });
    this.pool = pool;
    this.calibration = { version: CALIBRATION_VERSION, pieces };
    this.contents = new Array<SquareContent>(64).fill({ kind: 'empty' });
    const initial = options.squares ?? START_SQUARES;
    if (initial.length !== 64) throw new TypeError(`squares must have 64 entries, got ${initial.length}`);
    initial.forEach((content, square) => this.set({ square, content }));
    this.reader = new CertaboCommandReader({ orientation: this.orientation, rgb: this.ledKind === 'rgb' });
    this.rng = options.noise === undefined ? undefined : makeRng(options.noise.seed);
    this.noiseSquares = options.noise?.squares ?? 0;
    this.trailingSpace = options.trailingSpace ?? false;
  }

  /** What stands on each square (game frame); 'occupied' on occupancy boards. */
  get squares(): readonly SquareContent[] {
    return this.contents;
  }

  /** Squares lit by the last 8-byte LED command (game frame). */
  get litSquares(): SquareSet {
    return this.lit;
  }

  /** Colours of the last RGB frame (LED index order). */
  get rgbColours(): readonly Rgb[] {
    return this.rgb;
  }

  /** The tag on a square (game frame), null when empty. */
  tagAt(square: number): RfidTag | null {
    return this.board[square] ?? null;
  }

  /** The frame the board sends now, as a line. */
  frameValue(): CertaboFrame {
    if (this.sensing === 'occupancy') {
      const ranks = new Array<number>(8).fill(0);
      for (let board = 0; board < 64; board++) {
        if (this.board[orientSquare(board, this.orientation)] === null) continue;
        const { byte, bit } = occupancyByteBit(board);
        ranks[byte] = (ranks[byte] ?? 0) | (1 << bit);
      }
      return { kind: 'occupancy', ranks };
    }
    const tags = FRAME_SQUARE.map(board => this.board[orientSquare(board, this.orientation)] ?? null);
    const rng = this.rng;
    if (rng !== undefined) {
      const empty = tags.flatMap((t, i) => (t === null ? [i] : []));
      for (let k = 0; k < this.noiseSquares && empty.length > 0; k++) {
        const [i] = empty.splice(Math.floor(rng() * empty.length), 1);
        if (i !== undefined) tags[i] = makeTag(Array.from({ length: 5 }, () => 1 + Math.floor(rng() * 255)));
      }
    }
    return { kind: 'rfid', tags };
  }

  /** The bytes of the current frame line. */
  frame(): Uint8Array {
    // The line is ASCII: its UTF-8 bytes are its characters.
    return ASCII.encode(makeLine(this.frameValue(), { trailingSpace: this.trailingSpace }));
  }

  /** Changes one square; returns the next frame the board streams. */
  apply(event: SquareEvent): Uint8Array {
    this.set(event);
    return this.frame();
  }

  /** Reads LED commands; returns the acknowledgement lines. */
  receive(bytes: Uint8Array): Uint8Array {
    let acks = '';
    for (const e of this.reader.push(bytes)) {
      if (e.kind !== 'command') continue;
      switch (e.command.kind) {
        case 'leds':
          this.lit = e.command.squares;
          if (this.ledKind === 'mono') acks += 'L\r\n';
          break;
        case 'leds-rgb':
          this.rgb = e.command.colours;
          acks += 'D\r\n';
          break;
      }
    }
    return Uint8Array.from(acks, c => c.charCodeAt(0));
  }

  private set({ square, content }: SquareEvent): void {
    switch (content.kind) {
      case 'empty':
        this.board[square] = null;
        this.contents[square] = content;
        return;
      case 'occupied':
        if (this.sensing === 'rfid')
          throw new TypeError('an RFID board needs a piece, not an unknown occupant');
        this.board[square] = 'x';
        this.contents[square] = content;
        return;
      case 'piece': {
        const letter = pieceLetterOf(content);
        const tags = letter === undefined ? [] : (this.pool.get(letter) ?? []);
        const current = this.board[square];
        const free = tags.find(t => t === current || !this.board.includes(t)) ?? tags[0] ?? null;
        this.board[square] = free;
        this.contents[square] = this.sensing === 'rfid' ? content : { kind: 'occupied' };
        return;
      }
      case 'result-piece':
        throw new TypeError('Certabo boards have no result pieces');
    }
  }
}
