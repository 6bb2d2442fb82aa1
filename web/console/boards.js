// The boards page an operator watches during the round: every configured board from its retained
// `<base>/boards/<board>/state` (docs/mqtt.md, board status): connected, idle, lost or not
// responding, the game on it with its players, the clock, when it was last seen, serial,
// firmware and battery; and an alert for every problem the daemon reports (a board missing, a
// clock stopped too long while its game is under way, a board that does not show its game).
// Read over MQTT or server-sent events, as the display reads; the operator's forms (pairings,
// rebinding, rounds) go to the HTTP actions with the operator's own user and password. Every word
// comes from the catalog (`boards.*`, docs/i18n.md), in the reader's language (`?lang=es`).
//
//   /ui/console/boards.html                     (MQTT on port 9001 of the page's host)
//   /ui/console/boards.html?sse=/events         (server-sent events)
// With a broadcast delay the board states are read after the operator's login (over MQTT as that
// user; over server-sent events with the session cookie the login opens).

import { connectionText, playerName, setTranslator } from '../shared/format.js';
import { loadI18n } from '../shared/i18n.js';
import { LiveConnection, readSettings } from '../shared/live.js';
import { ActionSender, authorizationHeader } from './actions.js';

const i18n = await loadI18n();
const t = i18n.t;
setTranslator(t);
i18n.translate();
i18n.mountSwitch(document.querySelector('.page-header'));

const settings = readSettings();
const $ = id => document.getElementById(id);
const rows = $('board-rows');
const connection = $('connection');

/** Board states by board id, as last received. */
const boards = new Map();

/** A board's status (docs/mqtt.md, board status) in words; an unknown one as it comes. */
const statusText = status => {
  switch (status) {
    case 'connected':
      return t('boards.status.connected');
    case 'idle':
      return t('boards.status.idle');
    case 'lost':
      return t('boards.status.lost');
    case 'not_responding':
      return t('boards.status.not_responding');
  }
  return status;
};

/** A board's problem in words; an unknown one as it comes. */
const problemText = problem => {
  switch (problem) {
    case 'board_missing':
      return t('boards.problem.board_missing');
    case 'clock_paused':
      return t('boards.problem.clock_paused');
    case 'board_mismatch':
      return t('boards.problem.board_mismatch');
  }
  return problem;
};

/** The side of the clock that runs; an unknown one as it comes. */
const sideText = side => {
  switch (side) {
    case 'left':
      return t('boards.side.left');
    case 'right':
      return t('boards.side.right');
  }
  return side;
};

const boardName = state =>
  state.number ? t('boards.board_name', { number: state.number, board: state.board }) : state.board;

/** "12 s ago", "3 min ago", "2 h ago" ("hace 12 s" in Spanish). */
const ago = (at, now = Date.now()) => {
  if (typeof at !== 'number') return t('boards.never');
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return t('boards.ago.seconds', { n: s });
  if (s < 3600) return t('boards.ago.minutes', { n: Math.floor(s / 60) });
  return t('boards.ago.hours', { n: Math.floor(s / 3600) });
};

const clockText = clock => {
  if (!clock) return t('boards.clock.none');
  if (!clock.present) return t('boards.clock.not_attached');
  const low = clock.battery_low ? `, ${t('boards.clock.battery_low')}` : '';
  if (clock.running) return `${t('boards.clock.running', { side: sideText(clock.running) })}${low}`;
  return `${t('boards.clock.stopped', { ago: ago(clock.stopped_since) })}${low}`;
};

const gameText = (state, live) => {
  if (!state.game) return t('boards.no_game');
  const game = live?.store.get(state.game);
  return game?.hasSnapshot
    ? `${state.game}: ${playerName(game.white)} \u2013 ${playerName(game.black)}`
    : state.game;
};

const cell = (field, text) => {
  const td = document.createElement('td');
  td.dataset.field = field;
  td.textContent = text;
  return td;
};

