/**
 * Operator commands: draw offers and their answers (Art. 9.1, agreement 5.2.3 with E17+'s one
 * move each first), resignation (5.1.2; E23: a draw when the opponent cannot mate), the arbiter's
 * decisions (restore a position, set a result, adjust or pause the clock, add a penalty), and the
 * link to the board. Claims are in claims.ts.
 *
 *   onCommand(tx, { kind: 'resign', at: 5000, by: 'black' });   // end 1-0 resignation 5.1.2
 */
import { opposite } from 'chessops';
import { type EditionProfile, citeTopic, isAgreementAllowed } from '../editions.js';
import type { OperatorCommand } from '../events.js';
import { canCheckmate } from '../helpmate.js';
import { DECISIVE_KINDS, DRAWN_KINDS, type DecisiveKind, type DrawnKind, makeOutcome } from '../outcome.js';
import type { ArticleRef, Color } from '../types.js';
import { onClaim } from './claims.js';
import { judgeAll, judgeUpTo, replacePlies } from './commit.js';
import { addTime, adjust, emitClock, pauseOrResume } from './clockFeed.js';
import { sanction } from './illegal.js';
import { endGame, endWith } from './ending.js';
import { arbiterMoves } from './moves.js';
import { rebase } from './rebase.js';
import { moverOf, positionAt } from './state.js';
import { type Tx, emit, isOver, patch } from './tx.js';
import { say } from '../texts.js';

type Arbiter = Extract<OperatorCommand, { kind: 'arbiter' }>;

const movesMade = (tx: Tx): { white: number; black: number } => {
  const n = { white: 0, black: 0 };
  for (let ply = 1; ply <= tx.st.rec.game.length; ply++) n[moverOf(tx.st, ply)]++;
  return n;
};

const resign = (tx: Tx, by: Color, at: number): void => {
  const { profile } = tx.st;
  const winner = opposite(by);
  if (profile.resignation.drawIfOpponentCannotMate) {
    const pos = positionAt(tx.st, tx.st.rec.game.length);
    if (canCheckmate(pos, winner) === 'no') {
      endWith(tx, at, makeOutcome('resignationVsCannotMate', undefined, profile, by).unwrap());
      return;
    }
  }
  endWith(tx, at, makeOutcome('resignation', winner, profile).unwrap());
};

const offer = (tx: Tx, by: Color, at: number): void => {
  if (tx.st.offer) return;
  patch(tx, { offer: { by, ply: tx.st.rec.game.length, at } });
  emit(tx, at, { type: 'offer', by, status: 'made', article: citeTopic(tx.st.profile, 'drawOffer') });
};

const reply = (tx: Tx, by: Color, at: number, accept: boolean): void => {
  const pending = tx.st.offer;
  const { profile } = tx.st;
  if (!pending || pending.by === by) return;
  patch(tx, { offer: undefined });
  if (!accept) {
    emit(tx, at, {
      type: 'offer',
      by: pending.by,
      status: 'declined',
      article: citeTopic(profile, 'drawOffer'),
    });
    return;
  }
  if (!isAgreementAllowed(profile, movesMade(tx))) {
    emit(tx, at, {
      type: 'offer',
      by: pending.by,
      status: 'lapsed',
      article: citeTopic(profile, 'agreement'),
    });
    return;
  }
  emit(tx, at, {
    type: 'offer',
    by: pending.by,
    status: 'accepted',
    article: citeTopic(profile, 'agreement'),
  });
  endWith(tx, at, makeOutcome('agreement', undefined, profile).unwrap());
};

/** The arbiter reinstates the position after `ply`: the later plies are removed (a correction). */
const restore = (tx: Tx, ply: number, at: number): void => {
  const { game } = tx.st.rec;
  if (!Number.isInteger(ply) || ply < 0 || ply > game.length) return;
  const cut = game.truncate(ply).unwrap();
  // The board still shows the plies taken back, or was set up again after the game (reset.ts): it
  // is read again once set up to the position.
  if (ply < game.length || tx.st.rec.reset) rebase(tx, cut, { awaitSetup: true });
  if (ply < game.length) {
    patch(tx, {
      plies: tx.st.plies.slice(0, ply + 1),
      completed: { white: Math.min(tx.st.completed.white, ply), black: Math.min(tx.st.completed.black, ply) },
      claimable: undefined,
      obligation: undefined,
      breach: undefined,
    });
    emit(tx, at, { type: 'correction', fromPly: ply + 1, moves: [], reason: 'arbiter' });
    replacePlies(tx, ply + 1, [], at, false);
  }
  // The plies kept are final: the arbiter restored the position after them.
  judgeUpTo(tx, ply, at);
  const clock = tx.st.clock;
  if (clock && clock.toMove !== cut.turn) adjust(tx, at, { toMove: cut.turn });
};

