import { describe, expect, it } from 'vitest';
import { gameFinishedLine, gameStartedLine } from '../../../src/bridge/i18n/logLines.js';

describe('log lines of a game’s life', () => {
  it('stay as they were in English', () => {
    expect(gameStartedLine('en', 'r1-b3', 'dgt-3')).toBe('game r1-b3 started on board dgt-3');
    expect(gameFinishedLine('en', 'r1-b3', '1-0', 'checkmate')).toBe('game r1-b3 finished: 1-0 (checkmate)');
  });

  it('are in the venue’s language otherwise, keeping ids, results and codes for grep', () => {
    expect(gameStartedLine('es', 'r1-b3', undefined)).toBe('partida r1-b3 empezada');
    expect(gameStartedLine('es', 'r1-b3', 'dgt-3')).toBe('partida r1-b3 empezada en el tablero dgt-3');
    expect(gameFinishedLine('es', 'r1-b3', '1-0', 'checkmate')).toBe(
      'partida r1-b3 terminada: 1-0 (checkmate: jaque mate)',
    );
    // An arbiter's own words (a stop's reason) are not translated.
    expect(gameFinishedLine('es', 'r1-b3', '*', 'stopped: fire alarm')).toBe(
      'partida r1-b3 terminada: * (stopped: fire alarm)',
    );
  });
});
