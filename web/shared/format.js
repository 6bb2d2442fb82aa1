// Words and numbers as the pages show them: players, results, move numbers, whose turn it is,
// and the connection status. No DOM.

/** "GM Ju, Wenjun" (title first when known); "?" for an unknown player. */
export const playerName = player => {
  if (!player?.name) return '?';
  return player.title ? `${player.title} ${player.name}` : player.name;
};

/** "GM Ju" (title and family name: what fits above a small board). */
export const shortName = player => {
  if (!player?.name) return '?';
  const family = player.name.split(',')[0].trim() || player.name;
  return player.title ? `${player.title} ${family}` : family;
};

/** "Wenjun" (the given names after the comma), "" when the name has none. */
export const givenName = player => {
  const comma = player?.name?.indexOf(',') ?? -1;
  return comma < 0 ? '' : player.name.slice(comma + 1).trim();
};

/** "2536 CHN" (rating and federation, when known). */
export const playerDetails = player =>
  [player?.rating ? String(player.rating) : '', player?.federation ?? ''].filter(Boolean).join(' ');

/** A result with typographic half points: "½–½", "1–0". */
export const resultText = result =>
  ({ '1-0': '1\u20130', '0-1': '0\u20131', '1/2-1/2': '\u00bd\u2013\u00bd' })[result] ?? '';

/** A side's points in a finished game ("1", "0", "½"), else "". */
export const scoreOf = (result, color) => {
  if (result === '1/2-1/2') return '\u00bd';
  if (result === '1-0') return color === 'white' ? '1' : '0';
  if (result === '0-1') return color === 'white' ? '0' : '1';
  return '';
};

/** "12." before White's ply 23, "12…" before Black's ply 24. */
export const moveNumber = ply => `${Math.ceil(ply / 2)}${ply % 2 === 1 ? '.' : '\u2026'}`;

const FIGURINES = { K: '\u2654', Q: '\u2655', R: '\u2656', B: '\u2657', N: '\u2658' };

/** SAN with figurines for the pieces: "♘f3", "e8=♕" (the wire keeps letters, docs/i18n.md). */
export const figurineSan = san =>
  san.replace(/^[KQRBN]/, l => FIGURINES[l]).replace(/=([QRBN])/, (_, l) => `=${FIGURINES[l]}`);

let shownSan = figurineSan;

/** How the page writes moves: figurines (the default) or a language's letters (`i18n.localSan`). */
export const setMoveNotation = write => {
  shownSan = write;
};

/** A SAN move as the page writes moves. */
export const sanText = san => shownSan(san);

/** "12. ♘xd4" or "12… h6". */
export const moveText = lastMove => (lastMove ? `${moveNumber(lastMove.ply)} ${sanText(lastMove.san)}` : '');

/** "Last move: 12. ♘xd4", or "No move yet" without a move. */
export const lastMoveText = move =>
  move ? say('ui.last_move', { move }, `Last move: ${move}`) : say('ui.no_move', {}, 'No move yet');

/** The side to move, from a FEN. */
export const turnOf = fen => (typeof fen === 'string' && fen.split(/\s+/)[1] === 'b' ? 'black' : 'white');

let translate;

/** Words from the page's catalog (`i18n.t`, web/shared/i18n.js) instead of the built-in English. */
export const setTranslator = t => {
  translate = t;
};

/** A catalog message, or the English words when no catalog is loaded. */
const say = (key, params, english) => (translate ? translate(key, params) : english);

/** "Board 3" in the page's language. */
export const boardLabel = number => `${say('ui.board', {}, 'Board')} ${number}`;

/** "Round 2" in the page's language. */
export const roundLabel = round => `${say('ui.round', {}, 'Round')} ${round}`;

/** The label of a move list. */
export const movesLabel = () => say('ui.moves', {}, 'Moves');

/** The status line of a game: who is to move, paused, or how it ended. */
export const statusText = state => {
  if (!state) return '';
  if (state.result !== '*') {
    const reason = state.reason && translate ? translate(`end.${state.reason}`) : state.reason_text;
    const how = reason ? `, ${reason}` : '';
    const result = resultText(state.result);
    return `${say('ui.game_over', { result }, `Game over: ${result}`)}${how}`;
  }
  if (state.status === 'not_started') return say('ui.waiting_start', {}, 'Waiting for the start');
  if (state.status === 'paused') return say('ui.clock_stopped', {}, 'Clock stopped');
  const color = turnOf(state.fen);
  const side = say(`color.${color}`, {}, color === 'white' ? 'White' : 'Black');
  return say('ui.to_move', { color: side }, `${side} to move`);
};

/** The short status of a round page card. */
export const shortStatusText = state => {
  if (!state) return '';
  if (state.result !== '*') return say('ui.final', {}, 'Final');
  return statusText(state);
};

/** The connection badge. */
export const connectionText = (status, daemon) => {
  if (status === 'live' && daemon === 'offline')
    return say('ui.conn.paused', {}, 'Live feed paused (bridge offline)');
  const english = {
    live: 'Live',
    connecting: 'Connecting\u2026',
    offline: 'Offline: reconnecting',
    refused: 'Access refused',
  }[status];
  return english === undefined ? status : say(`ui.conn.${status}`, {}, english);
};

/** Carries the connection parameters of the current address over to another page. */
export const linkWithSettings = (path, extra = {}, href = window.location.href) => {
  const here = new URL(href);
  const target = new URL(path, here);
  for (const key of ['mqtt', 'sse', 'base']) {
    const value = here.searchParams.get(key);
    if (value) target.searchParams.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) target.searchParams.set(key, value);
  return `${target.pathname}${target.search}`;
};