/** What the arbiter saw and the board could not: two hands (E17+: an illegal move), the other hand on the clock. */
const irregularity = (tx: Tx, by: Color, kind: 'twoHands' | 'otherHand', at: number): void => {
  const { profile } = tx.st;
  const name = by === 'white' ? 'White' : 'Black';
  if (kind === 'otherHand') {
    emit(tx, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(profile, 'penalties'),
      color: by,
      detail: `${name} pressed the clock with the other hand: not an illegal move; the arbiter's discretion.`,
      text: [say('hands.other_hand', { color: by })],
    });
    return;
  }
  if (!profile.illegalMoves.twoHandsCounts) {
    emit(tx, at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(profile, 'oneHand'),
      color: by,
      detail: `${name} made a move with two hands: a breach of the one-hand rule, at the arbiter's discretion.`,
      text: [say('hands.two_hands_discretion', { color: by })],
    });
    return;
  }
  const last = tx.st.lastIllegal;
  const once = last?.by === by && last.ply === tx.st.rec.game.length;
  emit(tx, at, {
    type: 'alert',
    code: 'illegal-move',
    article: citeTopic(profile, 'twoHands', 'illegalMove'),
    color: by,
    detail: once
      ? `${name}'s illegal move was also made with two hands: it counts once.`
      : `${name} made a move with two hands and pressed: penalised as an illegal move; the move stands.`,
    text: [say(once ? 'hands.two_hands_counted_once' : 'hands.two_hands_illegal', { color: by })],
  });
  if (once) return;
  sanction(tx, by, at);
  if (!tx.st.ended) emitClock(tx, at);
};

/** The article for an arbiter's result: the ending's own when the reason names one (defaultTime, forfeit, ...), else 12.9 / 13.4. */
const arbiterArticle = (profile: EditionProfile, reason: string, winner: Color | undefined): ArticleRef => {
  const kinds: readonly string[] = [...DECISIVE_KINDS, ...DRAWN_KINDS];
  if (kinds.includes(reason)) {
    const made = winner
      ? (DECISIVE_KINDS as readonly string[]).includes(reason)
        ? makeOutcome(reason as DecisiveKind, winner, profile)
        : undefined
      : (DRAWN_KINDS as readonly string[]).includes(reason)
        ? makeOutcome(reason as DrawnKind, undefined, profile)
        : undefined;
    if (made?.isOk) return made.value.article;
  }
  if (reason === 'bothLose') return citeTopic(profile, 'bothLose');
  return citeTopic(profile, 'penalties');
};

const arbiter = (tx: Tx, c: Arbiter): void => {
  const { action } = c;
  const { profile } = tx.st;
  switch (action.type) {
    case 'acceptClaim':
    case 'rejectClaim':
      return;
    case 'penalty':
      addTime(tx, c.at, opposite(action.against), Math.round(action.minutes * 60_000));
      return;
    case 'restore':
      restore(tx, action.ply, c.at);
      return;
    case 'setMoves':
      arbiterMoves(tx, action.afterPly, action.moves, c.at);
      return;
    case 'adjustClock':
      adjust(tx, c.at, { set: { white: action.whiteMs, black: action.blackMs } });
      return;
    case 'setResult': {
      const winner: Color | undefined =
        action.result === '1-0' ? 'white' : action.result === '0-1' ? 'black' : undefined;
      endGame(tx, c.at, action.result, action.reason, arbiterArticle(profile, action.reason, winner), winner);
      return;
    }
    case 'pauseClock':
      pauseOrResume(tx, c.at, true);
      emit(tx, c.at, {
        type: 'alert',
        code: 'clock-paused',
        article: citeTopic(profile, 'stopClocks'),
        detail: 'The arbiter paused the clock.',
        text: [say('arbiter.paused', {})],
      });
      return;
    case 'resumeClock':
      pauseOrResume(tx, c.at, false);
      return;
    case 'irregularity':
      irregularity(tx, action.by, action.kind, c.at);
      return;
  }
};

/** Commands after which the moves on the board are final: a claim, a resignation, an agreement, a result. */
const finalises = (c: OperatorCommand): boolean =>
  c.kind === 'claim' ||
  c.kind === 'resign' ||
  (c.kind === 'offerReply' && c.accept) ||
  (c.kind === 'arbiter' && c.action.type === 'setResult');

/** Link and operator inputs. */
export const onCommand = (tx: Tx, c: OperatorCommand): void => {
  if (tx.st.ended) return;
  // The moves made before it are judged first (a mate on the board before a resignation stands).
  if (finalises(c) && (judgeAll(tx, c.at) || isOver(tx))) return;
  switch (c.kind) {
    case 'claim':
      onClaim(tx, c);
      return;
    case 'offer':
      offer(tx, c.by, c.at);
      return;
    case 'offerReply':
      reply(tx, c.by, c.at, c.accept);
      return;
    case 'resign':
      resign(tx, c.by, c.at);
      return;
    case 'arbiter':
      // The arbiter has seen the board: the record is his from here.
      if (tx.st.inferred) patch(tx, { inferred: false });
      if (tx.st.readOff) patch(tx, { readOff: undefined });
      if (tx.st.unproven) patch(tx, { unproven: false });
      arbiter(tx, c);
      return;
  }
};

export const onLink = (tx: Tx, state: 'lost' | 'back', at: number, restart = false): void => {
  if (state === 'lost') {
    if (tx.st.linkLost) return;
    patch(tx, {
      linkLost: true,
      lostAt: at,
      gapped: true,
      gap: {
        from: at,
        boardAt: undefined,
        clockAt: undefined,
        ply: tx.st.rec.game.length,
        reading: tx.st.reading,
        clockChecked: false,
      },
    });
    if (restart) return;
    emit(tx, at, {
      type: 'alert',
      code: 'board-missing',
      article: citeTopic(tx.st.profile, 'stopClocks'),
      detail:
        'The link to the board is lost: moves made meanwhile are recovered from the board when it returns.',
      text: [say('board.link_lost', {})],
    });
    return;
  }
  patch(tx, { linkLost: false, resync: true });
};
