// The one-board page: a game large (`?game=r1-b1`, `&flip=1` for Black at the bottom) with the
// full move list, for the hall projector or a commentary screen. Without `?game`, it lists the
// games it knows as links.

import { compareGames } from '../shared/store.js';
import { setMoveNotation, setTranslator } from '../shared/format.js';
import { loadI18n } from '../shared/i18n.js';
import { connectionText, linkWithSettings, playerName } from '../shared/format.js';
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
const gameId = params.get('game');
// With a broadcast delay the page reads the delayed public snapshots, never the live topics.
const live = new LiveConnection(await publicSettings(readSettings()));
const main = document.getElementById('main');
const empty = document.getElementById('empty');
const connection = document.getElementById('connection');
const now = () => live.skew.daemonNow(Date.now());

const showGame = () => {
  const view = createGameView({ large: true, orientation: params.get('flip') === '1' ? 'black' : 'white' });
  let shown = false;
  live.store.subscribe(({ game, state }) => {
    if (game !== gameId || !state?.hasSnapshot) return;
    if (!shown) {
      shown = true;
      empty.hidden = true;
      main.append(view.element);
    }
    view.update(state, now());
    const title = `${playerName(state.white)} – ${playerName(state.black)}`;
    document.getElementById('game-title').textContent =
      [
        state.event,
        state.round ? `${i18n.t('ui.round')} ${state.round}` : '',
        state.board_number ? `${i18n.t('ui.board')} ${state.board_number}` : '',
      ]
        .filter(Boolean)
        .join(' · ') || state.game;
    document.title = i18n.t('ui.live_suffix', { title });
  });
  setInterval(() => view.tick(now()), 200);
};

const showPicker = () => {
  empty.textContent = i18n.t('ui.choose_game');
  const list = document.createElement('ul');
  list.className = 'game-picker';
  main.append(list);
  live.store.subscribe(() => {
    const items = live.store
      .list()
      .filter(state => state.hasSnapshot)
      .sort(compareGames)
      .map(state => {
        const link = document.createElement('a');
        link.href = linkWithSettings('board.html', { game: state.game });
        link.textContent = `${state.round ? `${i18n.t('ui.round')} ${state.round}, ` : ''}${
          state.board_number ? `${i18n.t('ui.board')} ${state.board_number}` : state.game
        }: ${playerName(state.white)} – ${playerName(state.black)}`;
        const item = document.createElement('li');
        item.append(link);
        return item;
      });
    list.replaceChildren(...items);
  });
};

if (gameId) showGame();
else showPicker();

live.onStatus(status => {
  connection.dataset.status = status;
  connection.textContent = connectionText(status, live.daemon);
});
live.start().catch(error => {
  connection.textContent = error.message;
});
