/**
 * Stage: a game's outputs, the only stage with effects. Every event goes out on the QoS 1 event
 * stream (and alerts, and claims waiting for the arbiter, also on `alerts`); after each step the
 * retained snapshot and PGN and the live feed are brought up to date, and whoever queued the
 * input (a request) hears how it went. One info line per move, result and alert.
 *
 *   stepped$.pipe(publishGame({ initial: startView(info), outputs, log }))   // the view after each step
 */
import { type OperatorFunction, scan, tap } from 'rxjs';
import type { GameEvent } from '../../engine/events.js';
import { DEFAULT_LANG } from '../i18n/messages.js';
import { eventText } from '../i18n/eventText.js';
import { type GameView, foldView } from '../game/gameView.js';
import { makeAlertMessage, makeEventMessage } from '../wire/events.js';
import type { Logger } from '../logger.js';
import type { EventMessage } from '../mqtt/topics.js';
import type { WebAlert } from '../web/contract.js';
import type { Stepped } from './types.js';

/** Where a game's outputs go (EventPublisher, the feed; injected). */
export interface GameOutputs {
  readonly event: (message: EventMessage) => void;
  readonly alert: (message: WebAlert) => void;
  /** The game as it now stands: retained snapshot, PGN, feed. Called once per step with events. */
  readonly view: (view: GameView) => void;
  /** Every event with the board its game is on (the board's LEDs); optional. */
  readonly boardEvent?: (board: string | undefined, event: GameEvent) => void;
}

export interface PublishDeps {
  readonly initial: GameView;
  readonly outputs: GameOutputs;
  readonly log: Logger;
  /** The language of the sentences in the log lines (codes stay as they are); default English. */
  readonly language?: string;
}

export interface Published {
  readonly stepped: Stepped;
  readonly view: GameView;
}

/**
 * One readable line per domain transition (STYLE 21); clocks are left to debug. In the venue's
 * language when it is not English (docs/i18n.md): the game's id, codes and articles stay as they
 * are, the rest is rendered from the event's fields.
 */
const describe = (e: GameEvent, lang: string): string | undefined => {
  if (e.type === 'clock') return undefined;
  if (lang !== DEFAULT_LANG)
    return `${e.game} ${eventText(lang, e)}${e.type === 'move' ? ` (seq ${e.seq})` : ''}`;
  switch (e.type) {
    case 'move':
      return `${e.game} ${Math.ceil(e.ply / 2)}${e.ply % 2 === 1 ? '.' : '...'} ${e.san} (seq ${e.seq})`;
    case 'correction':
      return `${e.game} correction from ply ${e.fromPly} (${e.reason}): ${e.moves.map(m => m.san).join(' ') || 'plies removed'}`;
    case 'alert':
      return `${e.game} alert ${e.code}${e.grade ? ` (${e.grade})` : ''} [${e.article.edition} ${e.article.article}]: ${e.detail}`;
    case 'alert-withdrawn':
      return `${e.game} alert seq ${e.alert} (${e.code}) withdrawn: ${e.reason}`;
    case 'finding':
      return `${e.game} finding on ply ${e.ply} (${e.breach ? e.grade : 'information'}) ${e.code} [${e.article.edition} ${e.article.article}]: ${e.detail}`;
    case 'claim':
      return `${e.game} claim ${e.claim} by ${e.by}: ${e.status}${e.detail === undefined ? '' : `: ${e.detail}`}`;
    case 'offer':
      return `${e.game} draw offer by ${e.by}: ${e.status}`;
    case 'end':
      return `${e.game} ended ${e.result} by ${e.reason} [${e.article.edition} ${e.article.article}]`;
  }
};

export const publishGame =
  (deps: PublishDeps): OperatorFunction<Stepped, Published> =>
  source$ =>
    source$.pipe(
      scan<Stepped, Published, undefined>(
        (prev, stepped) => ({
          stepped,
          view: stepped.events.reduce(foldView, prev?.view ?? deps.initial),
        }),
        undefined,
      ),
      tap(({ stepped, view }) => {
        for (const e of stepped.events) {
          deps.outputs.event(makeEventMessage(e));
          const alert = makeAlertMessage(e, { board: view.info.board, ply: view.record.length });
          if (alert !== undefined) deps.outputs.alert(alert);
          deps.outputs.boardEvent?.(view.info.board, e);
          const line = describe(e, deps.language ?? DEFAULT_LANG);
          if (line !== undefined) deps.log.info(line);
          else deps.log.debug(() => `${e.game} ${e.type} seq ${e.seq}`);
        }
        if (stepped.events.length > 0) deps.outputs.view(view);
        if (stepped.done !== undefined) {
          if (stepped.record !== undefined)
            stepped.done({ ok: true, record: stepped.record, events: stepped.events, run: stepped.run });
          else stepped.done({ ok: false, error: stepped.refused ?? new Error('not recorded') });
        }
      }),
    );
