// One game on the display: both players with their clocks, the board diagram with the last move
// highlighted, the status line, the result, and the moves (all of them on the large view, the
// last few on a round page card). `update(state)` redraws from the store's state; `tick(now)`
// only refreshes the clock of the running side.
//
//   const view = createGameView({ large: true });
//   main.append(view.element);
//   view.update(store.get('r1-b1'));
//   setInterval(() => view.tick(skew.daemonNow(Date.now())), 200);

import { makeBoardSvg } from '../shared/board.js';
import { describeClock, formatClock, remainingMs } from '../shared/clock.js';
import {
  boardLabel,
  moveNumber,
  movesLabel,
  roundLabel,
  lastMoveText,
  moveText,
  sanText,
  givenName,
  playerDetails,
  playerName,
  resultText,
  scoreOf,
  shortName,
  shortStatusText,
  statusText,
} from '../shared/format.js';

/** Clock readings below this are shown as low time. */
const LOW_TIME_MS = 60_000;

const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
};

let views = 0;

/**
 * @param {object} options
 * @param {boolean} [options.large] the one-board page (full move list, bigger type)
 * @param {string} [options.href] where the card's heading links to (round page)
 * @param {'white'|'black'} [options.orientation]
 */
export const createGameView = ({ large = false, href, orientation = 'white', withRound = false } = {}) => {
  views += 1;
  const headingId = `game-heading-${views}`;
  const heading = h('h2', { id: headingId });
  const status = h('p', { class: 'status', 'data-status': '' });
  const result = h('p', { class: 'result', 'data-result': '', 'aria-live': 'polite' });
  const boardHost = h('div', { class: 'board-host' });
  const lastMove = h('p', { class: 'last-move', 'data-last-move': '' });
  const moves = h('ol', { class: 'moves', 'aria-label': movesLabel() });

  const playerRow = color => {
    const name = h('span', { class: 'name', 'data-name': color });
    const details = h('span', { class: 'details' });
    const score = h('span', { class: 'score', 'data-score': color });
    const clock = h('span', { class: 'clock', 'data-clock': color, role: 'timer', 'aria-live': 'off' });
    const row = h(
      'div',
      { class: `player ${color}` },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      h('span', { class: 'who' }, name, details),
      score,
      clock,
    );
    return { row, name, details, score, clock };
  };
  const white = playerRow('white');
  const black = playerRow('black');
  const top = orientation === 'white' ? black : white;
  const bottom = orientation === 'white' ? white : black;
  top.row.classList.add('top');
  bottom.row.classList.add('bottom');

  // A card keeps to one line above and below the board, so a round fits a projector screen.
  const info = large
    ? h('div', { class: 'info' }, status, result, lastMove)
    : h('div', { class: 'info' }, lastMove, result);
  const element = h(
    'article',
    { class: large ? 'game large' : 'game card', 'aria-labelledby': headingId },
    large ? h('header', {}, heading) : h('header', {}, heading, status),
    top.row,
    boardHost,
    bottom.row,
    info,
    ...(large ? [h('section', { class: 'move-list', 'aria-label': 'Move list' }, moves)] : []),
  );

  let state = null;
  let shownMoves = '';

  /** The full move list, one row per move number, the last ply marked as current. */
  const renderMoves = () => {
    const plies = state.moves;
    const key = `${plies.join(' ')}|${state.last_move?.ply ?? 0}`;
    if (key === shownMoves) return;
    shownMoves = key;
    const items = [];
    for (let ply = 1; ply <= plies.length; ply += 2) {
      const number = Math.ceil(ply / 2);
      const item = h('li', { value: String(number) }, h('span', { class: 'num' }, `${number}.`));
      for (const p of [ply, ply + 1].filter(p => p <= plies.length)) {
        const cell = h(
          'span',
          { class: 'ply', 'data-ply': String(p) },
          plies[p - 1] ? sanText(plies[p - 1]) : '\u2026',
        );
        if (p === plies.length) {
          cell.classList.add('current');
          cell.setAttribute('aria-current', 'true');
        }
        item.append(cell);
      }
      items.push(item);
    }
    moves.replaceChildren(...items);
    moves.querySelector('.current')?.scrollIntoView({ block: 'nearest' });
  };

  const tick = now => {
    if (!state) return;
    // A finished game's clocks stand still whatever the last reading says.
    const clocks = state.result === '*' || !state.clocks ? state.clocks : { ...state.clocks, running: null };
    for (const [side, color] of [
      [white, 'white'],
      [black, 'black'],
    ]) {
      const ms = remainingMs(clocks, color, now);
      side.clock.textContent = formatClock(ms);
      side.clock.setAttribute('aria-label', `${color} clock: ${describeClock(ms)}`);
      side.clock.classList.toggle('running', clocks?.running === color);
      side.clock.classList.toggle('low', ms !== null && ms < LOW_TIME_MS);
    }
  };

  const update = (next, now) => {
    state = next;
    if (!state) return;
    element.dataset.game = state.game;
    const board = state.board_number ? boardLabel(state.board_number) : state.game;
    // Where a page shows several rounds, each card says its round.
    const title = withRound && state.round ? `${roundLabel(state.round)} · ${board}` : board;
    const names = `${playerName(state.white)} \u2013 ${playerName(state.black)}`;
    heading.replaceChildren(
      href ? h('a', { href }, title) : title,
      h('span', { class: 'visually-hidden' }, `: ${names}`),
    );
    for (const [side, color] of [
      [white, 'white'],
      [black, 'black'],
    ]) {
      side.name.textContent = large ? playerName(state[color]) : shortName(state[color]);
      side.name.title = playerName(state[color]);
      // A card shows the title and surname on the name line (wrapped, never cut) and the given
      // names after the rating and federation, the part that may be cut short.
      const given = large ? '' : givenName(state[color]);
      side.details.textContent = [playerDetails(state[color]), given].filter(Boolean).join(' \u00b7 ');
      side.score.textContent = scoreOf(state.result, color);
    }
    status.textContent = large ? statusText(state) : shortStatusText(state);
    result.textContent = state.result === '*' ? '' : resultText(state.result);
    result.hidden = state.result === '*';
    element.classList.toggle('finished', state.result !== '*');
    lastMove.textContent = state.last_move
      ? lastMoveText(moveText(state.last_move))
      : lastMoveText(undefined);
    const label = `${title}, ${names}, ${state.last_move ? `after ${moveNumber(state.last_move.ply)} ${sanText(state.last_move.san)}` : 'start'}`;
    boardHost.replaceChildren(
      makeBoardSvg({ fen: state.fen, lastMove: state.last_move?.uci, orientation, label }),
    );
    if (large) renderMoves();
    tick(now);
  };

  return {
    element,
    update,
    tick,
    get game() {
      return state?.game;
    },
  };
};
