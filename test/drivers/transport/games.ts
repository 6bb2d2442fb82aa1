/**
 * Real games (SAN) for the end-to-end board tests: long enough for 40+ plies with captures, both
 * castlings, checks and a mate.
 *
 *   const script = scriptFromSans(KASPAROV_TOPALOV).unwrap(); // 87 plies, 178 square events
 */

/** Kasparov–Topalov, Wijk aan Zee 1999 (1-0): 87 plies, both queenside castlings, many captures. */
export const KASPAROV_TOPALOV: readonly string[] = (
  'e4 d6 d4 Nf6 Nc3 g6 Be3 Bg7 Qd2 c6 f3 b5 Nge2 Nbd7 Bh6 Bxh6 Qxh6 Bb7 a3 e5 O-O-O Qe7 Kb1 a6 ' +
  'Nc1 O-O-O Nb3 exd4 Rxd4 c5 Rd1 Nb6 g3 Kb8 Na5 Ba8 Bh3 d5 Qf4+ Ka7 Rhe1 d4 Nd5 Nbxd5 exd5 Qd6 ' +
  'Rxd4 cxd4 Re7+ Kb6 Qxd4+ Kxa5 b4+ Ka4 Qc3 Qxd5 Ra7 Bb7 Rxb7 Qc4 Qxf6 Kxa3 Qxa6+ Kxb4 c3+ Kxc3 ' +
  'Qa1+ Kd2 Qb2+ Kd1 Bf1 Rd2 Rd7 Rxd7 Bxc4 bxc4 Qxh8 Rd3 Qa8 c3 Qa4+ Ke1 f4 f5 Kc1 Rd2 Qa7'
).split(' ');

/** Anderssen–Kieseritzky, London 1851, "the Immortal Game" (1-0): 45 plies ending in mate. */
export const IMMORTAL_GAME: readonly string[] = (
  'e4 e5 f4 exf4 Bc4 Qh4+ Kf1 b5 Bxb5 Nf6 Nf3 Qh6 d3 Nh5 Nh4 Qg5 Nf5 c6 g4 Nf6 Rg1 cxb5 h4 Qg6 ' +
  'h5 Qg5 Qf3 Ng8 Bxf4 Qf6 Nc3 Bc5 Nd5 Qxb2 Bd6 Bxg1 e5 Qxa1+ Ke2 Na6 Nxg7+ Kd8 Qf6+ Nxf6 Be7#'
).split(' ');
