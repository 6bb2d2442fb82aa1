// The arbiter console: nothing but the login form until the arbiter gives the password or token;
// then the alerts with their evidence, the position of the selected game, the action forms, and
// the response to every action sent. Over MQTT (default) the secret is the broker password of
// the console's connection (user `?user=`, default `arbiter`), so a broker with credentials
// refuses a wrong one at connect; over HTTP (`?actions=http`, the default with `?sse=`) it goes
// in the Authorization header of every action, and a 401 or 403 locks the console again.

import { makeBoardSvg } from '../shared/board.js';
import {
  boardLabel,
  connectionText,
  moveText,
  playerName,
  setMoveNotation,
  setTranslator,
  statusText,
} from '../shared/format.js';
import { LiveConnection, readSettings } from '../shared/live.js';
import { ACTION_LABELS, ActionSender, authorizationHeader } from './actions.js';
import { alertKey, alertMessage, createAlertCard } from './alerts.js';
import { loadI18n } from '../shared/i18n.js';

// The reader's language (docs/i18n.md): the page's words (`data-i18n`) and every text it writes
// come from the catalog; moves in figurines unless the reader chose the language's letters.
const i18n = await loadI18n();
const t = i18n.t;
if (i18n.notation() === 'letters') setMoveNotation(i18n.localSan);
setTranslator(t);
i18n.translate();
i18n.mountSwitch(document.querySelector('.page-header'));
i18n.mountNotationSwitch(document.querySelector('.page-header'));
const clockTime = new Intl.DateTimeFormat(i18n.lang, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

const params = new URL(window.location.href).searchParams;
const settings = readSettings();
const mode =
  (params.get('actions') ?? (settings.transport === 'sse' ? 'http' : 'mqtt')) === 'http' ? 'http' : 'mqtt';
/** Alerts kept on the page at most. */
const MAX_ALERTS = 200;

const $ = id => document.getElementById(id);
const loginSection = $('login');
const loginForm = $('login-form');
const loginError = $('login-error');
const workspace = $('workspace');
const connection = $('connection');
const logoutButton = $('logout');
const gameSelect = $('game-select');
const alertList = $('alert-list');
const responseLog = $('response-log');

/** @type {LiveConnection|null} */
let live = null;
/** @type {ActionSender|null} */
let sender = null;
let selectedGame = '';
const alertKeys = new Set();
/** Alert cards by key, for withdrawals. */
const cardsByKey = new Map();
/** Findings that are not alerts (possible breaches, information), by game, newest last. */
const findingsByGame = new Map();
/** Findings kept per game at most. */
const MAX_FINDINGS = 100;

$('secret-kind').hidden = mode === 'mqtt';
// The boards page reads from the same place as this one.
$('boards-link').search = window.location.search;

const showStatus = status => {
  connection.dataset.status = status;
  connection.textContent = connectionText(status, live?.daemon);
};

const setLocked = (locked, message = '') => {
  loginSection.hidden = !locked;
  workspace.hidden = locked;
  logoutButton.hidden = locked;
  loginError.textContent = message;
  if (locked) {
    $('secret').value = '';
    $('secret').focus();
  }
};

/** Locks the console and forgets what the session showed (another arbiter may log in next). */
/** The live stream's session (POST /api/session, docs/security.md); refused credentials throw. */
const SESSION_URL = new URL('../../api/session', import.meta.url).href;
const openSession = async (kind, secret) => {
  const res = await fetch(SESSION_URL, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { authorization: authorizationHeader(kind, secret, params.get('user') || 'arbiter') },
  });
  if (res.status !== 401 && res.status !== 429) return;
  // Refused: without a delay the stream needs no login (the actions will say it); with one it does.
  const info = await fetch(new URL('../../api/broadcast', import.meta.url).href, { cache: 'no-store' })
    .then(r => r.json())
    .catch(() => ({}));
  if (Number(info?.delay_ms) > 0) throw new Error(`HTTP ${res.status}`);
};

