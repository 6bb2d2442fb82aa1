/**
 * A DGT bus line in the emulator: many boards on one serial line, each with its own address
 * (its serial number, reference §8). Bytes from the host are read once and offered to every
 * board; the addressed board answers. Boards keep their change lists across a lost link (the
 * line adapter, not the boards, was unplugged), so a poller that comes back loses nothing.
 *
 *   const line = new DgtBusLine([new DgtBoardEmulator({ serial: '00001' }), new DgtBoardEmulator({ serial: '00002' })]);
 *   line.receive(makeCommand({ kind: 'bus', command: 'send-board', address: 2 }), 0); // board 2's dump
 *   line.apply({ kind: 'square', square: 'e2', piece: 'empty' }, 10, 2); // recorded for the next poll
 */
import { DgtCommandReader } from './commands.js';
import { type BoardEvent, DgtBoardEmulator } from './emulator.js';

const concat = (parts: readonly Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

export class DgtBusLine {
  private reader = new DgtCommandReader();
  private readonly byAddress: ReadonlyMap<number, DgtBoardEmulator>;

  constructor(readonly boards: readonly DgtBoardEmulator[]) {
    const map = new Map<number, DgtBoardEmulator>();
    for (const b of boards) {
      if (map.has(b.address)) throw new TypeError(`two boards with bus address ${b.address}`);
      map.set(b.address, b);
    }
    this.byAddress = map;
  }

  board(address: number): DgtBoardEmulator | undefined {
    return this.byAddress.get(address);
  }

  /**
   * Bytes from the host. Bus commands reach every board (the addressed one answers); a
   * single-board command reaches every board too, and all of them answer at once, as on a real
   * shared line (which garbles the replies: a poller should not send them).
   */
  receive(bytes: Uint8Array, now: number): Uint8Array {
    const out: Uint8Array[] = [];
    for (const e of this.reader.push(bytes)) {
      if (e.kind !== 'command') continue;
      for (const b of this.boards) out.push(b.command(e.command, now));
    }
    return concat(out);
  }

  /** A change at board `address` (bus boards send nothing by themselves). */
  apply(e: BoardEvent, now: number, address: number): Uint8Array {
    const b = this.byAddress.get(address);
    if (b === undefined) throw new TypeError(`no board with bus address ${address}`);
    return b.apply(e, now);
  }

  tick(now: number): Uint8Array {
    return concat(this.boards.map(b => b.tick(now)));
  }

  /** The line adapter was unplugged: partial commands are forgotten, boards keep their state. */
  powerCycle(): void {
    this.reader = new DgtCommandReader();
  }
}
