/**
 * Why a request was refused, as data: a code and its parameters, beside the English `error` that
 * old consumers print. The pages render the refusal from the catalogs (`refusal.<code>`,
 * docs/i18n.md); a refusal without a code (a game's own answer, rare) is shown as its English
 * `error`. The table lists every code and the parameters it carries; a test keeps the catalogs
 * complete for it.
 *
 *   refused('no_board', { board: 'dgt-9' }, 'no board dgt-9 on this daemon');   // an Error with .refusal
 *   refusalOf(error); // { code: 'no_board', params: { board: 'dgt-9' } } | undefined
 */

export const REFUSAL_PARAMS = {
  // Logging in (HTTP 401, 403, 429).
  credentials_wrong: [],
  credentials_required: [],
  logins_off: [],
  too_many_attempts: [],
  not_allowed: ['user', 'role', 'action'],
  unknown_user: ['user'],
  user_required: [],
  // The request itself.
  foreign_origin: [],
  json_content_type: [],
  bad_json: [],
  not_an_object: [],
  body_too_large: [],
  unknown_action: ['action'],
  invalid_fields: ['fields'],
  rate_limited: ['seconds'],
  busy: ['seconds'],
  internal: ['action'],
  // What it asked of games and boards.
  no_game: ['game'],
  game_exists: ['game'],
  game_not_in_play: ['game'],
  game_under_way: ['game'],
  game_on_board: ['game', 'board'],
  no_board: ['board'],
  board_not_connected: ['board'],
  no_clock: ['board'],
  board_has_game: ['board', 'game'],
  bad_time_control: ['time_control'],
  bad_fen: ['fen'],
  ply_beyond: ['game', 'ply', 'plies'],
  journal_failed: ['game'],
  stopping: [],
  // The operator's (pairings and rounds); `problem` is one of REFUSAL_PROBLEMS.
  pairings_invalid: ['count', 'line', 'field', 'value', 'problem'],
  pairings_unfit: ['count', 'round', 'board', 'value', 'problem'],
  round_beyond: ['round', 'rounds'],
  operation_not_journaled: [],
  // The pages' own (nothing reached the daemon).
  login_first: [],
  not_sent: ['error'],
  http_status: ['status'],
} as const satisfies Readonly<Record<string, readonly string[]>>;

export type RefusalCode = keyof typeof REFUSAL_PARAMS;

/**
 * The values of a refusal's `problem` parameter: what is wrong with a pairings file's line
 * (pairings/types.ts) or with how a file's pairing fits the config (pairings/fromFile.ts). The
 * pages render each as `refusal.problem.<problem>` (which may name the refusal's `value`) inside
 * the refusal's sentence.
 */
export const REFUSAL_PROBLEMS = [
  'badField',
  'missingField',
  'unknownColumn',
  'missingColumn',
  'duplicate',
  'unknownPlayer',
  'inconsistent',
  'empty',
  'round_beyond',
  'unknown_serial',
  'config_pairs_it',
] as const;
export type RefusalProblem = (typeof REFUSAL_PROBLEMS)[number];
export type RefusalParams = Readonly<Record<string, string | number>>;

export interface Refusal {
  readonly code: RefusalCode;
  readonly params: RefusalParams;
}

/** An Error with its English message and the refusal as data. */
export const refused = (
  code: RefusalCode,
  params: RefusalParams,
  message: string,
): Error & { refusal: Refusal } => Object.assign(new Error(message), { refusal: { code, params } });

/** The refusal an error carries, if any. */
export const refusalOf = (e: unknown): Refusal | undefined => {
  const r = (e as { refusal?: unknown } | null)?.refusal;
  return typeof r === 'object' && r !== null && 'code' in r ? (r as Refusal) : undefined;
};

/** The envelope's fields for a refusal: `code` and `params`, or nothing. */
export const refusalFields = (e: unknown): { code?: RefusalCode; params?: RefusalParams } => {
  const r = refusalOf(e);
  return r === undefined ? {} : { code: r.code, params: r.params };
};