const logout = message => {
  if (live && settings.transport === 'sse')
    void fetch(SESSION_URL, { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
  live?.stop();
  live = null;
  sender = null;
  selectedGame = '';
  alertKeys.clear();
  cardsByKey.clear();
  findingsByGame.clear();
  alertList.replaceChildren();
  responseLog.replaceChildren();
  gameSelect.replaceChildren();
  $('alert-count').textContent = '0';
  $('no-alerts').hidden = false;
  showStatus('offline');
  connection.textContent = t('console.conn.none');
  setLocked(true, message);
};

// --- the selected game ------------------------------------------------------------------------

const gameLabel = state =>
  `${state.board_number ? boardLabel(state.board_number) : state.game}: ${playerName(state.white)} \u2013 ${playerName(state.black)}`;

const refreshGameOptions = () => {
  const games = live ? live.store.list().filter(state => state.hasSnapshot) : [];
  const options = games.map(state => {
    const option = document.createElement('option');
    option.value = state.game;
    option.textContent = gameLabel(state);
    return option;
  });
  const current = [...gameSelect.options].map(o => `${o.value}|${o.textContent}`).join('\n');
  if (current !== options.map(o => `${o.value}|${o.textContent}`).join('\n'))
    gameSelect.replaceChildren(...options);
  if (!selectedGame && games[0]) selectedGame = games[0].game;
  gameSelect.value = selectedGame;
};

/** A finding's or alert's sentence in the reader's language. */
const messageOf = alert => alertMessage(alert, i18n);

/** The selected game's findings: what the board suggests but does not prove, for a player's claim. */
const renderFindings = () => {
  const list = $('finding-list');
  const findings = findingsByGame.get(selectedGame) ?? [];
  $('no-findings').hidden = findings.length > 0;
  list.replaceChildren(
    ...[...findings].reverse().map(f => {
      const item = document.createElement('li');
      item.dataset.code = f.code;
      item.dataset.grade = f.grade ?? '';
      item.dataset.ply = String(f.ply ?? '');
      const grade = f.breach === false ? 'information' : (f.grade ?? 'proven');
      item.textContent = t('console.finding', {
        ply: f.ply ?? '?',
        grade: t(`console.grade.${grade}`),
        article: f.article ?? '?',
        message: messageOf(f),
      });
      return item;
    }),
  );
};

const renderGame = () => {
  renderFindings();
  const state = selectedGame ? live?.store.get(selectedGame) : undefined;
  const board = $('game-board');
  board.dataset.game = selectedGame;
  if (!state?.hasSnapshot) {
    board.replaceChildren();
    $('game-players').textContent = selectedGame
      ? t('console.waiting_game', { game: selectedGame })
      : t('console.no_game');
    for (const id of ['game-status', 'game-last-move', 'game-ply']) $(id).textContent = '';
    return;
  }
  board.replaceChildren(
    makeBoardSvg({ fen: state.fen, lastMove: state.last_move?.uci, label: gameLabel(state) }),
  );
  $('game-players').textContent = gameLabel(state);
  $('game-status').textContent = statusText(state);
  $('game-last-move').textContent = state.last_move
    ? t('ui.last_move', { move: moveText(state.last_move) })
    : t('ui.no_move');
  $('game-ply').textContent = t('console.position_after', { ply: state.moves.length });
  $('game-ply').dataset.ply = String(state.moves.length);
  workspace.querySelector('form[data-action="restore_position"] input[name="ply"]').placeholder = String(
    state.moves.length,
  );
  const resync = workspace.querySelector('form[data-action="resync_board"] input[name="board_id"]');
  if (resync && !resync.value && state.board) resync.value = state.board;
};

const selectGame = game => {
  selectedGame = game;
  refreshGameOptions();
  renderGame();
};

gameSelect.addEventListener('change', () => selectGame(gameSelect.value));

// --- actions and responses --------------------------------------------------------------------

const logResponse = (action, fields, envelope) => {
  const item = document.createElement('li');
  item.dataset.action = action;
  item.dataset.status = envelope.status;
  item.dataset.transaction = String(envelope.transaction ?? '');
  const time = clockTime.format(new Date());
  const what = `${Object.hasOwn(ACTION_LABELS, action) ? t(`console.action.${action}`) : action} (${JSON.stringify(fields)})`;
  const outcome =
    envelope.status === 'ok'
      ? JSON.stringify(envelope.data ?? {})
      : t('console.response.error', { error: i18n.refusalText(envelope) ?? t('console.no_reason') });
  const strong = document.createElement('strong');
  strong.textContent = envelope.status === 'ok' ? t('console.response.ok') : t('console.response.refused');
  item.append(`${time} `, strong, ` ${what} \u2192 ${outcome} [${envelope.transaction ?? '-'}]`);
  responseLog.prepend(item);
};

const send = async (action, fields, card) => {
  if (!sender) {
    setLocked(true, t('console.log_in_first'));
    return;
  }
  const envelope = await sender.send(action, fields);
  logResponse(action, fields, envelope);
  card?.report(action, envelope);
  if (envelope.auth) logout(t('console.credentials_refused', { error: i18n.refusalText(envelope) }));
};

/** Reads a form's fields: numbers as numbers, empty optional fields left out. */
const readForm = form => {
  const fields = {};
  for (const input of form.querySelectorAll('input[name], select[name]')) {
    if (input.value === '') continue;
    fields[input.name] = input.type === 'number' ? Number(input.value) : input.value;
  }
  return fields;
};

for (const form of workspace.querySelectorAll('form.action')) {
  form.addEventListener('submit', event => {
    event.preventDefault();
    const action = form.dataset.action;
    const fields = readForm(form);
    if (action !== 'resync_board') {
      if (!selectedGame) {
        logResponse(action, fields, { status: 'error', error: t('console.choose_game_first') });
        return;
      }
      fields.game_id = selectedGame;
    }
    void send(action, fields);
  });
}

// --- alerts -----------------------------------------------------------------------------------

/** Alerts still standing (not withdrawn). */
const countAlerts = () => {
  const standing = [...alertList.children].filter(card => !card.classList.contains('withdrawn')).length;
  $('alert-count').textContent = String(standing);
  $('no-alerts').hidden = alertList.children.length > 0;
};

const showAlert = alert => {
  const key = alertKey(alert);
  if (alertKeys.has(key)) return;
  alertKeys.add(key);
  if (typeof alert.withdraws === 'string') {
    cardsByKey
      .get(alert.withdraws)
      ?.withdraw(alert.reason, alert.reason ? t(`detail.withdrawn.${alert.reason}`) : alert.message);
    countAlerts();
    return;
  }
  if (alert.finding === true) {
    const list = findingsByGame.get(alert.game) ?? [];
    list.push(alert);
    if (list.length > MAX_FINDINGS) list.shift();
    findingsByGame.set(alert.game, list);
    if (alert.game === selectedGame) renderFindings();
    return;
  }
  const card = createAlertCard(alert, {
    i18n,
    onAction: (action, fields, from) => void send(action, fields, from),
    onSelectGame: selectGame,
  });
  cardsByKey.set(key, card);
  alertList.prepend(card.element);
  while (alertList.children.length > MAX_ALERTS) {
    cardsByKey.delete(alertList.lastElementChild.dataset.key);
    alertList.lastElementChild.remove();
  }
  countAlerts();
  if (alert.game) selectGame(alert.game);
};

// --- login ------------------------------------------------------------------------------------

loginForm.addEventListener('submit', async event => {
  event.preventDefault();
  const secret = $('secret').value;
  if (!secret) {
    loginError.textContent = t('console.enter_secret');
    return;
  }
  const kind = loginForm.elements.kind.value === 'password' ? 'password' : 'token';
  $('login-button').disabled = true;
  loginError.textContent = '';
  const connectionOptions =
    mode === 'mqtt'
      ? {
          ...settings,
          alerts: true,
          responses: true,
          username: params.get('user') || 'arbiter',
          password: secret,
        }
      : { ...settings, alerts: true };
  const next = new LiveConnection(connectionOptions);
  next.onStatus(showStatus);
  next.onAlert(showAlert);
  next.store.subscribe(({ game }) => {
    refreshGameOptions();
    if (game === selectedGame) renderGame();
  });
  live = next;
  try {
    if (mode === 'mqtt' && settings.transport !== 'mqtt')
      throw new Error('MQTT actions need the MQTT connection');
    // Over server-sent events the stream needs a login while a broadcast delay is set: the
    // login's session cookie (an EventSource sends no Authorization header).
    if (settings.transport === 'sse') await openSession(kind, secret);
    await next.start();
  } catch (error) {
    $('login-button').disabled = false;
    logout(error.kind === 'refused' ? t('console.broker_refused') : error.message);
    return;
  }
  $('login-button').disabled = false;
  sender = new ActionSender({
    mode,
    live: next,
    api: params.get('api') ?? '/api/arbiter/',
    credentials: { kind, secret },
  });
  $('secret').value = '';
  setLocked(false);
  refreshGameOptions();
  renderGame();
});

logoutButton.addEventListener('click', () => logout(t('console.logged_out')));
// The form is handled from here on (index.html keeps it disabled until then).
$('login-fields').disabled = false;
setLocked(true);
