import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestGate } from '../../../src/bridge/requestGate.js';
import { Result } from '../../../src/engine/types.js';
import { makeFeedState } from '../../../src/bridge/feed/feedState.js';
import type { ArbiterRequest } from '../../../src/bridge/http/arbiterRoutes.js';
import { checkAuthorization } from '../../../src/bridge/http/auth.js';
import { HttpServer } from '../../../src/bridge/http/server.js';

const TOKEN = 'tok-3f9a1c';
const PASSWORD = 'kingside castle';
const calls: ArbiterRequest[] = [];
let now = 1_000_000;

const actions = {
  restore: (req: ArbiterRequest) => {
    calls.push(req);
    return Promise.resolve(Result.ok({ restoredTo: (req.body as { ply: number }).ply }));
  },
  'set-result': (req: ArbiterRequest) => {
    calls.push(req);
    return Promise.resolve(
      Result.err(Object.assign(new Error('game 1.4 is already over'), { kind: 'gameOver' })),
    );
  },
};

const feed = () => makeFeedState({ name: 'x' }, 0);
const secured = new HttpServer({
  port: 0,
  feed,
  clock: () => now,
  maxAuthFailures: 3,
  arbiter: { token: TOKEN, password: PASSWORD, actions },
});
const open = new HttpServer({ port: 0, feed, arbiter: { actions } });
let base = '';
let openBase = '';

beforeAll(async () => {
  base = `http://127.0.0.1:${(await secured.start()).port}`;
  openBase = `http://127.0.0.1:${(await open.start()).port}`;
});
afterAll(async () => {
  await Promise.all([secured.stop(), open.stop()]);
});
beforeEach(() => {
  calls.length = 0;
  now += 120_000; // a fresh failure window for every test
});

const post = (
  path: string,
  init: { auth?: string; body?: string; type?: string; origin?: string } = {},
  root = base,
) =>
  fetch(`${root}${path}`, {
    method: 'POST',
    headers: {
      ...(init.auth !== undefined ? { authorization: init.auth } : {}),
      ...(init.type !== '' ? { 'content-type': init.type ?? 'application/json' } : {}),
      ...(init.origin !== undefined ? { origin: init.origin } : {}),
    },
    body: init.body ?? '{"ply":12,"transaction":"t-1"}',
  });
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('arbiter actions', () => {
  it('refuses a request without credentials with 401 and says how to authenticate', async () => {
    const res = await post('/api/arbiter/restore');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('Bearer realm="chessbridge arbiter"');
    expect(res.headers.get('www-authenticate')).toContain('Basic realm="chessbridge arbiter"');
    expect(await res.json()).toMatchObject({ status: 'error', code: 'credentials_required', params: {} });
    expect(calls).toEqual([]);
  });

  it('refuses a wrong token, a wrong password and an unknown scheme with 401', async () => {
    for (const auth of [
      `Bearer ${TOKEN}x`,
      'Bearer ',
      basic('arbiter', 'queenside'),
      `Digest ${TOKEN}`,
      'Basic !!!',
    ]) {
      now += 60_000;
      const res = await post('/api/arbiter/restore', { auth });
      expect(res.status, auth).toBe(401);
      expect(((await res.json()) as { code: string }).code, auth).toBe('credentials_wrong');
    }
    expect(calls).toEqual([]);
  });

  it('runs the injected action with a valid token or password, echoing the transaction', async () => {
    const byToken = await post('/api/arbiter/restore', { auth: `Bearer ${TOKEN}` });
    expect(byToken.status).toBe(200);
    expect(await byToken.json()).toEqual({ status: 'ok', data: { restoredTo: 12 }, transaction: 't-1' });
    const byPassword = await post('/api/arbiter/restore', {
      auth: basic('chief', PASSWORD),
      body: '{"ply":3}',
    });
    expect(await byPassword.json()).toEqual({ status: 'ok', data: { restoredTo: 3 } });
    expect(calls.map(c => [c.action, c.via, c.remote])).toEqual([
      ['restore', 'token', '127.0.0.1'],
      ['restore', 'password', '127.0.0.1'],
    ]);
  });

  it('turns a refused action into 422 with its message and kind', async () => {
    const res = await post('/api/arbiter/set-result', { auth: `Bearer ${TOKEN}` });
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      status: 'error',
      error: 'game 1.4 is already over',
      kind: 'gameOver',
      transaction: 't-1',
    });
  });

  it('refuses unknown actions, other methods, non-JSON bodies, bad JSON and oversized bodies', async () => {
    const auth = `Bearer ${TOKEN}`;
    const unknown = await post('/api/arbiter/unknown', { auth });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'unknown_action', params: { action: 'unknown' } });
    // fetch normalises this to /api/restore: a public read-only route, so the POST is refused
    expect((await post('/api/arbiter/../restore', { auth })).status).toBe(405);
    expect((await fetch(`${base}/api/arbiter/restore`, { headers: { authorization: auth } })).status).toBe(
      405,
    );
    expect((await post('/api/arbiter/restore', { auth, type: 'text/plain' })).status).toBe(415);
    expect(
      (await post('/api/arbiter/restore', { auth, type: 'application/x-www-form-urlencoded', body: 'ply=1' }))
        .status,
    ).toBe(415);
    expect((await post('/api/arbiter/restore', { auth, body: '{"ply":' })).status).toBe(400);
    expect(
      (await post('/api/arbiter/restore', { auth, body: JSON.stringify({ pad: 'x'.repeat(70_000) }) }))
        .status,
    ).toBe(413);
    expect(calls).toEqual([]);
  });

  it("refuses a request from a page of another origin (a forged form in the arbiter's browser)", async () => {
    const auth = basic('chief', PASSWORD);
    expect((await post('/api/arbiter/restore', { auth, origin: 'http://evil.example' })).status).toBe(403);
    const host = new URL(base).host;
    expect((await post('/api/arbiter/restore', { auth, origin: `http://${host}` })).status).toBe(200);
  });

  it('refuses every arbiter action with 403 when no token or password is configured', async () => {
    const res = await post('/api/arbiter/restore', { auth: 'Bearer anything' }, openBase);
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: string }).error).toContain('disabled');
    expect(calls).toEqual([]);
  });

  it('slows a guessing address, never the right token, then lets it guess again', async () => {
    for (let i = 0; i < 3; i++)
      expect((await post('/api/arbiter/restore', { auth: 'Bearer guess' })).status).toBe(401);
    const slowed = await post('/api/arbiter/restore', { auth: 'Bearer guess' });
    expect(slowed.status).toBe(429);
    expect(Number(slowed.headers.get('retry-after'))).toBeGreaterThan(0);
    // Behind one NAT the arbiter and the guesser share the address: the right token still works.
    expect((await post('/api/arbiter/restore', { auth: `Bearer ${TOKEN}` })).status).toBe(200);
    now += 60_000;
    expect((await post('/api/arbiter/restore', { auth: 'Bearer guess' })).status).toBe(401);
  });
});

