/**
 * The sentences of the supervisor as data: every `detail` of an alert, finding or claim is also
 * given as sentences, each a key of this table and its parameters (sides, pieces, squares, plies,
 * moves), so that a reader's language renders it from the catalogs (docs/i18n.md) instead of the
 * English words. The table lists each sentence's parameters; the emitter's types follow from it,
 * so a sentence cannot be emitted without one of its parameters, or with one it does not list.
 *
 *   detail: `${NAME[color]} touched the rook on ${sq} before the king: …`,
 *   text: [say('castling.rook_first', { color, square: 'h1' })],
 */
import type { Color, Role } from 'chessops';

/** The kind of each parameter a sentence may carry. */
export interface TextParamTypes {
  /** The side the sentence is about (who touched, pressed, claimed…). */
  readonly color: Color;
  /** The other side. */
  readonly opponent: Color;
  /** The side whose claim a flag needs. */
  readonly claimant: Color;
  readonly piece: Role;
  /** The piece first set on the promotion square. */
  readonly first: Role;
  /** The piece finally chosen. */
  readonly chosen: Role;
  /** The opponent's piece touched. */
  readonly victim: Role;
  readonly square: string;
  readonly from: string;
  readonly to: string;
  readonly squares: readonly string[];
  /** Pieces touched, with the squares they stood on. */
  readonly touched: readonly { readonly piece: Role; readonly square: string }[];
  readonly ply: number;
  readonly from_ply: number;
  readonly to_ply: number;
  /** A count: moves each side made, move orders, plies. */
  readonly count: number;
  /** How many more (move orders not listed). */
  readonly more: number;
  /** How many were lost (records of a damaged journal). */
  readonly lost: number;
  /** Moves in SAN (English on the wire; a reader's notation on the page). */
  readonly moves: readonly string[];
  /** Move orders, each a SAN line. */
  readonly orders: readonly (readonly string[])[];
  /** A move as given by a person (not checked: shown as it came). */
  readonly given: string;
}
export type TextParam = keyof TextParamTypes;

/** Every sentence and the parameters it carries. */
export const TEXT_PARAMS = {
  'castling.rook_first': ['color', 'square'],
  'castling.must_castle': ['color', 'square'],
  'castling.illegal_king_touched': ['color', 'square'],
  'castling.king_on_square': ['color', 'square'],
  'promotion.first_piece': ['first', 'chosen', 'square'],
  'promotion.not_legal': ['square'],
  'release.king': ['square'],
  'release.moved_on': ['from', 'to'],
  'touch.no_legal_move': ['touched'],
  'touch.own': ['color', 'piece', 'square', 'from'],
  'touch.opponent': ['color', 'victim', 'square'],
  'touch.capture_due': ['color', 'piece', 'victim', 'from', 'to'],
  'touch.both_colours_move': ['color', 'piece', 'square'],
  'touch.both_colours_capture': ['color', 'victim', 'square'],
  'touch.on_request': [],
  'touch.claim_lost': ['color', 'opponent'],
  'touch.claim_lost_square': ['color', 'opponent', 'square'],
  'king.taken_off': ['color'],
  'colours_reversed.new_game': ['count'],
  'colours_reversed.continue': ['count'],
  'board.turned': [],
  'setup.late': ['squares', 'count'],
  'setup.new_game': ['squares'],
  'displaced.restore': ['squares'],
  'displaced.at_press': ['color', 'squares'],
  'board.differs_unreachable': ['ply'],
  'board.differs_ambiguous': ['ply'],
  'board.no_legal_position': ['ply'],
  'board.takeback_unique': ['ply', 'from_ply'],
  'board.takeback_repeated': ['ply', 'from_ply'],
  'board.reset': ['ply'],
  'board.orders': ['count', 'ply', 'orders'],
  'board.orders_more': ['count', 'ply', 'orders', 'more'],
  'board.inferred': ['from_ply', 'to_ply', 'moves'],
  'board.unseen_plies': ['color', 'ply', 'orders'],
  'board.link_lost': [],
  'board.clock_over_gap': ['color', 'ply', 'count'],
  'board.presses_over_gap': ['count', 'ply', 'more'],
  'arbiter.moves_not_recorded_length': ['ply', 'count'],
  'arbiter.moves_not_recorded_illegal': ['ply', 'given', 'to_ply'],
  'arbiter.paused': [],
  'flag.both_earlier': [],
  'flag.unseen_link_down': ['color'],
  'flag.unseen_log': ['color'],
  'flag.unseen_mismatch': ['color'],
  'flag.unseen_gap': ['color'],
  'flag.unseen_reset': ['color'],
  'end.read_off': ['color', 'from_ply', 'to_ply'],
  'end.read_off_one': ['color', 'ply'],
  'flag.awaiting_claim': ['color', 'claimant'],
  'flag.cannot_mate_undecided': ['color', 'opponent'],
  'hands.other_hand': ['color'],
  'hands.two_hands_discretion': ['color'],
  'hands.two_hands_counted_once': ['color'],
  'hands.two_hands_illegal': ['color'],
  'adjust.without_move': ['color'],
  'illegal.cannot_mate_undecided': ['opponent'],
  'illegal.king_captured': ['color'],
  'illegal.king_captured_after_illegal': [],
  'illegal.claim_only': ['color', 'opponent'],
  'illegal.reinstated': ['color'],
  'press.illegal': ['color'],
  'press.discretion': ['color'],
  'claim.too_late': [],
  'claim.not_on_move': ['color'],
  'claim.touched_before': ['color'],
  'claim.intended_illegal': ['given'],
  'claim.no_illegal_move': [],
  'claim.condition_not_met': [],
  'claim.condition_not_met_move': ['given'],
  'claim.flag_not_fallen': ['opponent'],
  'claim.no_move': ['opponent'],
  'claim.touched_since': ['color', 'opponent'],
  'claim.art4_possible': ['color', 'ply'],
  'claim.art4_none': ['color', 'ply'],
  'claim.art4_no_evidence': ['color', 'opponent', 'ply'],
  'journal.damaged': ['count', 'lost'],
} as const satisfies Record<string, readonly TextParam[]>;

export type TextKey = keyof typeof TEXT_PARAMS;

/** The parameters of sentence K, exactly those the table lists. */
export type TextParams<K extends TextKey> = {
  readonly [P in (typeof TEXT_PARAMS)[K][number]]: TextParamTypes[P];
};

/** One sentence: its key and parameters. */
export type Sentence = { [K in TextKey]: { readonly key: K; readonly params: TextParams<K> } }[TextKey];

/** A sentence of the table with its parameters. */
export const say = <K extends TextKey>(key: K, params: TextParams<K>): Sentence =>
  ({ key, params }) as Sentence;

/** A list in English words (`d1, e1 and f1`), as the English catalog writes one. */
export const englishList = (items: readonly string[]): string =>
  new Intl.ListFormat('en', { style: 'long', type: 'conjunction' }).format(items);
