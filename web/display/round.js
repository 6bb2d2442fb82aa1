// The round page: every game of one round as a card with its board, players, clocks, last move
// and result, in board order, live. Without `?round` it follows the current round: the round with
// the most games in play (the later on a tie; with none in play, the latest round), so a hall
// screen moves on by itself once most boards play the next round. `?round=3` stays on round 3,
// `?round=all` shows every game. `?boards=1-8` keeps a range of board numbers (one projector per
// group of boards). A card's heading opens the game on the large board page.

import { compareGames } from '../shared/store.js';
import { setMoveNotation, setTranslator } from '../shared/format.js';
import { loadI18n } from '../shared/i18n.js';
import { connectionText, linkWithSettings } from '../shared/format.js';
import { LiveConnection, publicSettings, readSettings } from '../shared/live.js';
import { createGameView } from './gameView.js';

// The reader's language and how moves are written (docs/i18n.md): figurines unless the reader
// chose letters (?notation=letters, or the switch).
const i18n = await loadI18n();
if (i18n.notation() === 'letters') setMoveNotation(i18n.localSan);
setTranslator(i18n.t);
i18n.translate();
i18n.mountSwitch(document.querySelector('.page-header') ?? document.body);
i18n.mountNotationSwitch(document.querySelector('.page-header') ?? document.body);

const params = new URL(window.location.href).searchParams;
const asked = params.get('round');
/** 'all', a fixed round, or null: follow the current round. */
const fixedRound = asked === null || asked === '' || asked === 'current' ? null : asked;
/** The round shown: fixed, or the current one (null until a game is known, and for 'all'). */
let round = fixedRound === 'all' ? null : fixedRound;
/** `?boards=1-8` (or `?boards=5`): the board numbers shown, else all. */
const boards = (() => {
  const m = /^(\d+)(?:-(\d+))?$/.exec(params.get('boards') ?? '');
  return m ? { from: Number(m[1]), to: Number(m[2] ?? m[1]) } : null;
})();
const inRange = state =>
  boards === null ||
  (state.board_number !== null && state.board_number >= boards.from && state.board_number <= boards.to);
// With a broadcast delay the page reads the delayed public snapshots, never the live topics.
const live = new LiveConnection(await publicSettings(readSettings()));
const grid = document.getElementById('games');
const empty = document.getElementById('empty');
const connection = document.getElementById('connection');
/** @type {Map<string, ReturnType<typeof createGameView>>} */
const views = new Map();

const showTitle = () => {
  const title = round ? `${i18n.t('ui.round')} ${round}` : i18n.t('ui.live_games');
  document.getElementById('round-title').textContent = title;
  document.title = round ? i18n.t('ui.live_suffix', { title }) : title;
};
showTitle();

/** The round with the most games in play, the later on a tie; with none in play, the latest. */
const currentRound = () => {
  const inPlay = new Map();
  let latest = null;
  const later = (a, b) => (b === null || Number(a) > Number(b) ? a : b);
  for (const state of live.store.list()) {
    if (!state.hasSnapshot || state.round === null || state.round === undefined) continue;
    latest = later(state.round, latest);
    if (state.status !== 'finished') inPlay.set(state.round, (inPlay.get(state.round) ?? 0) + 1);
  }
  let best = null;
  for (const [r, n] of inPlay) {
    const bestCount = best === null ? -1 : (inPlay.get(best) ?? 0);
    if (n > bestCount || (n === bestCount && Number(r) > Number(best))) best = r;
  }
  return best ?? latest;
};

const now = () => live.skew.daemonNow(Date.now());

/** Puts the cards in board order (only when a card was added or a game moved). */
const order = () => {
  const sorted = [...views.entries()]
    .map(([game, view]) => ({ view, state: live.store.get(game) }))
    .sort((a, b) => compareGames(a.state, b.state));
  if (sorted.some(({ view }, i) => grid.children[i] !== view.element))
    grid.replaceChildren(...sorted.map(s => s.view.element));
  requestAnimationFrame(fit);
};

/** Smallest board worth showing, in rem; below it the page scrolls instead. */
const MIN_BOARD_REM = 7;
/** Narrowest card, in rem: a long double surname still fits on two lines. */
const MIN_CARD_REM = 14;

