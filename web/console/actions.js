// The arbiter's actions and how they are sent: as MQTT requests on
// `<base>/bridge/request/<action>` (the default), or as `POST <api>/<action-with-hyphens>` with
// the token or password in the Authorization header (`?actions=http`). Either way the answer is
// the response envelope `{ status, data, error?, transaction }`; over HTTP, a refusal of the
// credentials (401, 403, 429) is flagged with `auth: true` so the console can lock itself.
//
//   const sender = new ActionSender({ mode: 'mqtt', live });
//   const envelope = await sender.send('restore_position', { game_id: 'r1-b1', ply: 24 });

/** The actions the console offers, with their label (MQTT action names, docs/mqtt.md). */
export const ACTION_LABELS = {
  accept_claim: 'Accept claim',
  reject_claim: 'Reject claim',
  apply_penalty: 'Apply penalty',
  restore_position: 'Restore position',
  set_result: 'Set result',
  resync_board: 'Resync board',
  claim: 'Record a claim',
  set_moves: 'Record the moves',
  upload_pairings: 'Upload pairings',
  rebind_board: 'Give a board another table',
  round_control: 'Round',
};

/** The HTTP route name of an action: `restore_position` → `restore-position`. */
export const httpActionName = action => action.replace(/_/g, '-');

/** The Authorization header for a secret: a bearer token, or Basic with the password. */
export const authorizationHeader = (kind, secret, user = 'arbiter') => {
  if (kind === 'token') return `Bearer ${secret}`;
  const bytes = new TextEncoder().encode(`${user}:${secret}`);
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
};

let httpCounter = 0;

export class ActionSender {
  /**
   * @param {object} options
   * @param {'mqtt'|'http'} options.mode
   * @param {import('../shared/live.js').LiveConnection} [options.live] for MQTT requests
   * @param {string} [options.api] base URL of the HTTP actions (default `/api/arbiter/`)
   * @param {{ kind: 'token'|'password', secret: string, user?: string }} [options.credentials] for HTTP
   *   (a password goes with `user`, default `arbiter`)
   */
  constructor(options) {
    this.options = options;
  }

  /** Sends one action; always resolves with an envelope. */
  send(action, fields) {
    if (!Object.hasOwn(ACTION_LABELS, action))
      return Promise.resolve({
        status: 'error',
        data: {},
        error: `unknown action ${action}`,
        code: 'unknown_action',
        params: { action },
        local: true,
      });
    return this.options.mode === 'http'
      ? this.sendHttp(action, fields)
      : this.options.live.request(action, fields);
  }

  async sendHttp(action, fields) {
    const { credentials } = this.options;
    httpCounter += 1;
    const transaction = `http-${Date.now().toString(36)}-${httpCounter}`;
    if (!credentials?.secret)
      return {
        status: 'error',
        data: {},
        error: 'log in first',
        code: 'login_first',
        params: {},
        transaction,
        auth: true,
        local: true,
      };
    const url = new URL(
      httpActionName(action),
      new URL(this.options.api ?? '/api/arbiter/', window.location.href),
    );
    let response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: authorizationHeader(credentials.kind, credentials.secret, credentials.user),
        },
        body: JSON.stringify({ ...fields, transaction }),
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch (error) {
      return {
        status: 'error',
        data: {},
        error: `not sent: ${error.message}`,
        code: 'not_sent',
        params: { error: error.message },
        transaction,
        local: true,
      };
    }
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    const auth = response.status === 401 || response.status === 403 || response.status === 429;
    if (body && (body.status === 'ok' || body.status === 'error') && !auth)
      return { data: {}, ...body, transaction: body.transaction ?? transaction, http: response.status };
    const error = body?.error ?? `HTTP ${response.status} ${response.statusText}`;
    // The refusal as data (code, params) when the daemon gave one; the status otherwise.
    const refusal =
      body?.error === undefined
        ? { code: 'http_status', params: { status: String(response.status) } }
        : body.code === undefined
          ? {}
          : { code: body.code, params: body.params ?? {} };
    return {
      status: 'error',
      data: {},
      error,
      ...refusal,
      transaction,
      http: response.status,
      ...(auth ? { auth: true } : {}),
    };
  }
}
