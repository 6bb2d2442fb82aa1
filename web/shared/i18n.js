// The pages' language: the message catalogs of shared/i18n/ (the same files the daemon renders
// with, docs/i18n.md), the language chosen by ?lang=, else the one the reader picked before, else
// the browser's, else the catalogs' default; the <html lang> attribute; and a switch.
//
//   const i18n = await loadI18n();
//   i18n.t('alert.illegal_move');                  // 'Jugada ilegal completada'
//   i18n.alertText(alert);                          // the alert from its fields, in the language
//   i18n.mountSwitch(document.querySelector('header'));

const BASE = new URL('./i18n/', import.meta.url);
const STORE_KEY = 'chessbridge.lang';
const EN_LETTERS = 'KQRBN';

const fetchJson = async name => {
  const response = await fetch(new URL(name, BASE));
  if (!response.ok) throw new Error(`shared/i18n/${name}: ${response.status}`);
  return response.json();
};

const NOTATION_KEY = 'chessbridge.notation';
const COLOR_PARAMS = new Set(['color', 'opponent', 'claimant']);
const PIECE_PARAMS = new Set(['piece', 'first', 'chosen', 'victim']);

/** `letters` when ?notation=letters or the reader chose it before, else `figurine`. */
export const chooseNotation = (search = window.location.search) => {
  const asked = new URLSearchParams(search).get('notation');
  if (asked === 'letters' || asked === 'figurine') return asked;
  try {
    return window.localStorage.getItem(NOTATION_KEY) === 'letters' ? 'letters' : 'figurine';
  } catch {
    return 'figurine';
  }
};

const baseOf = tag =>
  String(tag ?? '')
    .trim()
    .toLowerCase()
    .split(/[-_.]/)[0];

/** The language to show: ?lang=, the reader's earlier choice, the browser's languages, the default. */
export const chooseLanguage = (list, search = window.location.search) => {
  const known = tag => (Object.hasOwn(list.languages, baseOf(tag)) ? baseOf(tag) : undefined);
  let stored;
  try {
    stored = window.localStorage.getItem(STORE_KEY);
  } catch {
    stored = undefined;
  }
  return (
    known(new URLSearchParams(search).get('lang')) ??
    known(stored) ??
    (navigator.languages ?? [navigator.language]).map(known).find(Boolean) ??
    list.default
  );
};

const slotsOf = message =>
  (typeof message === 'string' ? [message] : Object.values(message)).flatMap(s =>
    [...s.matchAll(/\{(\w+)\}/g)].map(m => m[1]),
  );

