// The logger's repeat filter: a line repeated word for word within repeatMs is written once, then
// once more with the count; different lines, levels and fields are not collapsed together.
import { describe, expect, it } from 'vitest';
import { makeLogger } from '../../src/bridge/logger.js';
import { waitFor } from '../support/mosquitto.js';

const makeLog = (repeatMs: number) => {
  let now = Date.UTC(2026, 0, 1);
  const lines: string[] = [];
  const logger = makeLogger({
    level: 'debug',
    format: 'text',
    write: l => lines.push(l.trimEnd().replace(/^\S+ /, '')),
    now: () => now,
    repeatMs,
  });
  return { logger, lines, advance: (ms: number) => (now += ms) };
};

describe('makeLogger with repeatMs', () => {
  it('writes a repeated line once, then once with the count when the next one comes after the window', () => {
    const { logger, lines, advance } = makeLog(10_000);
    const log = logger.child('bridge:requests');
    for (let i = 0; i < 5000; i++) log.warn('stop_game: no game g9 in play');
    log.warn('stop_game: no game g8 in play');
    log.info('stop_game: no game g9 in play');
    log.warn('stop_game: no game g9 in play', { client: 'a' });
    expect(lines).toEqual([
      'WARN  chessbridge:bridge:requests stop_game: no game g9 in play',
      'WARN  chessbridge:bridge:requests stop_game: no game g8 in play',
      'INFO  chessbridge:bridge:requests stop_game: no game g9 in play',
      'WARN  chessbridge:bridge:requests stop_game: no game g9 in play client=a',
    ]);
    advance(10_000);
    log.warn('stop_game: no game g9 in play');
    expect(lines.slice(4)).toEqual([
      'WARN  chessbridge:bridge:requests stop_game: no game g9 in play (repeated 4999 more times in 10 s)',
      'WARN  chessbridge:bridge:requests stop_game: no game g9 in play',
    ]);
  });

  it('writes the count when the window is over even if the line does not come again', async () => {
    const { logger, lines, advance } = makeLog(30);
    const log = logger.child('mqtt');
    log.warn('lost');
    log.warn('lost');
    log.warn('alone');
    advance(1000);
    await waitFor(() => lines.length === 3, 2000, 'the sweep');
    expect(lines).toEqual([
      'WARN  chessbridge:mqtt lost',
      'WARN  chessbridge:mqtt alone',
      'WARN  chessbridge:mqtt lost (repeated 1 more time in 1 s)',
    ]);
  });

  it('writes every line without repeatMs', () => {
    const { logger, lines } = makeLog(0);
    logger.info('same');
    logger.info('same');
    expect(lines).toHaveLength(2);
  });
});
