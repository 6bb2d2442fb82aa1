/**
 * Article concordance: where each topic lives in each edition of the Laws, for standard chess.
 * One row per topic, one column per edition (E97, E09, E14, E17, E18, E23); `NA` = not in that
 * edition. Rapid and blitz adjust some rows in appendices.ts.
 *
 *   import { standardArticles } from './concordance.js';
 *   standardArticles('E09').illegalMovePenalty; // '7.4.b'
 *   standardArticles('E97').fivefold;           // undefined
 *
 * E17 has no column of its own in the reference: its numbers follow E18 except where the reference
 * names E17 articles (7.5.3, 7.7.1, 7.8.1); the E17 table is marked UNVERIFIED as a whole.
 */
import { EDITIONS, type Edition } from '../types.js';
import { ARTICLE_TOPICS, type ArticleTable, type ArticleTopic } from './model.js';

const NA = undefined;
type Cell = string | undefined;
type Row = readonly [e97: Cell, e09: Cell, e14: Cell, e17: Cell, e18: Cell, e23: Cell];

// prettier-ignore
const CONCORDANCE: { readonly [T in ArticleTopic]: Row } = {
  //                          E97       E09        E14         E17         E18         E23
  haveTheMove:               ['1.1',    '1.1',     '1.1',      '1.3',      '1.3',      '1.3'],
  kingCapture:               [NA,       '1.2',     '1.2',      '1.4.1',    '1.4.1',    '1.4.1'],
  castling:                  ['3.5(a)', '3.8',     '3.8',      '3.8.2',    '3.8.2',    '3.8.2'],
  enPassant:                 ['3.4.d',  '3.7.d',   '3.7.d',    '3.7.4.1',  '3.7.4.1',  '3.7.4.1'],
  promotion:                 ['3.4.e',  '3.7.e',   '3.7.e',    '3.7.5.1',  '3.7.5.1',  '3.7.5.1'],
  check:                     ['3.5(b)', '3.9',     '3.9',      '3.9.1',    '3.9.1',    '3.9.1'],
  oneHand:                   ['4.1',    '4.1',     '4.1',      '4.1',      '4.1',      '4.1'],
  adjusting:                 ['4.2',    '4.2',     '4.2',      '4.2.1',    '4.2.1',    '4.2.1'],
  touchMoveOwn:              ['4.3',    '4.3.a',   '4.3.a',    '4.3.1',    '4.3.1',    '4.3.1'],
  touchMoveOpponent:         ['4.3',    '4.3.b',   '4.3.b',    '4.3.2',    '4.3.2',    '4.3.2'],
  touchMoveBoth:             ['4.3',    '4.3.c',   '4.3.c',    '4.3.3',    '4.3.3',    '4.3.3'],
  castlingKingAndRook:       ['4.4.a',  '4.4.a',   '4.4.a',    '4.4.1',    '4.4.1',    '4.4.1'],
  castlingRookFirst:         ['4.4.b',  '4.4.b',   '4.4.b',    '4.4.2',    '4.4.2',    '4.4.2'],
  castlingIllegalKingTouched:['4.4.c',  '4.4.c',   '4.4.c',    '4.4.3',    '4.4.3',    '4.4.3'],
  promotionChoiceFinal:      [NA,       '4.4.d',   '4.4.d',    '4.4.4',    '4.4.4',    '4.4.4'],
  touchedPieceCannotMove:    ['4.5',    '4.5',     '4.5',      '4.5',      '4.5',      '4.5'],
  promotionProcedure:        [NA,       NA,        '4.6',      '4.6.1',    '4.6.1',    '4.6.1'],
  moveMade:                  ['4.7',    '4.6',     '4.7',      '4.7',      '4.7',      '4.7'],
  captureMade:               ['4.7',    '4.6.a',   '4.7.a',    '4.7.1',    '4.7.1',    '4.7.1'],
  castlingMade:              ['4.7',    '4.6.b',   '4.7.b',    '4.7.2',    '4.7.2',    '4.7.2'],
  promotionMade:             ['4.7',    '4.6.c',   '4.7.c',    '4.7.3',    '4.7.3',    '4.7.3'],
  article4ClaimLost:         ['4.6',    '4.7',     '4.8',      '4.8',      '4.8',      '4.8'],
  checkmate:                 ['5.1.a',  '5.1.a',   '5.1.a',    '5.1.1',    '5.1.1',    '5.1.1'],
  resignation:               ['5.1.b',  '5.1.b',   '5.1.b',    '5.1.2',    '5.1.2',    '5.1.2'],
  stalemate:                 ['5.2',    '5.2.a',   '5.2.a',    '5.2.1',    '5.2.1',    '5.2.1'],
  deadPosition:              ['9.6',    '5.2.b',   '5.2.b',    '5.2.2',    '5.2.2',    '5.2.2'],
  agreement:                 ['5.3',    '5.2.c',   '5.2.c',    '5.2.3',    '5.2.3',    '5.2.3'],
  clockPress:                ['6.7.a',  '6.7.a',   '6.2.a',    '6.2.1',    '6.2.1',    '6.2.1'],
  timeControl:               ['6.2',    '6.2.a',   '6.3.a',    '6.3.1',    '6.3.1',    '6.3.1'],
  delay:                     ['6.2',    '6.2.b',   '6.3.b',    '6.3.2',    '6.3.2',    '6.3.2'],
  defaultTime:               ['6.6',    '6.6.a',   '6.7.a',    '6.7.1',    '6.7.1',    '6.7.1'],
  flagFallen:                ['6.8',    '6.8',     '6.8',      '6.8',      '6.8',      '6.8'],
  flag:                      ['6.9',    '6.9',     '6.9',      '6.9',      '6.9',      '6.9'],
  flagCannotMate:            ['6.9',    '6.9',     '6.9',      '6.9',      '6.9',      '6.9'],
  bothFlags:                 ['10.4',   '6.11.b',  'App. G',   'III.3.1',  'III.3.1',  'III.3.1'],
  flagClaim:                 ['6.8',    '6.8',     '6.8',      '6.8',      '6.8',      '6.8'],
  clockWronglySet:           [NA,       '6.10.b',  '6.10.b',   '6.10.2',   '6.10.2',   '6.10.2'],
  stopClocks:                ['6.12.b', '6.12.b',  '6.11.b',   '6.11.2',   '6.11.2',   '6.11.2'],
  clockAdjustment:           ['6.13',   '6.13',    '7.1',      '7.1',      '7.1',      '7.1'],
  wrongInitialPosition:      ['7.1.a',  '7.1.a',   '7.2.a',    '7.2.1',    '7.2.1',    '7.2.1'],
  boardOrientation:          ['7.1.b',  '7.1.b',   '7.2.b',    '7.2.2',    '7.2.2',    '7.2.2'],
  coloursReversed:           ['7.2',    '7.2',     '7.3',      '7.3',      '7.3',      '7.3'],
  displacedPieces:           ['7.3',    '7.3',     '7.4.a',    '7.4.1',    '7.4.1',    '7.4.1'],
  displacedFoundLater:       ['7.4',    '7.5',     '7.6',      '7.6',      '7.6',      '7.6'],
  illegalMove:               ['7.4',    '7.4.a',   '7.5.a',    '7.5.1',    '7.5.1',    '7.5.1'],
  unfinishedPromotion:       [NA,       '7.4.a',   '7.5.a',    '7.5.2',    '7.5.2',    '7.5.2'],
  pressWithoutMove:          [NA,       NA,        NA,         '7.8.1',    '7.5.3',    '7.5.3'],
  twoHands:                  [NA,       NA,        NA,         '7.7.1',    '7.5.4',    '7.5.4'],
  illegalMovePenalty:        ['10.3',   '7.4.b',   '7.5.b',    '7.5.3',    '7.5.5',    '7.5.5'],
  illegalMoveRegime:         [NA,       NA,        NA,         NA,         NA,         NA],
  shorterPenalties:          [NA,       NA,        NA,         NA,         NA,         NA],
  illegalPosition:           [NA,       NA,        NA,         NA,         NA,         NA],
  setupClaimDeadline:        [NA,       NA,        NA,         NA,         NA,         NA],
  recording:                 ['8.1',    '8.1',     '8.1',      '8.1.1',    '8.1.1',    '8.1.1'],
  drawOffer:                 ['9.1',    '9.1.b',   '9.1.b',    '9.1.2',    '9.1.2',    '9.1.2'],
  agreementRestricted:       [NA,       '9.1.a',   '9.1.a',    '9.1.1',    '9.1.1',    '9.1.1'],
  threefold:                 ['9.2',    '9.2',     '9.2',      '9.2',      '9.2',      '9.2'],
  samePosition:              ['9.2',    '9.2',     '9.2',      '9.2.2',    '9.2.2',    '9.2.3'],
  fiftyMoves:                ['9.3',    '9.3',     '9.3',      '9.3',      '9.3',      '9.3'],
  drawClaimLostByTouch:      ['9.4',    '9.4',     '9.4',      '9.4',      '9.4',      '9.4'],
  drawClaim:                 ['9.5.a',  '9.5.a',   '9.5.a',    '9.5.1',    '9.5.1',    '9.5.1'],
  incorrectClaim:            ['9.5.b',  '9.5.b',   '9.5.c',    '9.5.3',    '9.5.3',    '9.5.3'],
  fivefold:                  [NA,       NA,        '9.6.a',    '9.6.1',    '9.6.1',    '9.6.1'],
  seventyFiveMoves:          [NA,       NA,        '9.6.b',    '9.6.2',    '9.6.2',    '9.6.2'],
  quickplayFinish:           ['10.2',   '10.2',    'G.5',      'III.5',    'III.5',    'III.5'],
  scoring:                   ['11.1',   '11.1',    '10.1',     '10.1',     '10.1',     '10.1'],
  bothLose:                  ['12.8',   '12.9',    '11.8',     '11.8',     '11.8',     '11.8'],
  penalties:                 ['13.4',   '13.4',    '12.9',     '12.9',     '12.9',     '12.9'],
  noPromptToPress:           ['13.6',   '13.6',    '12.6',     '12.6',     '12.6',     '12.6'],
  gameTypeDefinition:        [NA,       NA,        NA,         NA,         NA,         NA],
  gameTypeRules:             [NA,       NA,        NA,         NA,         NA,         NA],
};

/** Article numbers of every topic for standard chess under `edition`. */
export const standardArticles = (edition: Edition): ArticleTable => {
  const column = EDITIONS.indexOf(edition);
  const entries = ARTICLE_TOPICS.map(topic => [topic, CONCORDANCE[topic][column]] as const);
  return Object.fromEntries(entries) as ArticleTable;
};

/** Article cells the reference marks UNVERIFIED, per edition (dotted profile paths). */
export const UNVERIFIED_ARTICLES: { readonly [E in Edition]: readonly string[] } = {
  E97: ['articles.touchMoveOwn', 'articles.touchMoveOpponent', 'articles.touchMoveBoth'],
  E09: [],
  E14: ['articles.bothFlags', 'articles.incorrectClaim'],
  E17: ['articles'],
  E18: [],
  E23: [],
};
