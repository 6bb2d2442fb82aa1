/** Cross-field checks, one mistake per case, each on an otherwise valid file. */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/bridge/config/load.js';

const problemsOf = (text: string): readonly string[] => {
  const r = parseConfig(text);
  return r.isOk ? [] : r.error.problems;
};

const pairing = (round: number, board: number, serial: string): string =>
  `  - { round: ${round}, board: ${board}, serial: '${serial}', white: { name: W }, black: { name: B } }`;

describe('boards', () => {
  it.each([
    [
      'duplicate ids',
      ['boards:', '  - { id: b1, driver: dgt, port: /dev/a }', '  - { id: b1, driver: dgt, port: /dev/b }'],
      ['boards[1].id: duplicate board id "b1" (also boards[0]) (line 3)'],
    ],
    [
      'duplicate serial numbers',
      ['boards:', "  - { id: b1, driver: dgt, serial: '7' }", "  - { id: b2, driver: certabo, serial: '7' }"],
      ['boards[1].serial: serial number "7" is also boards[0] (b1) (line 3)'],
    ],
    [
      'a port used by two boards',
      [
        'boards:',
        '  - { id: b1, driver: dgt, port: /dev/a }',
        '  - { id: b2, driver: millennium, port: /dev/a }',
      ],
      ['boards[1].port: /dev/a is also used by boards[0] (b1); only dgt-bus boards share a port (line 3)'],
    ],
    [
      'a bus board and a single board on one port',
      [
        'boards:',
        '  - { id: b1, driver: dgt-bus, port: /dev/a, busAddress: 1 }',
        '  - { id: b2, driver: dgt, port: /dev/a }',
      ],
      ['boards[1].port: /dev/a is also used by boards[0] (b1); only dgt-bus boards share a port (line 3)'],
    ],
    [
      'a capture file shared by two lines, and one on a Chessnut board',
      [
        'boards:',
        '  - { id: b1, driver: dgt, port: /dev/a, capture: x.capture }',
        '  - { id: b2, driver: millennium, port: /dev/b, serial: m2, capture: x.capture }',
        '  - { id: b3, driver: chessnut, serial: c3, capture: c.capture }',
        '  - { id: b4, driver: dgt-bus, port: /dev/c, busAddress: 1, capture: bus.capture }',
        '  - { id: b5, driver: dgt-bus, port: /dev/c, busAddress: 2, capture: bus.capture }',
      ],
      [
        'boards[2].capture: only boards on a serial line can be captured (chessnut is USB HID) (line 4)',
        'boards[1].capture: x.capture is also the capture of boards[0] (b1) (line 3)',
      ],
    ],
    [
      'two bus boards on one address',
      [
        'boards:',
        '  - { id: b1, driver: dgt-bus, port: /dev/a, busAddress: 1 }',
        '  - { id: b2, driver: dgt-bus, port: /dev/a, busAddress: 1 }',
      ],
      ['boards[1].busAddress: bus address 1 on /dev/a is also boards[0] (b1) (line 3)'],
    ],
    [
      'a bus board without address or port',
      ['boards:', "  - { id: b1, driver: dgt-bus, serial: '1' }"],
      [
        'boards[0].busAddress: missing: a dgt-bus board needs its bus address (line 2)',
        'boards[0].port: missing: a dgt-bus board needs the port of its bus (line 2)',
      ],
    ],
    [
      'a bus address on a single board',
      ['boards:', '  - { id: b1, driver: dgt, port: /dev/a, busAddress: 3 }'],
      ['boards[0].busAddress: only dgt-bus boards have one (driver is dgt) (line 2)'],
    ],
    [
      'a board that cannot be found',
      ['boards:', '  - { id: b1, driver: chessnut }'],
      ['boards[0]: give a port or a serial number to find the board by (line 2)'],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(problemsOf(lines.join('\n'))).toEqual(expected);
  });

  it('accepts boards sharing a port on one bus with distinct addresses', () => {
    const text = [
      'boards:',
      '  - { id: b1, driver: dgt-bus, port: /dev/a, busAddress: 1 }',
      '  - { id: b2, driver: dgt-bus, port: /dev/a, busAddress: 2 }',
      '  - { id: b3, driver: dgt-bus, port: /dev/b, busAddress: 1 }',
    ].join('\n');
    expect(problemsOf(text)).toEqual([]);
  });
});

describe('pairings', () => {
  const boards = [
    'tournament: { rounds: 3 }',
    'boards:',
    "  - { id: b1, driver: dgt, port: /dev/a, serial: '11' }",
    "  - { id: b2, driver: dgt, port: /dev/b, serial: '22' }",
    'pairings:',
  ];

  it.each([
    [
      'an unknown serial',
      [pairing(1, 1, '99')],
      ['pairings[0].serial: no board has serial number "99" (line 6)'],
    ],
    [
      'one board in two pairings of a round',
      [pairing(1, 1, '11'), pairing(1, 2, '11')],
      ['pairings[1].serial: board "11" already plays pairings[0] in round 1 (line 7)'],
    ],
    [
      'one board number twice in a round',
      [pairing(2, 1, '11'), pairing(2, 1, '22')],
      ['pairings[1].board: round 2 board 1 is also pairings[0] (line 7)'],
    ],
    [
      'a round beyond the event',
      [pairing(4, 1, '11')],
      ['pairings[0].round: round 4 is beyond tournament.rounds (3) (line 6)'],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(problemsOf([...boards, ...lines].join('\n'))).toEqual(expected);
  });

  it('accepts one board per round across rounds, and pairings bound later', () => {
    const text = [
      ...boards,
      pairing(1, 1, '11'),
      pairing(2, 1, '11'),
      pairing(1, 2, '22'),
      '  - { round: 3, board: 5, white: { name: W }, black: { name: B } }',
    ].join('\n');
    expect(problemsOf(text)).toEqual([]);
  });

  it('reports a pairing bound to two boards that share its serial', () => {
    const text = [
      'boards:',
      "  - { id: b1, driver: dgt, port: /dev/a, serial: '11' }",
      "  - { id: b2, driver: dgt, port: /dev/b, serial: '11' }",
      'pairings:',
      pairing(1, 1, '11'),
    ].join('\n');
    expect(problemsOf(text)).toEqual([
      'boards[1].serial: serial number "11" is also boards[0] (b1) (line 3)',
      'pairings[0].serial: bound to 2 boards with serial number "11": boards[0] (b1), boards[1] (b2) (line 5)',
    ]);
  });
});

describe('laws and network', () => {
  it.each([
    ['laws: { timeControl: "40 moves" }', /^laws\.timeControl: .+ \(line 1\)$/],
    ['mqtt: { username: u }', /^mqtt\.password: missing: username is set \(line 1\)$/],
    [
      'mqtt: { broker: { password: p } }',
      /^mqtt\.broker\.password: no longer read: .* give each person a user in users/,
    ],
    [
      'mqtt: { broker: { host: 0.0.0.0, anonymousRead: yes } }',
      /^mqtt\.broker\.anonymousRead: only for a single-machine demo: the broker listens on 0\.0\.0\.0/,
    ],
    ['livechess: { enabled: yes, port: 8080 }', /^livechess\.port: same port as http\.port \(8080\)/],
    [
      'livechess: { enabled: yes, host: 0.0.0.0, home: yes }',
      /^livechess\.home: only for one machine: the LiveChess API listens on 0\.0\.0\.0/,
    ],
    ['mqtt: { broker: { wsPort: 1883 } }', /^mqtt\.broker\.wsPort: same port as mqtt\.broker\.port \(1883\)/],
    ['http: { port: 9001 }', /^http\.port: same port as mqtt\.broker\.wsPort \(9001\)/],
  ])('%s', (text, expected) => {
    const problems = problemsOf(text);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(expected);
  });

  it.each([
    'laws: { timeControl: 15+10 }',
    'laws: { timeControl: "2h/40 + 1h/20 + 15m, +30s from move 61" }',
    'mqtt: { broker: { host: 0.0.0.0 } }',
    'mqtt: { url: "mqtt://x", broker: { host: 0.0.0.0, wsPort: 1883 } }',
    'http: { enabled: no, port: 1883 }',
    'mqtt: { broker: { host: localhost } }',
  ])('accepts %s', text => {
    expect(problemsOf(text)).toEqual([]);
  });
});

describe('users', () => {
  const hash = 'scrypt$1024$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
  it.each([
    [
      'a name used twice',
      [
        'users:',
        `  - { name: anna, role: arbiter, passwordEnv: A }`,
        `  - { name: anna, role: display, passwordEnv: B }`,
      ],
      ['users[1].name: "anna" is already users[0] (line 3)'],
    ],
    [
      'no secret, two secrets',
      [
        'users:',
        '  - { name: anna, role: arbiter }',
        `  - { name: bob, role: operator, passwordEnv: B, passwordFile: b.txt }`,
      ],
      [
        'users[0]: give passwordHash (chessbridge passwd), passwordFile or passwordEnv (line 2)',
        'users[1].passwordEnv: give one of passwordHash, passwordFile, passwordEnv, not passwordFile and passwordEnv (line 3)',
      ],
    ],
    [
      'a plain password where the hash goes',
      ['users:', '  - { name: anna, role: arbiter, passwordHash: change-me }'],
      [
        'users[0].passwordHash: not a chessbridge password hash: expected scrypt$N$r$p$salt$hash, as `chessbridge passwd` writes it (line 2)',
      ],
    ],
  ])('%s', (_name, lines, expected) => {
    expect(problemsOf(lines.join('\n'))).toEqual(expected);
  });

  it('accepts one user per name with one secret each', () => {
    expect(
      problemsOf(
        [
          'users:',
          `  - { name: anna, role: arbiter, passwordHash: '${hash}' }`,
          '  - { name: wall, role: display, passwordEnv: WALL }',
        ].join('\n'),
      ),
    ).toEqual([]);
  });
});

describe('broadcast.lichess', () => {
  it('wants one token source and each round pushed once', () => {
    expect(
      problemsOf(
        [
          'broadcast:',
          '  lichess:',
          '    token: lip_abcdefghijkl',
          '    tokenFile: token.txt',
          '    rounds: [{ round: 1, id: AbCd1234 }, { round: 1, id: EfGh5678 }]',
        ].join('\n'),
      ),
    ).toEqual([
      'broadcast.lichess.tokenFile: give token or tokenFile, not both (line 4)',
      'broadcast.lichess.rounds[1].round: round 1 is pushed twice (line 5)',
    ]);
    expect(
      problemsOf(['broadcast:', '  lichess:', '    rounds: [{ round: 1, id: AbCd1234 }]'].join('\n')),
    ).toEqual([
      'broadcast.lichess: give tokenFile, token, or CHESSBRIDGE_BROADCAST_LICHESS_TOKEN in the environment (line 3)',
    ]);
    expect(
      problemsOf(
        ['broadcast:', '  lichess: { tokenFile: t.txt, rounds: [{ round: 1, id: AbCd1234 }] }'].join('\n'),
      ),
    ).toEqual([]);
  });
});