const renderRow = (state, live) => {
  const row = document.createElement('tr');
  row.dataset.board = state.board;
  row.dataset.status = state.status ?? state.link;
  row.dataset.problems = (state.problems ?? []).join(' ');
  const status = cell('status', statusText(state.status ?? state.link));
  status.classList.add('board-status');
  status.dataset.status = state.status ?? '';
  const serial = [state.serial ?? '?', state.firmware ? `fw ${state.firmware}` : '']
    .filter(Boolean)
    .join(' · ');
  const battery = state.battery
    ? `${state.battery.percent ?? '?'} %${state.battery.charging ? `, ${t('boards.battery.charging')}` : ''}`
    : '\u2013';
  const seen = cell('last_seen', ago(state.last_seen));
  seen.dataset.at = String(state.last_seen ?? '');
  row.append(
    cell('board', boardName(state)),
    status,
    cell('game', gameText(state, live)),
    cell('clock', clockText(state.clock)),
    seen,
    cell('serial', serial),
    cell('battery', battery),
  );
  return row;
};

/** Boards in hall order: by number, then id. */
const ordered = () =>
  [...boards.values()].sort(
    (a, b) => (a.number ?? Infinity) - (b.number ?? Infinity) || a.board.localeCompare(b.board),
  );

let live = null;

const render = () => {
  const list = ordered();
  rows.replaceChildren(...list.map(state => renderRow(state, live)));
  $('no-boards').hidden = list.length > 0;
  const up = list.filter(s => s.status === 'connected' || s.status === 'idle').length;
  $('board-summary').textContent = list.length > 0 ? t('boards.summary', { up, total: list.length }) : '';
  const alerts = list.flatMap(state =>
    (state.problems ?? []).map(problem => {
      const item = document.createElement('li');
      item.dataset.board = state.board;
      item.dataset.problem = problem;
      const words = { board: boardName(state), problem: problemText(problem), game: state.game };
      item.textContent = state.game ? t('boards.alert_game', words) : t('boards.alert', words);
      return item;
    }),
  );
  $('board-alert-list').replaceChildren(...alerts);
  $('board-alert-count').textContent = String(alerts.length);
  $('no-board-alerts').hidden = alerts.length > 0;
};

/** The "last seen" and "stopped" times move on between states. */
setInterval(() => {
  if (boards.size > 0) render();
}, 1000);

const showStatus = status => {
  connection.dataset.status = status;
  connection.textContent = connectionText(status, live?.daemon);
};

/** Called with each board state, whichever connection brought it. */
const boardListeners = [];

/**
 * (Re)connects, as the logged-in operator when there is one (`login`): with a broadcast delay the
 * board states (they carry the position) are the arbiters' and operators' only, over MQTT with the
 * user's own broker login, over server-sent events with the session cookie of `POST /api/session`.
 */
const connect = login => {
  live?.stop();
  const next = new LiveConnection({
    ...settings,
    boards: true,
    ...(login && settings.transport === 'mqtt' ? { username: login.user, password: login.password } : {}),
  });
  live = next;
  next.onStatus(showStatus);
  next.onBoard(state => {
    boards.set(state.board, state);
    render();
  });
  for (const listener of boardListeners) next.onBoard(listener);
  next.store.subscribe(() => render());
  void next.start().catch(error => {
    if (live === next) connection.textContent = t('boards.conn.error', { error: error.message });
  });
};
connect(undefined);
const consoleLink = $('console-link');
consoleLink.search = window.location.search;

// --- the operator's forms -----------------------------------------------------------------------
// Sent as HTTP actions (`POST /api/arbiter/<action>`) with the operator's own user and password
// (docs/security.md): upload pairings, give a board another table, start / pause / finish a round.
// A refusal of the credentials locks the forms again.

let sender = null;
const opLogin = $('op-login');
const opForms = $('op-forms');

/** The session of the live stream (sessions.ts): opened at login, ended at logout. */
const SESSION_URL = new URL('../../api/session', import.meta.url).href;

const setOperator = (user, password) => {
  if (settings.transport === 'sse' && !user && sender)
    void fetch(SESSION_URL, { method: 'DELETE', credentials: 'same-origin' }).catch(() => undefined);
  sender = user
    ? new ActionSender({
        mode: 'http',
        api: new URL(window.location.href).searchParams.get('api') ?? '/api/arbiter/',
        credentials: { kind: 'password', secret: password, user },
      })
    : null;
  opLogin.hidden = Boolean(user);
  opForms.hidden = !user;
  $('op-who').textContent = user ?? '';
  $('op-password').value = '';
};

/** The name of one of the page's actions in words. */
const actionText = action => {
  switch (action) {
    case 'upload_pairings':
      return t('boards.action.upload_pairings');
    case 'rebind_board':
      return t('boards.action.rebind_board');
    case 'round_control':
      return t('boards.action.round_control');
  }
  return action;
};

