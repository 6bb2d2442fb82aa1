// One arbiter alert as a card: what happened, where, when, the article of the Laws, the evidence
// (the last legal position and what the board shows, with the squares concerned marked) and
// the actions that answer it (restore to ply N, accept or reject a claim). The card calls
// `onAction(action, fields, card)`; the console sends it and reports back with `card.report()`.
//
//   list.prepend(createAlertCard(alert, { onAction, onSelectGame, i18n }).element);

// Every word on a card comes from the page's catalog (`i18n.t`, docs/i18n.md).

import { makeBoardSvg, moveSquares } from '../shared/board.js';
import { sanText } from '../shared/format.js';

/** Years of the editions of the Laws of Chess (docs/editions.md). */
const EDITION_YEARS = { E97: '1997', E09: '2009', E14: '2014', E17: '2017', E18: '2018', E23: '2023' };

/** "FIDE Laws of Chess (2023), Art. 7.5.1" in the page's language. */
export const articleText = (article, edition, t) => {
  if (!article) return '';
  return t('console.article', { year: EDITION_YEARS[edition] ?? edition ?? '', article });
};

/**
 * What an alert says, in the page's language: in English the daemon's own sentence; in another
 * its sentences (`text`) rendered from their parameters, or, for an alert without them, its fields.
 */
export const alertMessage = (alert, i18n) => {
  if (i18n.lang === 'en') return alert.message ?? '';
  return Array.isArray(alert.text) && alert.text.length > 0
    ? i18n.detailText(alert.text, sanText)
    : i18n.alertText(alert);
};

/** A stable key for an alert, to show each once. */
export const alertKey = alert =>
  typeof alert.id === 'string' && alert.id !== ''
    ? alert.id
    : [alert.code, alert.game ?? '', alert.board ?? '', alert.seq ?? '', alert.at ?? ''].join('|');

const h = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === 'class') node.className = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
};

