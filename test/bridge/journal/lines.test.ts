/** Line access: chunk boundaries at every position, torn last lines, and the backwards tail scan. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeJournalFs } from '../../../src/bridge/journal/fsio.js';
import { readLines, scanTail, type Line } from '../../../src/bridge/journal/lines.js';

const io = nodeJournalFs();
const dir = mkdtempSync(join(tmpdir(), 'chessbridge-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const file = (content: string | Buffer): string => {
  const path = join(dir, `f${n++}`);
  writeFileSync(path, content);
  return path;
};

const linesOf = async (path: string, chunk: number, start = 0): Promise<Line[]> => {
  const fd = await io.open(path, 'r');
  try {
    const out: Line[] = [];
    for await (const l of readLines(io, fd, start, chunk)) out.push(l);
    return out;
  } finally {
    await io.close(fd);
  }
};

describe('readLines', () => {
  // Multi-byte characters make byte offsets differ from string offsets.
  const text = '{"a":1}\n{"é":"ü€"}\n\n{"c":3}\n{"torn":';
  const path = file(text);
  const bytes = Buffer.from(text);

  it.each(Array.from({ length: bytes.length + 1 }, (_, i) => i + 1))(
    'splits right with %i-byte chunks',
    async chunk => {
      const lines = await linesOf(path, chunk);
      expect(lines.map(l => [l.number, l.text, l.terminated])).toEqual([
        [1, '{"a":1}', true],
        [2, '{"é":"ü€"}', true],
        [3, '', true],
        [4, '{"c":3}', true],
        [5, '{"torn":', false],
      ]);
      for (const l of lines) {
        expect(bytes.toString('utf8', l.offset, l.end)).toBe(l.terminated ? `${l.text}\n` : l.text);
      }
    },
  );

  it('starts at an offset', async () => {
    const lines = await linesOf(path, 4, 8);
    expect(lines[0]?.text).toBe('{"é":"ü€"}');
    expect(lines[0]?.offset).toBe(8);
  });

  it('reads an empty file as no lines', async () => {
    expect(await linesOf(file(''), 16)).toEqual([]);
  });
});

describe('scanTail', () => {
  const accept = (t: string): number | undefined => {
    try {
      const v: unknown = JSON.parse(t);
      return typeof v === 'object' && v !== null && 'seq' in v && typeof v.seq === 'number'
        ? v.seq
        : undefined;
    } catch {
      return undefined;
    }
  };
  const scan = async (content: string | Buffer, reach?: number) => {
    const fd = await io.open(file(content), 'r');
    try {
      return await scanTail(io, fd, accept, reach);
    } finally {
      await io.close(fd);
    }
  };

  it('finds the last record of a clean file', async () => {
    const s = await scan('{"seq":1}\n{"seq":2}\n');
    expect(s.last?.value).toBe(2);
    expect(s.validEnd).toBe(20);
    expect(s.tornBytes).toBe(0);
  });

  it('treats an unterminated last line as a torn tail', async () => {
    const s = await scan('{"seq":1}\n{"seq":2}\n{"seq":3');
    expect(s.last?.value).toBe(2);
    expect(s.validEnd).toBe(20);
    expect(s.tornBytes).toBe(8);
    expect(s.tornPreview).toBe('{"seq":3');
  });

  it('treats damaged terminated lines at the end (zeros after a power cut) as the tail', async () => {
    const s = await scan(Buffer.concat([Buffer.from('{"seq":1}\n'), Buffer.alloc(20), Buffer.from('\n')]));
    expect(s.last?.value).toBe(1);
    expect(s.tornBytes).toBe(21);
  });

  it('grows its window over long lines', async () => {
    const long = `{"seq":1,"pad":"${'x'.repeat(50_000)}"}\n`;
    const s = await scan(`${long}{"seq":2,"pad":"${'y'.repeat(30_000)}"}\n{"se`);
    expect(s.last?.value).toBe(2);
    expect(s.tornBytes).toBe(4);
  });

  it('gives up beyond its reach, and on files with no good line', async () => {
    expect((await scan(`{"seq":1}\n${'z'.repeat(20_000)}`, 10_000)).last).toBeUndefined();
    const none = await scan('garbage\n');
    expect(none.last).toBeUndefined();
    expect(none.validEnd).toBe(0);
    expect((await scan('')).last).toBeUndefined();
  });

  it('handles a file whose only line is the record', async () => {
    expect((await scan('{"seq":7}\n')).last?.line.offset).toBe(0);
  });
});
