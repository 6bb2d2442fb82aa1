/**
 * A password guesser as fast as a laptop on the hall's Wi-Fi can be, for the guessing test and
 * bench/guessing.ts: MQTT logins as raw CONNECT packets on fresh TCP connections (no MQTT client
 * library in the way: one packet out, the 4-byte CONNACK back), and HTTP Basic logins on a few
 * keep-alive connections; `concurrency` attempts in flight at once. Each returns how many attempts
 * got each answer (CONNACK code, HTTP status; -1 for a connection that ended without one).
 *
 *   const codes = await guessMqtt({ host: '127.0.0.1', port, count: 10_000, concurrency: 100,
 *     username: 'anna', password: i => `guess-${i}` });
 *   codes.get(0);   // undefined: nobody got in
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';

export type Tally = Map<number, number>;

const add = (tally: Tally, key: number): void => {
  tally.set(key, (tally.get(key) ?? 0) + 1);
};

/** Runs `count` attempts, `concurrency` at a time. */
const pool = async (
  count: number,
  concurrency: number,
  attempt: (i: number) => Promise<number>,
): Promise<Tally> => {
  const tally: Tally = new Map();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      add(tally, await attempt(i));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return tally;
};

const utf8 = (text: string): Buffer => {
  const body = Buffer.from(text, 'utf8');
  const len = Buffer.alloc(2);
  len.writeUInt16BE(body.length);
  return Buffer.concat([len, body]);
};

/** An MQTT 3.1.1 CONNECT with user name and password, clean session, keepalive 30 s. */
export const connectPacket = (clientId: string, username: string, password: string): Buffer => {
  const variable = Buffer.concat([utf8('MQTT'), Buffer.from([4, 0xc2, 0, 30])]);
  const payload = Buffer.concat([utf8(clientId), utf8(username), utf8(password)]);
  let remaining = variable.length + payload.length;
  const length: number[] = [];
  do {
    let byte = remaining % 128;
    remaining = Math.floor(remaining / 128);
    if (remaining > 0) byte |= 0x80;
    length.push(byte);
  } while (remaining > 0);
  return Buffer.concat([Buffer.from([0x10, ...length]), variable, payload]);
};

/** One MQTT login: the CONNACK's return code, or -1. */
export const mqttLogin = (
  host: string,
  port: number,
  clientId: string,
  username: string,
  password: string,
): Promise<number> =>
  new Promise(resolve => {
    const socket = connect({ host, port });
    let got = Buffer.alloc(0);
    const done = (code: number) => {
      socket.destroy();
      resolve(code);
    };
    socket.setTimeout(15_000, () => done(-1));
    socket.on('connect', () => socket.write(connectPacket(clientId, username, password)));
    socket.on('data', chunk => {
      got = Buffer.concat([got, chunk]);
      if (got.length >= 4) done(got[0] === 0x20 ? (got[3] ?? -1) : -1);
    });
    socket.on('error', () => done(-1));
    socket.on('close', () => done(-1));
  });

export const guessMqtt = (o: {
  readonly host: string;
  readonly port: number;
  readonly count: number;
  readonly concurrency: number;
  readonly username: string;
  readonly password: (i: number) => string;
}): Promise<Tally> =>
  pool(o.count, o.concurrency, i => mqttLogin(o.host, o.port, `guess-${i}`, o.username, o.password(i)));

/** One POST with Basic credentials on `agent`: the status, or -1. */
export const httpLogin = (
  url: URL,
  agent: Agent,
  username: string,
  password: string,
  body: string,
): Promise<number> =>
  new Promise(resolve => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
        },
      },
      res => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? -1));
      },
    );
    req.on('error', () => resolve(-1));
    req.end(body);
  });

export const guessHttp = async (o: {
  readonly url: string;
  readonly count: number;
  readonly concurrency: number;
  readonly username: string;
  readonly password: (i: number) => string;
  readonly body: string;
}): Promise<Tally> => {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const url = new URL(o.url);
  try {
    return await pool(o.count, o.concurrency, i => httpLogin(url, agent, o.username, o.password(i), o.body));
  } finally {
    agent.destroy();
  }
};

/** `{"429": 9990, "401": 10}` for a failure message or a report. */
export const tallyText = (tally: Tally): string =>
  JSON.stringify(Object.fromEntries([...tally.entries()].sort((a, b) => a[0] - b[0])));