const timeText = (at, lang) =>
  typeof at === 'number'
    ? new Date(at).toLocaleTimeString(lang, { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    : '';

let cards = 0;

/** The evidence diagrams and facts. */
const makeEvidence = (alert, i18n) => {
  const { t } = i18n;
  const evidence = alert.evidence ?? {};
  const squares = [...new Set([...(evidence.squares ?? []), ...moveSquares(evidence.move)])];
  const figures = [];
  if (evidence.fen_before)
    figures.push(
      h(
        'figure',
        { 'data-evidence': 'before' },
        makeBoardSvg({ fen: evidence.fen_before, marks: squares, label: t('console.evidence.before') }),
        h('figcaption', {}, t('console.evidence.before')),
      ),
    );
  if (evidence.placement)
    figures.push(
      h(
        'figure',
        { 'data-evidence': 'board' },
        makeBoardSvg({ fen: evidence.placement, marks: squares, label: t('console.evidence.board') }),
        h('figcaption', {}, t('console.evidence.board')),
      ),
    );
  const facts = [];
  const fact = (term, value) => facts.push(h('dt', {}, term), h('dd', {}, String(value)));
  // A move in SAN as the page writes moves (figurines or letters); one in UCI (`e1e3`) as it is.
  if (evidence.move)
    fact(
      t('console.fact.move'),
      /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(evidence.move) ? evidence.move : sanText(evidence.move),
    );
  if (squares.length > 0) fact(t('console.fact.squares'), squares.join(', '));
  if (evidence.color) fact(t('console.fact.side'), t(`color.${evidence.color}`));
  if (alert.ply !== undefined) fact(t('console.fact.ply'), alert.ply);
  if (evidence.claim_seq !== undefined)
    fact(t('console.fact.claim'), t('console.fact.claim_event', { seq: evidence.claim_seq }));
  for (const [i, line] of (evidence.orders ?? []).entries())
    fact(t('console.fact.order', { order: i + 1 }), line.map(sanText).join(' '));
  // The detail in the reader's language when the alert gives it as sentences.
  const detail =
    Array.isArray(alert.text) && alert.text.length > 0 ? alertMessage(alert, i18n) : evidence.detail;
  if (detail && detail !== alertMessage(alert, i18n)) fact(t('console.fact.detail'), detail);
  if (figures.length === 0 && facts.length === 0) return null;
  return h(
    'section',
    { class: 'evidence', 'aria-label': t('console.evidence') },
    ...(figures.length > 0 ? [h('div', { class: 'evidence-boards' }, ...figures)] : []),
    ...(facts.length > 0 ? [h('dl', {}, ...facts)] : []),
  );
};

/**
 * @param {object} alert a WebAlert (docs/web.md)
 * @param {object} handlers
 * @param {(action: string, fields: object, card: object) => void} handlers.onAction
 * @param {(game: string) => void} handlers.onSelectGame
 */
export const createAlertCard = (alert, { onAction, onSelectGame, i18n }) => {
  const { t } = i18n;
  cards += 1;
  const id = `alert-${cards}`;
  const evidence = alert.evidence ?? {};
  const title = t(`alert.${alert.code}`);
  const where = [
    alert.board ? t('console.where.board', { board: alert.board }) : '',
    alert.game ? t('console.where.game', { game: alert.game }) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const report = h('p', { class: 'alert-report', role: 'status' });
  const actions = h('div', { class: 'alert-actions' });

  if (
    alert.game &&
    (evidence.restore_ply !== undefined || alert.code === 'illegal_move' || alert.code === 'board_mismatch')
  ) {
    const plyId = `${id}-ply`;
    const ply = h('input', {
      id: plyId,
      type: 'number',
      min: '0',
      step: '1',
      required: '',
      value: String(evidence.restore_ply ?? Math.max(0, (alert.ply ?? 1) - 1)),
    });
    const form = h(
      'form',
      { class: 'restore' },
      h('label', { for: plyId }, t('console.restore_to')),
      ply,
      h('button', { type: 'submit', 'data-action': 'restore_position' }, t('console.button.restore')),
    );
    form.addEventListener('submit', event => {
      event.preventDefault();
      onAction('restore_position', { game_id: alert.game, ply: Number(ply.value) }, card);
    });
    actions.append(form);
  }
  if (alert.game && evidence.claim_seq !== undefined) {
    const accept = h(
      'button',
      { type: 'button', 'data-action': 'accept_claim' },
      t('console.action.accept_claim'),
    );
    const reject = h(
      'button',
      { type: 'button', 'data-action': 'reject_claim' },
      t('console.action.reject_claim'),
    );
    accept.addEventListener('click', () =>
      onAction('accept_claim', { game_id: alert.game, claim_seq: evidence.claim_seq }, card),
    );
    reject.addEventListener('click', () =>
      onAction('reject_claim', { game_id: alert.game, claim_seq: evidence.claim_seq }, card),
    );
    actions.append(accept, reject);
  }
  if (alert.game && Array.isArray(evidence.orders) && evidence.orders_after_ply !== undefined) {
    // The orders an undecided catch-up left open: the arbiter records the one that was played.
    for (const [i, line] of evidence.orders.entries()) {
      const take = h(
        'button',
        { type: 'button', 'data-action': 'set_moves', 'data-order': String(i + 1) },
        t('console.order_played', { order: i + 1 }),
      );
      take.addEventListener('click', () =>
        onAction(
          'set_moves',
          { game_id: alert.game, after_ply: evidence.orders_after_ply, moves: line },
          card,
        ),
      );
      actions.append(take);
    }
  }
  if (alert.board && alert.code === 'board_mismatch') {
    const resync = h(
      'button',
      { type: 'button', 'data-action': 'resync_board' },
      t('console.action.resync_board'),
    );
    resync.addEventListener('click', () => onAction('resync_board', { board_id: alert.board }, card));
    actions.append(resync);
  }
  if (alert.game) {
    const show = h('button', { type: 'button', class: 'secondary' }, t('console.show_game'));
    show.addEventListener('click', () => onSelectGame(alert.game));
    actions.append(show);
  }
  const dismiss = h('button', { type: 'button', class: 'secondary' }, t('console.dismiss'));
  actions.append(dismiss);

  const article = articleText(alert.article, alert.edition, t);
  const element = h(
    'article',
    {
      class: `alert code-${alert.code}`,
      'aria-labelledby': `${id}-title`,
      'data-alert': alert.code,
      'data-game': alert.game ?? '',
      'data-key': alertKey(alert),
      ...(alert.grade ? { 'data-grade': alert.grade } : {}),
    },
    h('h3', { id: `${id}-title` }, title, where ? h('span', { class: 'where' }, ` \u2013 ${where}`) : ''),
    h('p', { class: 'alert-meta' }, timeText(alert.at, i18n.lang)),
    h('p', { class: 'alert-message' }, alertMessage(alert, i18n)),
    ...(alert.grade === 'possible'
      ? [
          h(
            'p',
            { class: 'grade' },
            alert.claimed ? t('console.grade.claimed_possible') : t('console.grade.possible_only'),
          ),
        ]
      : []),
    ...(article
      ? [
          h(
            'p',
            {
              class: 'article',
              'data-article': alert.article,
              // The article's title, in our words, for the arbiter who points at it.
              title: t('console.article_title', {
                n: String(alert.article).split('.')[0],
                title: i18n.articleTitle(alert.article),
              }),
            },
            article,
          ),
        ]
      : []),
    ...[makeEvidence(alert, i18n)].filter(Boolean),
    actions,
    report,
  );
  dismiss.addEventListener('click', () => element.remove());

  const card = {
    element,
    alert,
    /** Marks the card withdrawn (the alert proved wrong or out of date), keeping it for the record. */
    withdraw(reason, message) {
      element.classList.add('withdrawn');
      element.dataset.withdrawn = reason ?? 'withdrawn';
      report.textContent = message ?? t('console.withdrawn');
      report.className = 'alert-report withdrawn';
    },
    /** Shows the outcome of an action sent from this card. */
    report(action, envelope) {
      const ok = envelope.status === 'ok';
      const label = t(`console.action.${action}`);
      report.textContent = ok
        ? t('console.report.done', { action: label })
        : t('console.report.refused', {
            action: label,
            error: i18n.refusalText(envelope) ?? t('console.no_reason'),
          });
      report.className = `alert-report ${ok ? 'ok' : 'error'}`;
      if (ok) element.classList.add('handled');
    },
  };
  return card;
};
