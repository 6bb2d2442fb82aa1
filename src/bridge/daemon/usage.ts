/**
 * The help texts of the command line: the overview and one page per command (`--help`).
 *
 *   for (const line of COMMAND_USAGE.run) console.log(line);
 */

export const USAGE: readonly string[] = [
  'usage: chessbridge <command> [options]        (chessbridge <command> --help for more)',
  '',
  'commands:',
  '  run -c FILE          run the daemon with a configuration file (Ctrl-C or SIGTERM stops it)',
  '  demo                 emulated boards play real games; embedded broker and web display',
  '  check FILE           validate a configuration file: every problem as `path: problem`',
  '  ports [PATH...]      list serial ports and probe them for DGT boards',
  '  replay FILE...       replay PGN files, board scripts (.cbs) or game journals (.jsonl)',
  '',
  'exit codes: 0 success, 1 failure (bad file, invalid configuration, daemon error), 2 usage error',
];

export const COMMAND_USAGE: Readonly<Record<string, readonly string[]>> = {
  run: [
    'usage: chessbridge run -c FILE',
    '',
    'Runs the daemon: reads the boards of FILE, records every game in its journal, publishes over',
    'MQTT and HTTP. Stops cleanly on SIGTERM or SIGINT (journal synced, `offline` published).',
    'Under systemd (Type=notify) it reports READY, pings the watchdog and reports STOPPING.',
    '',
    'options:',
    '  -c, --config FILE    the configuration (default: $CHESSBRIDGE_CONFIG)',
    '',
    'logs go to stdout: logging.format text (people) or json (machines, one object a line)',
  ],
  demo: [
    'usage: chessbridge demo [--boards N] [--speed X] [--rounds R] [--once] [--seed S]',
    '',
    'Starts emulated DGT boards on pseudo-terminals (socat), the daemon with its embedded broker',
    'and the web display, and plays well-known games with human handling. Prints the addresses',
    'and runs until Ctrl-C.',
    '',
    'options:',
    '  --boards N           emulated boards (1-64, default 4)',
    '  --speed X            players act X times faster than real time (default 1)',
    '  --rounds R           games each board plays one after the other (default 20, 1 with --once)',
    '  --once               exit once every board has played its games',
    '  --seed S             seed of the human handling (default 1)',
  ],
  check: [
    'usage: chessbridge check FILE',
    '',
    'Validates a configuration file without starting anything. Every problem is printed as',
    '`path: problem (line N)`; exit code 1 when there is any.',
  ],
  ports: [
    'usage: chessbridge ports [PATH...] [--no-probe] [--timeout MS]',
    '',
    'Lists the serial ports of this machine (or the PATHs given) and asks each for a DGT board',
    'serial number and firmware. Nothing is written to a board besides the two requests.',
    '',
    'options:',
    '  --no-probe           list only',
    '  --timeout MS         wait this long for an answer (default 1500)',
  ],
  replay: [
    'usage: chessbridge replay FILE... [--json] [--edition E] [--type T] [--supervision S]',
    '       chessbridge replay --examples',
    '',
    'FILE.pgn: recorded games through the rules (moves, claims that became possible, the end).',
    'FILE.cbs or a folder: board scripts through the supervisor (docs/board-scripts.md).',
    'FILE.jsonl: a game journal (journal/games/<game>.jsonl) through the supervisor, as the daemon',
    '  decided it, with the time of every event: what happened at the board and when.',
    '',
    'options:',
    '  --json               one JSON object a line instead of text',
    '  --edition E          Laws of Chess edition for PGN files: E97, E09, E14, E17, E18, E23 (default E23)',
    '  --type T             standard, rapid or blitz (default standard)',
    '  --supervision S      full or reduced (default full)',
    '  --examples           the example games shipped with chessbridge',
  ],
};
