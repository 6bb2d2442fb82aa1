/**
 * systemd's notify protocol for `Type=notify` units: READY=1 once the daemon serves, WATCHDOG=1 at
 * half of `WATCHDOG_USEC`, STOPPING=1 when a stop begins, STATUS= lines for `systemctl status`.
 * Without `NOTIFY_SOCKET` (not started by systemd) every call does nothing.
 *
 *   const notify = new SdNotify({ env: process.env, log });
 *   await notify.ready('serving 12 boards');
 *   watchdog$(notify, asyncScheduler).pipe(takeUntil(shutdown$)).subscribe();  // in the one subscription
 *   await notify.stopping();
 *
 * Node has no unix datagram sockets, so a message is handed to a helper program: `systemd-notify`
 * (it waits until systemd has processed the message, so the attribution race of a short-lived
 * sender does not arise), or, where it is missing, `socat` writing one datagram to the socket. The
 * helper is a separate process, so the unit needs `NotifyAccess=all`; `MAINPID=` is sent with every
 * message so systemd attributes it to the daemon. Failures never stop the daemon: the first is
 * logged as a warning and notification is then switched off.
 */
import { execFile } from 'node:child_process';
import { EMPTY, interval, type Observable, type SchedulerLike, tap } from 'rxjs';
import type { Logger } from './logger.js';

/** Runs a helper program with arguments, optional standard input, and `NOTIFY_SOCKET` in its environment. */
export type RunHelper = (
  file: string,
  args: readonly string[],
  input?: string,
  socket?: string,
) => Promise<void>;

export interface SdNotifyContext {
  /** The environment (`NOTIFY_SOCKET`, `WATCHDOG_USEC`, `WATCHDOG_PID`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly log: Logger;
  /** This process's id (MAINPID=, and the WATCHDOG_PID check). */
  readonly pid?: number;
  /** Runs a helper (injected by tests). */
  readonly run?: RunHelper;
}

const runHelper: RunHelper = (file, args, input, socket) =>
  new Promise<void>((resolve, reject) => {
    const env = socket === undefined ? process.env : { ...process.env, NOTIFY_SOCKET: socket };
    const child = execFile(file, [...args], { timeout: 5000, env }, error => {
      // Keep the code (ENOENT: the helper is not installed).
      if (error) reject(Object.assign(new Error(error.message, { cause: error }), { code: error.code }));
      else resolve();
    });
    if (input !== undefined) child.stdin?.end(input);
  });

/** The socat address of a notify socket: a path, or `@name` for Linux's abstract namespace. */
export const socatAddress = (socket: string): string =>
  socket.startsWith('@') ? `ABSTRACT-SENDTO:${socket.slice(1)}` : `UNIX-SENDTO:${socket}`;

/** Milliseconds between watchdog pings (half of WATCHDOG_USEC), or undefined when no watchdog is set for us. */
export const watchdogIntervalMs = (
  env: Readonly<Record<string, string | undefined>>,
  pid: number,
): number | undefined => {
  const usec = Number(env.WATCHDOG_USEC);
  if (!Number.isFinite(usec) || usec <= 0) return undefined;
  const owner = env.WATCHDOG_PID;
  if (owner !== undefined && owner !== '' && Number(owner) !== pid) return undefined;
  return Math.max(1, Math.floor(usec / 2000));
};

export class SdNotify {
  private helper: 'systemd-notify' | 'socat' | 'off' | undefined;
  private readonly pid: number;

  constructor(private readonly ctx: SdNotifyContext) {
    this.pid = ctx.pid ?? process.pid;
  }

  /** Whether systemd asked for notifications. */
  get enabled(): boolean {
    const socket = this.ctx.env.NOTIFY_SOCKET;
    return socket !== undefined && socket !== '' && this.helper !== 'off';
  }

  /** Watchdog ping interval in ms, if a watchdog is configured for this process. */
  get watchdogMs(): number | undefined {
    return this.enabled ? watchdogIntervalMs(this.ctx.env, this.pid) : undefined;
  }

  ready(status?: string): Promise<void> {
    return this.send(['READY=1', ...(status === undefined ? [] : [`STATUS=${status}`])]);
  }

  stopping(status?: string): Promise<void> {
    return this.send(['STOPPING=1', ...(status === undefined ? [] : [`STATUS=${status}`])]);
  }

  status(text: string): Promise<void> {
    return this.send([`STATUS=${text}`]);
  }

  watchdog(): Promise<void> {
    return this.send(['WATCHDOG=1']);
  }

  /** Sends one message (its lines); never rejects. */
  async send(lines: readonly string[]): Promise<void> {
    const socket = this.ctx.env.NOTIFY_SOCKET;
    if (socket === undefined || socket === '' || this.helper === 'off') return;
    const run = this.ctx.run ?? runHelper;
    const all = [...lines, `MAINPID=${this.pid}`];
    if (this.helper !== 'socat') {
      try {
        await run('systemd-notify', all, undefined, socket);
        this.helper = 'systemd-notify';
        return;
      } catch (e) {
        if (this.helper === 'systemd-notify' || !isMissing(e)) return this.fail(e);
      }
    }
    try {
      await run('socat', ['-u', '-', socatAddress(socket)], `${all.join('\n')}\n`, socket);
      this.helper = 'socat';
    } catch (e) {
      this.fail(e);
    }
  }

  private fail(e: unknown): void {
    this.helper = 'off';
    this.ctx.log.warn(
      `cannot notify systemd (${e instanceof Error ? e.message : String(e)}); notifications are off. ` +
        'Install systemd-notify or socat, and set NotifyAccess=all in the unit.',
    );
  }
}

const isMissing = (e: unknown): boolean =>
  typeof e === 'object' && e !== null && 'code' in e && e.code === 'ENOENT';

/** Pings the watchdog at half of WATCHDOG_USEC on the scheduler; empty without a watchdog. */
export const watchdog$ = (notify: SdNotify, scheduler: SchedulerLike): Observable<unknown> => {
  const ms = notify.watchdogMs;
  if (ms === undefined) return EMPTY;
  return interval(ms, scheduler).pipe(
    tap(() => {
      void notify.watchdog();
    }),
  );
};
