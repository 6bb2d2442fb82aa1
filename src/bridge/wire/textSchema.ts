/**
 * The schema of `text`: an alert's, finding's or claim's `detail` as data, the sentences of the
 * supervisor (src/engine/texts.ts) each with its key and parameters. A consumer that shows text
 * to people renders each sentence from its key with a message catalog (`detail.<key>`,
 * docs/i18n.md); the English `detail` stays beside it for those that print what they get.
 *
 *   { "key": "touch.own", "params": { "color": "white", "piece": "pawn", "square": "a2", "from": "g1" } }
 */
import { Type } from '@sinclair/typebox';
import { TEXT_PARAMS } from '../../engine/texts.js';
import { Color, closed, oneOf } from './primitives.js';

const Piece = oneOf(['pawn', 'knight', 'bishop', 'rook', 'queen', 'king'], 'A piece.');
const Square = Type.String({ pattern: '^[a-h][1-8]$', description: 'A square (`e4`).' });
const Count = Type.Integer({ minimum: 0 });
const San = Type.String({ description: 'A move in SAN (English letters).' });

/** Every parameter a sentence may carry, by name; each sentence carries those its key lists. */
export const TextParamsSchema = Type.Object(
  {
    color: Type.Optional(Color),
    opponent: Type.Optional(Color),
    claimant: Type.Optional(Color),
    piece: Type.Optional(Piece),
    first: Type.Optional(Piece),
    chosen: Type.Optional(Piece),
    victim: Type.Optional(Piece),
    square: Type.Optional(Square),
    from: Type.Optional(Square),
    to: Type.Optional(Square),
    squares: Type.Optional(Type.Array(Square)),
    touched: Type.Optional(Type.Array(Type.Object({ piece: Piece, square: Square }, closed))),
    ply: Type.Optional(Count),
    from_ply: Type.Optional(Count),
    to_ply: Type.Optional(Count),
    count: Type.Optional(Count),
    more: Type.Optional(Count),
    lost: Type.Optional(Count),
    moves: Type.Optional(Type.Array(San)),
    orders: Type.Optional(Type.Array(Type.Array(San))),
    given: Type.Optional(Type.String({ description: 'A move as a person gave it (shown as it came).' })),
  },
  { ...closed, description: 'The sentence’s parameters: those its key lists (docs/i18n.md).' },
);

export const Sentence = Type.Object(
  {
    key: oneOf(Object.keys(TEXT_PARAMS), 'Which sentence: its text is `detail.<key>` in a catalog.'),
    params: TextParamsSchema,
  },
  closed,
);

export const Text = Type.Array(Sentence, {
  description: 'The `detail` as data: sentences to render in the reader’s language (docs/i18n.md).',
});
