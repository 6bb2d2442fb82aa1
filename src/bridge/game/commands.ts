/**
 * Operator commands as the journal keeps them and the supervisor takes them: a request of the
 * MQTT API (or the arbiter console, or the CLI) that concerns a game's play is journaled as
 * `{ type: 'command', action, params, source }` with the action's name and its validated
 * snake_case fields, and becomes the engine's `OperatorCommand` when the game is stepped.
 *
 *   const cmd = commandInput('restore_position', { game_id: 'r1-b3', ply: 12 }, at);
 *   // { kind: 'arbiter', at, action: { type: 'restore', ply: 12 } }
 *
 * Unknown actions and malformed params map to nothing (the journal is read back verbatim; a
 * record written by a newer daemon must not stop an older one replaying the rest).
 */
import type { OperatorCommand } from '../../engine/events.js';
import type { Color } from '../../engine/types.js';

/** Actions that are journaled and fed to a game's supervisor. */
export const GAME_COMMANDS = [
  'accept_claim',
  'reject_claim',
  'apply_penalty',
  'restore_position',
  'set_moves',
  'adjust_clocks',
  'set_result',
  'claim',
  'offer',
  'offer_reply',
  'resign',
  'pause_clock',
  'resume_clock',
] as const;
export type GameCommand = (typeof GAME_COMMANDS)[number];

export const isGameCommand = (action: string): action is GameCommand =>
  (GAME_COMMANDS as readonly string[]).includes(action);

type Params = Readonly<Record<string, unknown>>;

const asColor = (v: unknown): Color | undefined => (v === 'white' || v === 'black' ? v : undefined);
const asInt = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined;
const asText = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const RESULTS = ['1-0', '0-1', '1/2-1/2', '0-0'] as const;
type ArbiterResult = (typeof RESULTS)[number];
const asResult = (v: unknown): ArbiterResult | undefined =>
  (RESULTS as readonly unknown[]).includes(v) ? (v as ArbiterResult) : undefined;

/** Claims as journaled (the request's snake_case, and the earlier camelCase) to the engine's kinds. */
const CLAIMS: Readonly<Record<string, Extract<OperatorCommand, { kind: 'claim' }>['claim']>> = {
  threefold: 'threefold',
  fifty_moves: 'fiftyMoves',
  fiftyMoves: 'fiftyMoves',
  flag: 'flag',
  illegal_move: 'illegalMove',
  illegalMove: 'illegalMove',
  art4: 'art4',
};

/** The supervisor input of a journaled command, or undefined when it has none. */
export const commandInput = (action: string, rawParams: unknown, at: number): OperatorCommand | undefined => {
  if (!isGameCommand(action) || typeof rawParams !== 'object' || rawParams === null) return undefined;
  const p = rawParams as Params;
  const arbiter = (a: Extract<OperatorCommand, { kind: 'arbiter' }>['action']): OperatorCommand => ({
    kind: 'arbiter',
    at,
    action: a,
  });
  switch (action) {
    case 'accept_claim':
      return arbiter({ type: 'acceptClaim' });
    case 'reject_claim':
      return arbiter({ type: 'rejectClaim' });
    case 'apply_penalty': {
      const color = asColor(p.color);
      if (color === undefined) return undefined;
      const seconds = asInt(p.seconds) ?? 120;
      switch (p.penalty) {
        case 'add_time_to_opponent':
          return arbiter({ type: 'penalty', against: color, minutes: seconds / 60 });
        case 'game_lost':
          return arbiter({
            type: 'setResult',
            result: color === 'white' ? '0-1' : '1-0',
            reason: asText(p.note) ?? 'penalty',
          });
        default:
          // A warning or a deduction is journaled for the record; the clock change comes as adjust_clocks.
          return undefined;
      }
    }
    case 'restore_position': {
      const ply = asInt(p.ply);
      return ply === undefined ? undefined : arbiter({ type: 'restore', ply });
    }
    case 'set_moves': {
      const afterPly = asInt(p.after_ply);
      const moves = Array.isArray(p.moves) && p.moves.every(m => typeof m === 'string') ? p.moves : undefined;
      return afterPly === undefined || moves === undefined
        ? undefined
        : arbiter({ type: 'setMoves', afterPly, moves });
    }
    case 'adjust_clocks': {
      const whiteMs = asInt(p.white_ms);
      const blackMs = asInt(p.black_ms);
      return whiteMs === undefined || blackMs === undefined
        ? undefined
        : arbiter({ type: 'adjustClock', whiteMs, blackMs });
    }
    case 'set_result': {
      const result = asResult(p.result);
      return result === undefined
        ? undefined
        : arbiter({ type: 'setResult', result, reason: asText(p.reason) ?? 'arbiter' });
    }
    case 'pause_clock':
      return arbiter({ type: 'pauseClock' });
    case 'resume_clock':
      return arbiter({ type: 'resumeClock' });
    case 'claim': {
      const by = asColor(p.color);
      const claim =
        typeof p.claim === 'string' && Object.prototype.hasOwnProperty.call(CLAIMS, p.claim)
          ? CLAIMS[p.claim]
          : undefined;
      if (by === undefined || claim === undefined) return undefined;
      const intended = asText(p.intended);
      return { kind: 'claim', at, by, claim, ...(intended === undefined ? {} : { intended }) };
    }
    case 'offer': {
      const by = asColor(p.color);
      return by === undefined ? undefined : { kind: 'offer', at, by };
    }
    case 'offer_reply': {
      const by = asColor(p.color);
      return by === undefined || typeof p.accept !== 'boolean'
        ? undefined
        : { kind: 'offerReply', at, by, accept: p.accept };
    }
    case 'resign': {
      const by = asColor(p.color);
      return by === undefined ? undefined : { kind: 'resign', at, by };
    }
  }
};
