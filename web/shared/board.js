// Draws a chess position as inline SVG: squares, pieces (the chess symbols of Unicode, filled
// white with a black outline or black with a light rim, so both read on either square colour),
// coordinates, the last move highlighted and squares marked for the arbiter. No image files.
// Every square and piece carries data-square / data-piece, so tests and scripts can read the
// diagram back.
//
//   boardHost.replaceChildren(makeBoardSvg({ fen, lastMove: 'g1f3', label: 'Board 1' }));

const SVG_NS = 'http://www.w3.org/2000/svg';
const FILES = 'abcdefgh';
/** Filled chess symbols, with the text-presentation selector so no system shows an emoji pawn. */
const GLYPHS = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const NAMES = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
const SAN_LETTERS = { k: 'K', q: 'Q', r: 'R', b: 'B', n: 'N', p: '' };

/**
 * The pieces of the board part of a FEN (the text up to the first space) by square name, or
 * null when it does not describe 8 ranks of 8 squares.
 * @returns {Map<string, string>|null} e.g. 'e1' → 'K', 'e8' → 'k'
 */
export const parsePlacement = fen => {
  if (typeof fen !== 'string') return null;
  const ranks = fen.trim().split(/\s+/)[0].split('/');
  if (ranks.length !== 8) return null;
  const pieces = new Map();
  for (let r = 0; r < 8; r++) {
    let file = 0;
    for (const ch of ranks[r]) {
      if (/[1-8]/.test(ch)) file += Number(ch);
      else if (/[kqrbnp]/i.test(ch)) {
        if (file > 7) return null;
        pieces.set(`${FILES[file]}${8 - r}`, ch);
        file += 1;
      } else return null;
    }
    if (file !== 8) return null;
  }
  return pieces;
};

/** The squares of a UCI move (`e2e4`, `e7e8q`), or [] when it is not one. */
export const moveSquares = uci => {
  const m = typeof uci === 'string' ? /^([a-h][1-8])([a-h][1-8])/.exec(uci) : null;
  return m ? [m[1], m[2]] : [];
};

/** Words for a position: "White: King g1, Rook f1 …. Black: …" (the diagram's accessible text). */
export const describePlacement = pieces => {
  if (!pieces) return 'Position not readable';
  const side = white =>
    [...pieces]
      .filter(([, p]) => (p === p.toUpperCase()) === white)
      .sort(([, a], [, b]) => 'kqrbnp'.indexOf(a.toLowerCase()) - 'kqrbnp'.indexOf(b.toLowerCase()))
      .map(([sq, p]) => `${NAMES[p.toLowerCase()]} ${sq}`)
      .join(', ');
  return `White: ${side(true) || 'no pieces'}. Black: ${side(false) || 'no pieces'}.`;
};

/** The pieces as a short text: "Kg1 Qd1 … / Kg8 …" (for compact logs). */
export const listPieces = pieces =>
  pieces
    ? [true, false]
        .map(white =>
          [...pieces]
            .filter(([, p]) => (p === p.toUpperCase()) === white)
            .map(([sq, p]) => `${SAN_LETTERS[p.toLowerCase()]}${sq}`)
            .join(' '),
        )
        .join(' / ')
    : '';

const el = (name, attrs = {}, text) => {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
};

/**
 * The diagram of a position as an <svg> element.
 * @param {object} options
 * @param {string} options.fen a FEN, or only its board part (a board may show an illegal one)
 * @param {string} [options.lastMove] UCI of the move to highlight
 * @param {string[]} [options.marks] squares to outline (alert evidence)
 * @param {'white'|'black'} [options.orientation] side at the bottom (default white)
 * @param {boolean} [options.coordinates] file and rank letters inside the edge squares (default true)
 * @param {string} [options.label] accessible name, before the description of the position
 */
export const makeBoardSvg = ({
  fen,
  lastMove,
  marks = [],
  orientation = 'white',
  coordinates = true,
  label,
}) => {
  const pieces = parsePlacement(fen);
  const highlighted = new Set(moveSquares(lastMove));
  const marked = new Set(marks);
  const svg = el('svg', {
    viewBox: '0 0 800 800',
    class: 'board',
    role: 'img',
    'data-placement': fen ? String(fen).trim().split(/\s+/)[0] : '',
    'data-move': lastMove ?? '',
  });
  svg.append(el('title', {}, `${label ? `${label}. ` : ''}${describePlacement(pieces)}`));
  const flip = orientation === 'black';
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const file = flip ? 7 - col : col;
      const rank = flip ? row + 1 : 8 - row;
      const square = `${FILES[file]}${rank}`;
      const light = (file + rank) % 2 === 1;
      const x = col * 100;
      const y = row * 100;
      const classes = ['sq', light ? 'light' : 'dark'];
      if (highlighted.has(square)) classes.push('last-move');
      svg.append(
        el('rect', { x, y, width: 100, height: 100, class: classes.join(' '), 'data-square': square }),
      );
      if (marked.has(square))
        svg.append(
          el('rect', { x: x + 5, y: y + 5, width: 90, height: 90, class: 'mark', 'data-mark': square }),
        );
      if (coordinates && col === 0)
        svg.append(
          el('text', { x: x + 5, y: y + 20, class: `coord ${light ? 'on-light' : 'on-dark'}` }, String(rank)),
        );
      if (coordinates && row === 7)
        svg.append(
          el(
            'text',
            { x: x + 92, y: y + 95, class: `coord file ${light ? 'on-light' : 'on-dark'}` },
            FILES[file],
          ),
        );
      const piece = pieces?.get(square);
      if (piece) {
        const white = piece === piece.toUpperCase();
        svg.append(
          el(
            'text',
            {
              x: x + 50,
              y: y + 54,
              class: `piece ${white ? 'white' : 'black'}`,
              'data-square': square,
              'data-piece': piece,
              'aria-hidden': 'true',
            },
            `${GLYPHS[piece.toLowerCase()]}\uFE0E`,
          ),
        );
      }
    }
  }
  if (!pieces) svg.append(el('text', { x: 400, y: 400, class: 'unreadable' }, 'position not readable'));
  return svg;
};
