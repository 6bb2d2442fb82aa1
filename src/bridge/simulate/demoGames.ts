/**
 * Games the demo's emulated boards play: well-known games of the 19th and early 20th century
 * (their moves are long in the public domain), each with its players. Every one ends in
 * checkmate, so the supervisor ends each game by itself.
 *
 *   const game = DEMO_GAMES[0];            // the Opera game
 *   sansOf(game).length;                   // 33
 */

export interface DemoGame {
  readonly white: string;
  readonly black: string;
  readonly event: string;
  /** Movetext without move numbers' dots mattering: SAN tokens separated by spaces. */
  readonly moves: string;
}

export const DEMO_GAMES: readonly DemoGame[] = [
  {
    white: 'Morphy, Paul',
    black: 'Duke Karl / Count Isouard',
    event: 'Paris Opera 1858',
    moves:
      '1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8. Nc3 c6 9. Bg5 b5 ' +
      '10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14. Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8#',
  },
  {
    white: 'Anderssen, Adolf',
    black: 'Kieseritzky, Lionel',
    event: 'London 1851',
    moves:
      '1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5 9. Nf5 c6 ' +
      '10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6 16. Nc3 Bc5 17. Nd5 Qxb2 ' +
      '18. Bd6 Bxg1 19. e5 Qxa1+ 20. Ke2 Na6 21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7#',
  },
  {
    white: 'Anderssen, Adolf',
    black: 'Dufresne, Jean',
    event: 'Berlin 1852',
    moves:
      '1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. b4 Bxb4 5. c3 Ba5 6. d4 exd4 7. O-O d3 8. Qb3 Qf6 9. e5 Qg6 ' +
      '10. Re1 Nge7 11. Ba3 b5 12. Qxb5 Rb8 13. Qa4 Bb6 14. Nbd2 Bb7 15. Ne4 Qf5 16. Bxd3 Qh5 ' +
      '17. Nf6+ gxf6 18. exf6 Rg8 19. Rad1 Qxf3 20. Rxe7+ Nxe7 21. Qxd7+ Kxd7 22. Bf5+ Ke8 23. Bd7+ Kf8 24. Bxe7#',
  },
  {
    white: 'Reti, Richard',
    black: 'Tartakower, Savielly',
    event: 'Vienna 1910',
    moves:
      '1. e4 c6 2. d4 d5 3. Nc3 dxe4 4. Nxe4 Nf6 5. Qd3 e5 6. dxe5 Qa5+ 7. Bd2 Qxe5 8. O-O-O Nxe4 ' +
      '9. Qd8+ Kxd8 10. Bg5+ Kc7 11. Bd8#',
  },
  {
    white: 'Lasker, Edward',
    black: 'Thomas, George Alan',
    event: 'London 1912',
    moves:
      '1. d4 e6 2. Nf3 f5 3. Nc3 Nf6 4. Bg5 Be7 5. Bxf6 Bxf6 6. e4 fxe4 7. Nxe4 b6 8. Ne5 O-O 9. Bd3 Bb7 ' +
      '10. Qh5 Qe7 11. Qxh7+ Kxh7 12. Nxf6+ Kh6 13. Neg4+ Kg5 14. h4+ Kf4 15. g3+ Kf3 16. Be2+ Kg2 ' +
      '17. Rh2+ Kg1 18. Kd2#',
  },
  {
    white: 'de Legal, Kermur',
    black: 'Saint Brie',
    event: 'Paris 1750',
    moves: '1. e4 e5 2. Nf3 d6 3. Bc4 Bg4 4. Nc3 g6 5. Nxe5 Bxd1 6. Bxf7+ Ke7 7. Nd5#',
  },
];

/** The SAN moves of a demo game. */
export const sansOf = (game: DemoGame): string[] =>
  game.moves.split(/\s+/).filter(t => t !== '' && !/^\d+\.$/.test(t));
