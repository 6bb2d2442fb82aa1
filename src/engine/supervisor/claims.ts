/**
 * Draw claims (Art. 9.2, 9.3 with or without an intended move, 9.4 right lost by touching, 9.5 the
 * penalty for an incorrect claim), flag claims in claim-only regimes (E09 A.4.d, E97 App. B), and
 * claims of an illegal move where only a claim counts (E09 A.4.c / B.3.c). Decided at once: the
 * supervisor verifies repetition and the move count itself.
 *
 *   onClaim(tx, { kind: 'claim', at: 900, by: 'black', claim: 'threefold', intended: 'Ng8' });
 *   // claim valid 9.2.1 and end 1/2-1/2, or claim invalid with +2 min to White
 */
import type { Move } from 'chessops';
import { opposite } from 'chessops';
import { parseSan } from 'chessops/san';
import { flagStatus } from '../clock.js';
import { citeTopic, incorrectClaimPenalty } from '../editions.js';
import type { OperatorCommand } from '../events.js';
import { fiftyMoveClaim } from '../moveCount.js';
import { makeOutcome } from '../outcome.js';
import { keyAfterMove } from '../positionKey.js';
import type { ArticleRef, Color } from '../types.js';
import { addTime, clocksAt, decideFlagOf } from './clockFeed.js';
import { endWith } from './ending.js';
import { claimIllegal } from './illegal.js';
import { positionAt } from './state.js';
import { type Tx, emit, patch } from './tx.js';
import { type Sentence, say } from '../texts.js';

type ClaimCommand = Extract<OperatorCommand, { kind: 'claim' }>;

const NAME: Record<Color, string> = { white: 'White', black: 'Black' };

const invalid = (tx: Tx, c: ClaimCommand, article: ArticleRef, detail: string, text: Sentence): void => {
  emit(tx, c.at, {
    type: 'claim',
    by: c.by,
    claim: c.claim,
    status: 'invalid',
    article,
    detail,
    text: [text],
  });
};

/** An incorrect 9.2/9.3 claim: the penalty of the edition, and the claim stands as a draw offer (E09+). */
const incorrect = (tx: Tx, c: ClaimCommand, detail: string, text: Sentence): void => {
  const { profile } = tx.st;
  const times = clocksAt(tx.st, c.at);
  const left = times ? (c.by === 'white' ? times.whiteMs : times.blackMs) : 0;
  const p = incorrectClaimPenalty(profile, left);
  invalid(tx, c, p.article, detail, text);
  addTime(tx, c.at, opposite(c.by), p.opponentGainsMs);
  addTime(tx, c.at, c.by, -Math.round(p.claimantLosesMs));
  if (profile.draws.claimCountsAsOffer && !tx.st.offer) {
    patch(tx, { offer: { by: c.by, ply: tx.st.rec.game.length, at: c.at } });
    emit(tx, c.at, { type: 'offer', by: c.by, status: 'made', article: citeTopic(profile, 'drawOffer') });
  }
};

/** Threefold (9.2) or fifty moves (9.3), judged on the game record and the intended move. */
const drawClaim = (tx: Tx, c: ClaimCommand, kind: 'threefold' | 'fiftyMoves'): void => {
  const { st } = tx;
  const { profile } = st;
  const ply = st.rec.game.length;
  const info = st.plies[ply];
  const pos = positionAt(st, ply);
  const topic = kind === 'threefold' ? 'threefold' : 'fiftyMoves';
  if (!info || pos.turn !== c.by) {
    invalid(
      tx,
      c,
      citeTopic(profile, topic),
      `Only the player having the move may claim; ${NAME[c.by]} does not have it.`,
      say('claim.not_on_move', { color: c.by }),
    );
    return;
  }
  const touched = st.turnTouch?.ply === ply && st.turnTouch.color === c.by;
  if (touched && profile.draws.claimRightLostBy === 'touchingPiece') {
    invalid(
      tx,
      c,
      citeTopic(profile, 'drawClaimLostByTouch'),
      `${NAME[c.by]} touched a piece before claiming: the right to claim is lost on this move.`,
      say('claim.touched_before', { color: c.by }),
    );
    return;
  }
  let move: Move | undefined;
  if (c.intended !== undefined) {
    move = parseSan(pos.clone(), c.intended);
    if (!move) {
      incorrect(
        tx,
        c,
        `The intended move ${c.intended} is illegal; another move with the same piece must be made.`,
        say('claim.intended_illegal', { given: c.intended }),
      );
      return;
    }
  }
  let holds: boolean;
  if (kind === 'threefold') {
    const table = info.rules.table;
    holds = table.threefoldHasAppeared();
    if (!holds && move) {
      const key = keyAfterMove(pos, move, { castling: profile.draws.castlingKey });
      holds = key.isOk && table.threefoldAboutToAppear(key.value);
    }
  } else {
    const check = fiftyMoveClaim(pos.halfmoves, move ? { pos, move } : undefined);
    holds = check.isOk && check.value.holds;
  }
  if (!holds) {
    const intended = c.intended ? `; ${c.intended} must be played` : '';
    incorrect(
      tx,
      c,
      `The condition of the claim is not met${intended}.`,
      c.intended
        ? say('claim.condition_not_met_move', { given: c.intended })
        : say('claim.condition_not_met', {}),
    );
    return;
  }
  emit(tx, c.at, {
    type: 'claim',
    by: c.by,
    claim: c.claim,
    status: 'valid',
    article: citeTopic(profile, topic),
  });
  endWith(tx, c.at, makeOutcome(kind, undefined, profile, c.by).unwrap());
};

