/**
 * socat PTY pairs for tests: each pair gets fresh link names in its own temporary directory,
 * `openPtyPair` waits until both ends exist, and `closeAllPtyPairs` (call it in afterEach or
 * afterAll) stops every pair and checks that no socat process is left. `waitFor` polls a
 * condition with a bounded timeout instead of sleeping a fixed time.
 *
 *   const pair = await openPtyPair(); // pair.hostPath, pair.devicePath
 *   await waitFor(() => seen.length >= 3, 2000, 'three observations');
 *   afterEach(closeAllPtyPairs);
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PtyPair } from '../../src/emulators/ptyPair.js';

interface Opened {
  readonly pair: PtyPair;
  readonly dir: string;
  /** Every socat pid this pair ever had (it is restarted by unplug tests). */
  readonly pids: Set<number>;
}

const opened: Opened[] = [];

/** A fresh temporary directory for link names (removed by closeAllPtyPairs). */
export const makeLinkDir = (): string => mkdtempSync(join(tmpdir(), 'chessbridge-pty-'));

/** Whether a process is alive (signal 0 probes without killing). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a PTY pair in a new temp directory; remembered for closeAllPtyPairs. */
export const openPtyPair = async (): Promise<PtyPair> => {
  const dir = makeLinkDir();
  const pair = new PtyPair({ hostPath: join(dir, 'host'), devicePath: join(dir, 'device') });
  const entry: Opened = { pair, dir, pids: new Set() };
  opened.push(entry);
  await pair.start();
  trackPid(pair);
  return pair;
};

/** Records the current socat pid of a pair (call after each restart). */
export const trackPid = (pair: PtyPair): void => {
  const pid = pair.pid;
  const entry = opened.find(o => o.pair === pair);
  if (pid !== undefined && entry !== undefined) entry.pids.add(pid);
};

/** Registers a pair started elsewhere (e.g. by EmulatedBoardOnPty) for clean-up. */
export const adoptPtyPair = (pair: PtyPair, dir: string): void => {
  opened.push({ pair, dir, pids: new Set(pair.pid === undefined ? [] : [pair.pid]) });
};

/** Stops every pair, removes the temp directories, and throws if a socat survived. */
export const closeAllPtyPairs = async (): Promise<void> => {
  const all = opened.splice(0);
  await Promise.all(all.map(o => o.pair.stop()));
  const survivors: number[] = [];
  for (const o of all) {
    rmSync(o.dir, { recursive: true, force: true });
    for (const pid of o.pids) if (isAlive(pid)) survivors.push(pid);
  }
  if (survivors.length > 0) throw new Error(`socat still running: ${survivors.join(', ')}`);
};

/**
 * How much longer than asked a wait may take before it fails: the waits end on the event, and the
 * deadline only says when to give up, which on a busy machine (other test files running, the
 * emulator and socat sharing the cores) comes later.
 */
const PATIENCE = 4;

/** Polls `condition` every 10 ms until it holds; rejects after `timeoutMs` (times PATIENCE) naming `what`. */
export const waitFor = async (condition: () => boolean, timeoutMs: number, what: string): Promise<void> => {
  const limit = timeoutMs * PATIENCE;
  const deadline = Date.now() + limit;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${limit} ms waiting for ${what}`);
    await new Promise(resolve => setTimeout(resolve, 10));
  }
};