/** Loads the catalog of the chosen language and sets <html lang>. */
export const loadI18n = async () => {
  const list = await fetchJson('languages.json');
  const lang = chooseLanguage(list);
  const [own, fallback] = await Promise.all([
    fetchJson(`${lang}.json`),
    lang === list.default ? undefined : fetchJson(`${list.default}.json`),
  ]);
  document.documentElement.lang = lang;
  const numbers = new Intl.NumberFormat(lang);
  const plurals = new Intl.PluralRules(lang);
  const t = (key, params = {}) => {
    const message = own[key] ?? fallback?.[key] ?? key;
    const text =
      typeof message === 'string'
        ? message
        : (message[plurals.select(Number(params[slotsOf(message)[0]] ?? 1))] ?? message.other);
    return text.replace(/\{(\w+)\}/g, (whole, name) => {
      const v = params[name];
      return v === undefined ? whole : typeof v === 'number' ? numbers.format(v) : String(v);
    });
  };
  const colorText = color => t(`color.${color}`);
  const letters = t('piece.letters');
  /** A SAN move with the language's piece letters (the wire keeps English SAN). */
  const localSan = san => {
    if (letters.length !== EN_LETTERS.length || letters === EN_LETTERS) return san;
    const swap = l => letters[EN_LETTERS.indexOf(l)] ?? l;
    return san.replace(/^[KQRBN]/, swap).replace(/=([QRBN])/, (_, l) => `=${swap(l)}`);
  };
  const lists = new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' });
  /** A parameter of a sentence in words (the same rules as src/bridge/i18n/messages.ts). */
  const paramText = (name, v, san) => {
    if (typeof v === 'number') return v;
    if (COLOR_PARAMS.has(name)) return colorText(v);
    if (PIECE_PARAMS.has(name)) return t(`piece.${v}`);
    if (name === 'moves' && Array.isArray(v)) return v.map(san).join(' ');
    if (name === 'orders' && Array.isArray(v)) return v.map(line => line.map(san).join(' ')).join(' / ');
    if (name === 'touched' && Array.isArray(v))
      return lists.format(v.map(p => t('piece.on', { piece: t(`piece.${p.piece}`), square: p.square })));
    if (Array.isArray(v)) return lists.format(v.map(String));
    return String(v);
  };
  return {
    lang,
    languages: list.languages,
    t,
    /** An alert from its fields: what it is, who, which ply, which squares or move. */
    alertText: alert => {
      const parts = [t(`alert.${alert.code}`)];
      const color = alert.color ?? alert.evidence?.color;
      if (color) parts.push(t('alert.by', { color: colorText(color) }));
      if (typeof alert.ply === 'number') parts.push(t('ply', { ply: alert.ply }));
      const squares = alert.evidence?.squares;
      if (squares?.length) parts.push(t('alert.squares', { squares: squares.join(', ') }));
      if (alert.evidence?.move) parts.push(t('alert.move', { move: alert.evidence.move }));
      return parts.join(' \u00b7 ');
    },
    localSan,
    /**
     * A detail given as sentences (an alert's `text`, docs/i18n.md) in the language: each
     * `detail.<key>` with its parameters; moves written by `san` (default: the language's letters).
     */
    detailText: (text, san = localSan) =>
      text
        .map(sentence => {
          const params = {};
          for (const [name, v] of Object.entries(sentence.params ?? {}))
            params[name] = paramText(name, v, san);
          return t(`detail.${sentence.key}`, params);
        })
        .join(' '),
    /**
     * Why a request was refused, in the language: `refusal.<code>` with its parameters when the
     * answer carries a code the catalog knows, else the daemon's own (English) `error`; a
     * `problem` parameter is rendered as `refusal.problem.<problem>`.
     */
    refusalText: envelope => {
      const key = `refusal.${envelope?.code}`;
      if (!envelope?.code || (own[key] ?? fallback?.[key]) === undefined) return envelope?.error;
      const params = { ...(envelope.params ?? {}) };
      // What is wrong with a pairings line is itself a key (`refusal.problem.<kind>`).
      if (typeof params.problem === 'string') params.problem = t(`refusal.problem.${params.problem}`, params);
      return t(key, params);
    },
    /** The title of an article of the Laws (`7.5.1` → article 7's), in the language. */
    articleTitle: article => t(`article.title.${String(article).split('.')[0]}`),
    /** How moves are written: `letters` (the language's) by ?notation= or an earlier choice, else `figurine`. */
    notation: () => chooseNotation(),
    /**
     * The page's own words: every element with `data-i18n="key"` gets the key's text, every one
     * with `data-i18n-label="key"` its aria-label, `data-i18n-title` its title and
     * `data-i18n-placeholder` its placeholder. A page adds a text by adding the attribute and the
     * key to every catalog.
     */
    translate: (root = document) => {
      for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
      for (const [attribute, name] of [
        ['data-i18n-label', 'aria-label'],
        ['data-i18n-title', 'title'],
        ['data-i18n-placeholder', 'placeholder'],
      ])
        for (const el of root.querySelectorAll(`[${attribute}]`))
          el.setAttribute(name, t(el.getAttribute(attribute)));
    },
    /** A notation switch (figurines or letters) appended to `parent`; a choice reloads the page. */
    mountNotationSwitch: parent => {
      const label = document.createElement('label');
      label.className = 'notation-switch';
      label.textContent = `${t('ui.notation')} `;
      const select = document.createElement('select');
      select.id = 'notation-switch';
      for (const value of ['figurine', 'letters'])
        select.add(new Option(t(`ui.notation.${value}`), value, false, value === chooseNotation()));
      select.addEventListener('change', () => {
        try {
          window.localStorage.setItem(NOTATION_KEY, select.value);
        } catch {
          // A page without storage keeps the choice in its address only.
        }
        const url = new URL(window.location.href);
        url.searchParams.set('notation', select.value);
        window.location.assign(url.toString());
      });
      label.append(select);
      parent.append(label);
      return select;
    },
    /** A language switch (a labelled select) appended to `parent`; a choice reloads the page in it. */
    mountSwitch: parent => {
      const label = document.createElement('label');
      label.className = 'lang-switch';
      label.textContent = `${t('ui.language')} `;
      const select = document.createElement('select');
      select.id = 'lang-switch';
      for (const [code, name] of Object.entries(list.languages))
        select.add(new Option(name, code, false, code === lang));
      select.addEventListener('change', () => {
        try {
          window.localStorage.setItem(STORE_KEY, select.value);
        } catch {
          // A page without storage keeps the choice in its address only.
        }
        const url = new URL(window.location.href);
        url.searchParams.set('lang', select.value);
        window.location.assign(url.toString());
      });
      label.append(select);
      parent.append(label);
      return select;
    },
  };
};