/** What a done action did, in words, from the fields sent and the answer's data (docs/mqtt.md). */
const doneText = (action, fields, data = {}) => {
  switch (action) {
    case 'upload_pairings':
      return typeof data.pairings === 'number'
        ? t('boards.done.upload_pairings', { pairings: data.pairings })
        : '';
    case 'rebind_board':
      return t('boards.done.rebind_board', { board: fields.board_id, number: fields.number });
    case 'round_control': {
      const done = t(`boards.done.round.${fields.action}`, { round: fields.round });
      const playing = Array.isArray(data.games_in_play) ? data.games_in_play : [];
      return playing.length > 0
        ? `${done}; ${t('boards.done.games_in_play', { games: playing.join(', ') })}`
        : done;
    }
  }
  return '';
};

const logResponse = (action, fields, envelope) => {
  const item = document.createElement('li');
  item.dataset.action = action;
  item.dataset.status = envelope.status;
  const time = new Date().toLocaleTimeString(i18n.lang, {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const outcome =
    envelope.status === 'ok'
      ? [t('boards.response.ok'), doneText(action, fields, envelope.data ?? {})].filter(Boolean).join(' · ')
      : t('boards.response.refused', { error: i18n.refusalText(envelope) ?? t('boards.no_reason') });
  item.textContent = `${time} ${actionText(action)}: ${outcome}`;
  $('op-responses').prepend(item);
};

opLogin.addEventListener('submit', async event => {
  event.preventDefault();
  const user = $('op-user').value.trim();
  const password = $('op-password').value;
  if (!user || !password) {
    $('op-login-error').textContent = t('boards.enter_credentials');
    return;
  }
  $('op-login-error').textContent = '';
  setOperator(user, password);
  if (settings.transport === 'sse') {
    // The stream's cookie for this login; a refused login is said as the actions say it.
    const res = await fetch(SESSION_URL, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { authorization: authorizationHeader('password', password, user) },
    }).catch(error => ({ ok: false, status: 0, statusText: error.message }));
    if (!res.ok) {
      if (res.status === 401 || res.status === 403 || res.status === 429) setOperator(undefined);
      const why = res.status === 0 ? res.statusText : `HTTP ${res.status}`;
      $('op-login-error').textContent = t('boards.credentials_refused', { error: why });
      return;
    }
  }
  connect({ user, password });
});
// The form is handled from here on (boards.html keeps it disabled until then).
$('op-login-fields').disabled = false;
$('op-logout').addEventListener('click', () => {
  setOperator(undefined);
  connect(undefined);
});

/** The boards of the rebind form, in hall order. */
const refreshBoardChoices = () => {
  const select = opForms.querySelector('select[name="board_id"]');
  const ids = ordered().map(s => s.board);
  if ([...select.options].map(o => o.value).join() === ids.join()) return;
  const chosen = select.value;
  select.replaceChildren(
    ...ordered().map(state => {
      const option = document.createElement('option');
      option.value = state.board;
      option.textContent = boardName(state);
      return option;
    }),
  );
  if (ids.includes(chosen)) select.value = chosen;
};
boardListeners.push(refreshBoardChoices);
live.onBoard(refreshBoardChoices);

opForms.querySelector('input[type="file"]').addEventListener('change', async event => {
  const file = event.target.files?.[0];
  if (!file) return;
  const form = event.target.form;
  form.elements.text.value = await file.text();
  if (/\.csv$/i.test(file.name)) form.elements.format.value = 'csv';
});

for (const form of opForms.querySelectorAll('form.action')) {
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const action = form.dataset.action;
    const fields = {};
    for (const input of form.querySelectorAll('input[name], select[name], textarea[name]')) {
      if (input.type === 'file' || input.value === '') continue;
      fields[input.name] = input.type === 'number' ? Number(input.value) : input.value;
    }
    if (event.submitter?.name) fields[event.submitter.name] = event.submitter.value;
    if (!sender) return;
    const envelope = await sender.send(action, fields);
    logResponse(action, fields, envelope);
    if (envelope.auth) {
      setOperator(undefined);
      $('op-login-error').textContent = t('boards.credentials_refused', {
        error: i18n.refusalText(envelope),
      });
    }
  });
}