/**
 * Sizes the cards so every board of the page is on screen, as large as possible (`?fit=0` leaves
 * the browser's own auto-fill, which may scroll). For each number of rows, the fewest columns
 * that hold the cards are laid out and measured: the board is as wide as a column allows and as
 * tall as the rows allow once the lines above and below it are counted on the tallest card (a long
 * name wraps in a narrow card and makes it taller). Cards narrower than MIN_CARD_REM are not
 * tried; the largest board wins, and among equals the fewest columns.
 */
const fit = () => {
  const card = grid.firstElementChild;
  const loose = () => {
    grid.style.gridTemplateColumns = '';
    grid.style.removeProperty('--board-size');
  };
  if (params.get('fit') === '0' || !card?.querySelector('.board-host')) return loose();
  const styles = getComputedStyle(grid);
  const gap = parseFloat(styles.columnGap) || 0;
  const width = grid.clientWidth - parseFloat(styles.paddingLeft) - parseFloat(styles.paddingRight);
  const height =
    window.innerHeight -
    grid.getBoundingClientRect().top -
    parseFloat(styles.paddingTop) -
    parseFloat(styles.paddingBottom);
  const cardStyles = getComputedStyle(card);
  // Borders and padding: the board takes the rest of a card's width unless --board-size caps it.
  const extraWidth =
    card.offsetWidth -
    card.clientWidth +
    parseFloat(cardStyles.paddingLeft) +
    parseFloat(cardStyles.paddingRight);
  const cards = [...grid.children];
  const layout = (columns, size) => {
    grid.style.gridTemplateColumns = `repeat(${columns}, minmax(0, 1fr))`;
    grid.style.setProperty('--board-size', `${size}px`);
  };
  const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
  const sizes = [];
  const tried = new Set();
  for (let rows = views.size; rows >= 1; rows--) {
    const columns = Math.ceil(views.size / rows);
    if (tried.has(columns)) continue;
    tried.add(columns);
    const column = (width - gap * (columns - 1)) / columns;
    const byWidth = Math.floor(column - extraWidth);
    if (byWidth < MIN_BOARD_REM * rem || (columns > 1 && column < MIN_CARD_REM * rem)) continue;
    // The lines above and below a board depend on the card's width only: measured at this width.
    layout(columns, byWidth);
    const extraHeight = Math.max(
      ...cards.map(c => c.offsetHeight - (c.querySelector('.board-host')?.offsetHeight ?? 0)),
    );
    const used = Math.ceil(views.size / columns);
    const byHeight = Math.floor((height - gap * (used - 1)) / used - extraHeight);
    sizes.push({ columns, size: Math.min(byWidth, byHeight) });
  }
  const best = sizes.reduce((a, b) => (b.size > a.size ? b : a), { columns: 1, size: 0 });
  if (best.size < MIN_BOARD_REM * rem) return loose();
  layout(best.columns, best.size);
};

window.addEventListener('resize', fit);

const render = game => {
  const state = live.store.get(game);
  const belongs = state?.hasSnapshot && (round === null || state.round === round) && inRange(state);
  let view = views.get(game);
  if (!belongs) {
    if (view) {
      view.element.remove();
      views.delete(game);
    }
  } else {
    const added = !view;
    if (!view) {
      view = createGameView({
        href: linkWithSettings('board.html', { game }),
        withRound: fixedRound === 'all',
      });
      views.set(game, view);
    }
    const before = view.element.dataset.order;
    view.update(state, now());
    view.element.dataset.order = `${state.round}|${state.board_number}`;
    if (added || before !== view.element.dataset.order) order();
    const event = state.event;
    if (event) document.getElementById('event-name').textContent = event;
  }
  empty.hidden = views.size > 0;
};

live.store.subscribe(({ game }) => {
  if (fixedRound === null) {
    const next = currentRound();
    if (next !== round) {
      // The hall moved on: every card is checked against the new round.
      round = next;
      showTitle();
      live.store.list().forEach(state => render(state.game));
      views.forEach((_, g) => render(g));
    }
  }
  render(game);
});
live.onStatus(status => {
  connection.dataset.status = status;
  connection.textContent = connectionText(status, live.daemon);
});
setInterval(() => {
  const t = now();
  views.forEach(view => view.tick(t));
}, 200);

live.start().catch(error => {
  connection.textContent = error.message;
});
