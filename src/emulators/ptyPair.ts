/**
 * A pseudo-terminal pair made by socat: two linked serial devices, `hostPath` for the daemon and
 * `devicePath` for a board emulator, like a null-modem cable. Stopping the pair (killing socat)
 * is an unplugged cable: both sides are hung up (a read fails with EIO or returns end of file),
 * which the serial transport reports as `disconnected`; starting it again brings the same link
 * names back on new PTYs.
 *
 *   const pair = new PtyPair({ hostPath: `${dir}/board`, devicePath: `${dir}/emulator` });
 *   await pair.start(); // resolves when both links exist
 *   await pair.stop(); // SIGTERM, SIGKILL after a grace period; resolves when socat has exited
 *
 * Quirk: a PTY ignores the baud rate, so bytes arrive much faster than a real 9600-baud line, and
 * closing one end does not end the pair (socat keeps the master open): only stop() does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';

export interface PtyPairOptions {
  /** Link (symlink) name of the daemon's end. */
  readonly hostPath: string;
  /** Link name of the device's (emulator's) end. */
  readonly devicePath: string;
  /** socat executable; default `socat` from PATH. */
  readonly socat?: string;
}

const POLL_MS = 10;

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms));

export class PtyPair {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private lastError = '';

  constructor(readonly options: PtyPairOptions) {}

  get hostPath(): string {
    return this.options.hostPath;
  }

  get devicePath(): string {
    return this.options.devicePath;
  }

  /** True between a successful start() and the process's exit. */
  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The socat process id while running (for tests that check clean-up). */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  /** Starts socat and waits (bounded) until both link names exist. Idempotent while running. */
  async start(timeoutMs = 5000): Promise<void> {
    if (this.running) return;
    const { hostPath, devicePath } = this.options;
    // A SIGKILLed socat leaves its links behind; socat refuses to replace them.
    for (const p of [hostPath, devicePath]) rmSync(p, { force: true });
    const child = spawn(
      this.options.socat ?? 'socat',
      [`pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${devicePath}`],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    this.lastError = '';
    child.stderr.on('data', (d: Buffer) => {
      this.lastError = (this.lastError + d.toString()).slice(-500);
    });
    this.exited = new Promise<void>(resolve => {
      child.once('exit', () => resolve());
      child.once('error', e => {
        this.lastError = e.message;
        resolve();
      });
    });
    const deadline = Date.now() + timeoutMs;
    while (!(existsSync(hostPath) && existsSync(devicePath))) {
      const alive = child.exitCode === null && child.signalCode === null;
      if (!alive || Date.now() > deadline) {
        await this.stop();
        throw new Error(`socat PTY pair did not start: ${this.lastError.trim() || 'timed out'}`);
      }
      await sleep(POLL_MS);
    }
  }

  /** Stops socat (SIGTERM, then SIGKILL after `graceMs`) and removes the links. Idempotent. */
  async stop(graceMs = 2000): Promise<void> {
    const child = this.child;
    const exited = this.exited;
    if (child === undefined || exited === undefined) return;
    if (this.running) {
      child.kill('SIGTERM');
      let timer: NodeJS.Timeout | undefined;
      const killed = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>(resolve => (timer = setTimeout(() => resolve(false), graceMs))),
      ]);
      clearTimeout(timer);
      if (!killed) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    this.child = undefined;
    this.exited = undefined;
    for (const p of [this.options.hostPath, this.options.devicePath]) rmSync(p, { force: true });
  }
}