/** A flag claim: valid when the opponent's flag is down and the claimant's is not (both down: as decided by the rules). */
const flagClaim = (tx: Tx, c: ClaimCommand): void => {
  const { st } = tx;
  const article = citeTopic(st.profile, 'flagClaim', 'flag');
  const opponent = opposite(c.by);
  let down: { readonly white: boolean; readonly black: boolean } | undefined;
  if (st.clock) {
    const fs = flagStatus(st.clock, Math.max(c.at, st.clock.mark));
    down = { white: fs.at.white !== undefined, black: fs.at.black !== undefined };
  } else if (st.reading) {
    down = { white: st.reading.whiteMs <= 0, black: st.reading.blackMs <= 0 };
  }
  if (!down?.[opponent]) {
    invalid(
      tx,
      c,
      article,
      `${NAME[opponent]}'s flag has not fallen.`,
      say('claim.flag_not_fallen', { opponent }),
    );
    return;
  }
  emit(tx, c.at, { type: 'claim', by: c.by, claim: 'flag', status: 'valid', article });
  decideFlagOf(tx, opponent, c.at, down[c.by], true);
};

/** The last ply `side` made (0: none). */
const lastPlyOf = (tx: Tx, side: Color): number => {
  for (let ply = tx.st.rec.game.length; ply > 0; ply--)
    if (positionAt(tx.st, ply - 1).turn === side) return ply;
  return 0;
};

/**
 * A claim of the opponent's breach of Art. 4 on his last move (touch-move, release). A board
 * cannot prove every breach (a piece resting on a legal square may still have been held): the
 * move's `possible` findings become alerts for the arbiter, who rules (the claim is `pending`).
 * The claim is too late once the claimant has touched a piece since that move (E97 4.6, E09 4.7,
 * E14+ 4.8).
 */
const art4Claim = (tx: Tx, c: ClaimCommand): void => {
  const { st } = tx;
  const { profile } = st;
  const opponent = opposite(c.by);
  const last = lastPlyOf(tx, opponent);
  const touched = (st.turnTouch?.color === c.by && st.turnTouch.ply >= last) || st.rec.game.length > last;
  if (last === 0 || touched) {
    invalid(
      tx,
      c,
      citeTopic(profile, 'article4ClaimLost'),
      last === 0
        ? `${NAME[opponent]} has made no move.`
        : `${NAME[c.by]} has touched a piece since ${NAME[opponent]}'s move: the right to claim is lost.`,
      last === 0 ? say('claim.no_move', { opponent }) : say('claim.touched_since', { color: c.by, opponent }),
    );
    return;
  }
  const s = st.suspicion?.by === opponent && st.suspicion.ply === last ? st.suspicion : undefined;
  const first = s?.alerts[0];
  emit(tx, c.at, {
    type: 'claim',
    by: c.by,
    claim: 'art4',
    status: 'pending',
    article: citeTopic(profile, first?.topic ?? 'touchMoveOwn'),
    detail: s
      ? `${NAME[c.by]} claims a breach of Art. 4 on ply ${last}; the board shows it as possible: the arbiter rules.`
      : `${NAME[c.by]} claims a breach of Art. 4 on ply ${last}; the board shows none: the arbiter rules.`,
    text: [say(s ? 'claim.art4_possible' : 'claim.art4_none', { color: c.by, ply: last })],
  });
  if (!s) {
    emit(tx, c.at, {
      type: 'alert',
      code: 'arbiter-decision-needed',
      article: citeTopic(profile, 'touchMoveOwn'),
      color: opponent,
      ply: last,
      claimed: true,
      detail: `${NAME[c.by]} claims a breach of Art. 4 by ${NAME[opponent]} on ply ${last}; the board shows no evidence of it.`,
      text: [say('claim.art4_no_evidence', { color: c.by, opponent, ply: last })],
    });
    return;
  }
  patch(tx, { suspicion: undefined });
  for (const a of s.alerts) {
    emit(tx, c.at, {
      type: 'alert',
      code: a.code,
      article: citeTopic(profile, a.topic),
      color: opponent,
      grade: a.grade,
      ply: s.ply,
      claimed: true,
      detail: a.detail,
      text: [a.text],
      evidence: { events: s.events, fenBefore: s.fenBefore, move: s.move },
    });
  }
};

export const onClaim = (tx: Tx, c: ClaimCommand): void => {
  switch (c.claim) {
    case 'art4':
      art4Claim(tx, c);
      return;
    case 'threefold':
    case 'fiftyMoves':
      drawClaim(tx, c, c.claim);
      return;
    case 'flag':
      flagClaim(tx, c);
      return;
    case 'illegalMove':
      if (!claimIllegal(tx, c.by, c.at)) {
        invalid(
          tx,
          c,
          citeTopic(tx.st.profile, 'illegalMoveRegime', 'illegalMove'),
          'There is no illegal move to claim.',
          say('claim.no_illegal_move', {}),
        );
      }
      return;
  }
};
