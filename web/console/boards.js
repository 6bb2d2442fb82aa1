// The boards page an operator watches during the round: every configured board from its retained
// `<base>/boards/<board>/state` (docs/mqtt.md, board status): connected, idle, lost or not
// responding, the game on it with its players, the clock, when it was last seen, serial,
// firmware and battery; and an alert for every problem the daemon reports (a board missing, a
// clock stopped too long while its game is under way, a board that does not show its game).
// Read over MQTT or server-sent events, as the display reads; the operator's forms (pairings,
// rebinding, rounds) go to the HTTP actions with the operator's own user and password.
//
//   /ui/console/boards.html                     (MQTT on port 9001 of the page's host)
//   /ui/console/boards.html?sse=/events         (server-sent events)

import { connectionText, playerName } from '../shared/format.js';
import { LiveConnection, readSettings } from '../shared/live.js';
import { ACTION_LABELS, ActionSender } from './actions.js';

const settings = readSettings();
const $ = id => document.getElementById(id);
const rows = $('board-rows');
const connection = $('connection');

/** Board states by board id, as last received. */
const boards = new Map();

const STATUS_TEXT = {
  connected: 'Connected',
  idle: 'Idle',
  lost: 'Lost',
  not_responding: 'Not responding',
};

const PROBLEM_TEXT = {
  board_missing: 'board missing',
  clock_paused: 'clock stopped too long',
  board_mismatch: 'board does not match its game',
};

const boardName = state => (state.number ? `Board ${state.number} (${state.board})` : state.board);

/** "12 s ago", "3 min ago", "2 h ago". */
const ago = (at, now = Date.now()) => {
  if (typeof at !== 'number') return 'never';
  const s = Math.max(0, Math.round((now - at) / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3600)} h ago`;
};

const clockText = clock => {
  if (!clock) return 'none seen';
  if (!clock.present) return 'not attached';
  const low = clock.battery_low ? ', battery low' : '';
  if (clock.running) return `running (${clock.running})${low}`;
  return `stopped ${ago(clock.stopped_since)}${low}`;
};

const gameText = (state, live) => {
  if (!state.game) return 'no game';
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
  const status = cell('status', STATUS_TEXT[state.status] ?? state.status ?? state.link);
  status.classList.add('board-status');
  status.dataset.status = state.status ?? '';
  const serial = [state.serial ?? '?', state.firmware ? `fw ${state.firmware}` : '']
    .filter(Boolean)
    .join(' · ');
  const battery = state.battery
    ? `${state.battery.percent ?? '?'} %${state.battery.charging ? ', charging' : ''}`
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
  $('board-summary').textContent = list.length > 0 ? `${up} of ${list.length} up` : '';
  const alerts = list.flatMap(state =>
    (state.problems ?? []).map(problem => {
      const item = document.createElement('li');
      item.dataset.board = state.board;
      item.dataset.problem = problem;
      item.textContent = `${boardName(state)}: ${PROBLEM_TEXT[problem] ?? problem}${
        state.game ? ` (${state.game})` : ''
      }`;
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

live = new LiveConnection({ ...settings, boards: true });
live.onStatus(showStatus);
live.onBoard(state => {
  boards.set(state.board, state);
  render();
});
live.store.subscribe(() => render());
const consoleLink = $('console-link');
consoleLink.search = window.location.search;
void live.start().catch(error => {
  connection.textContent = `Not connected: ${error.message}`;
});

// --- the operator's forms -----------------------------------------------------------------------
// Sent as HTTP actions (`POST /api/arbiter/<action>`) with the operator's own user and password
// (docs/security.md): upload pairings, give a board another table, start / pause / finish a round.
// A refusal of the credentials locks the forms again.

let sender = null;
const opLogin = $('op-login');
const opForms = $('op-forms');

const setOperator = (user, password) => {
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

const logResponse = (action, envelope) => {
  const item = document.createElement('li');
  item.dataset.action = action;
  item.dataset.status = envelope.status;
  const time = new Date().toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const outcome =
    envelope.status === 'ok'
      ? `OK ${JSON.stringify(envelope.data ?? {})}`
      : `Refused: ${envelope.error ?? 'no reason given'}`;
  item.textContent = `${time} ${ACTION_LABELS[action] ?? action}: ${outcome}`;
  $('op-responses').prepend(item);
};

opLogin.addEventListener('submit', event => {
  event.preventDefault();
  const user = $('op-user').value.trim();
  const password = $('op-password').value;
  if (!user || !password) {
    $('op-login-error').textContent = 'Enter the user and the password.';
    return;
  }
  $('op-login-error').textContent = '';
  setOperator(user, password);
});
$('op-logout').addEventListener('click', () => setOperator(undefined));

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
    logResponse(action, envelope);
    if (envelope.auth) {
      setOperator(undefined);
      $('op-login-error').textContent = `The server refused the credentials: ${envelope.error}`;
    }
  });
}