describe('checkAuthorization', () => {
  it('accepts only the configured method', () => {
    expect(checkAuthorization(`Bearer ${TOKEN}`, { token: TOKEN }).unwrap()).toBe('token');
    expect(checkAuthorization(basic('x', PASSWORD), { token: TOKEN }).isErr).toBe(true);
    // the password is everything after the first colon (user names cannot hold one, RFC 7617)
    expect(checkAuthorization(basic('x', 'a:b'), { password: 'a:b' }).unwrap()).toBe('password');
    expect(checkAuthorization(basic('x', 'a'), { password: 'a:b' }).isErr).toBe(true);
    expect(checkAuthorization(basic('x', ''), { password: '' }).isErr).toBe(true);
    const r = checkAuthorization(undefined, {});
    expect(r.isErr && r.error.kind).toBe('disabled');
  });
});

describe('arbiter actions behind a request gate', () => {
  it('answers 429 past the caller rate and 503 past the queue, with Retry-After, and runs nothing then', async () => {
    let gateNow = 0;
    const gate = new RequestGate({
      limits: {
        perSecond: 1,
        burst: 2,
        totalPerSecond: 100,
        queue: 1,
        refusalsPerSecond: 10,
        readPerSecond: 1000,
      },
      now: () => gateNow,
    });
    let finish: (() => void) | undefined;
    const slow = (req: ArbiterRequest) => {
      calls.push(req);
      return new Promise<Result<unknown, Error>>(resolve => {
        finish = () => resolve(Result.ok({}));
      });
    };
    const gated = new HttpServer({
      port: 0,
      feed,
      arbiter: { token: TOKEN, actions: { ...actions, slow }, gate },
    });
    const root = `http://127.0.0.1:${(await gated.start()).port}`;
    try {
      const auth = `Bearer ${TOKEN}`;
      // One request in the handler fills the queue of one: the next is busy.
      const first = post('/api/arbiter/slow', { auth }, root);
      await vi.waitFor(() => expect(calls).toHaveLength(1));
      const busy = await post('/api/arbiter/restore', { auth }, root);
      expect(busy.status).toBe(503);
      expect(busy.headers.get('retry-after')).toBe('1');
      expect(await busy.json()).toMatchObject({ error: 'busy: 1 requests wait already' });
      finish?.();
      expect((await first).status).toBe(200);
      // The burst of two is spent (the busy one took no token): the next is rate limited.
      expect((await post('/api/arbiter/restore', { auth }, root)).status).toBe(200);
      const limited = await post('/api/arbiter/restore', { auth }, root);
      expect(limited.status).toBe(429);
      expect(await limited.json()).toMatchObject({
        error: 'rate limited: more than 1 requests a second from this client',
      });
      expect(calls).toHaveLength(2);
      gateNow += 1000;
      expect((await post('/api/arbiter/restore', { auth }, root)).status).toBe(200);
    } finally {
      await gated.stop();
    }
  });
});
