/**
 * What the corpus runs over real serial lines share (ptyCorpusRig.ts: one board per PTY pair;
 * ptyCorpusBus.ts: a bus line): the script clock that stamps every read, a waiter for conditions,
 * the real-time pace, and the recogniser fed with what the session observed.
 *
 *   const clock = new ScriptClock(); // new SerialTransport({ path, now: clock.now })
 *   await waiter.until(() => received >= sent, 'every byte'); clock.t = nextEvent.at;
 *   recognise(game, boardEventsOf(observations, true), spoken, endMs).problems; // []
 *
 * Time. The bytes travel in real time, the session's own timers (handshake, keepalive, silence,
 * back-off, the settle dump) run in real time, and the script is played at most `speed` times
 * faster than real play. What the recogniser judges by, though, is the receipt time of each read,
 * and on a loaded machine a read can arrive tens of milliseconds late, which at a speed-up of a
 * few hundred would be many seconds of script time: settle windows would open and close at random.
 * So the receipt clock given to the SerialTransport is a script clock: it reads the script time of
 * the step being played, and the driver moves it to the next step only once every byte the
 * emulator sent for the previous one has arrived (single board: bytes sent = bytes read; bus: the
 * poller has delivered every change). Every read is therefore stamped with the script time of the
 * event that caused it, whatever the load, and the recogniser's 300 ms settle window means 300 ms
 * of play. The real-time pace (`speed`) is a floor, not the source of the time stamps.
 *
 * Clock presses. On a single board they go to the emulator's clock (a DGT3000 plugged into the
 * board); the session reports its readings and the bridge's own mapping (src/bridge/daemon/
 * inputs.ts: the lever going over is a press) turns them into presses, as in the daemon. On the
 * bus the poller here does not read clocks, so the generator's presses are fed to the recogniser
 * directly. Announced adjustments (j'adoube) are spoken, not sensed: always fed directly.
 *
 * Unplugging. The PTY pair is killed (both ends see EIO, as with a pulled USB cable) and started
 * again later; moves go on while the cable is out. A press made during the outage is not seen
 * (the clock is read through the same cable), exactly as the daemon's mapping treats it: the
 * opponent's next move completes that ply.
 */
import { asyncScheduler, type SchedulerAction, type SchedulerLike, type Subscription } from 'rxjs';
import { letterOf } from '../../../src/drivers/dgt/emulatorScript.js';
import type { Observation } from '../../../src/drivers/observation.js';
import { mapObservation, startInputMap } from '../../../src/bridge/game/inputs.js';
import type { Game } from '../../../src/engine/game.js';
import { verifyOutputs } from '../../../src/engine/handling/verify.js';
import type { BoardEvent, SensedContent } from '../../../src/engine/recognition/boardEvent.js';
import { startRecognition } from '../../../src/engine/recognition/state.js';
import { runRecognition } from '../../../src/engine/recognition/step.js';

/** Script time before the first move (the session connects meanwhile). */
export const WARMUP_MS = 1000;
/** Longest wait for one condition (bytes to arrive, a reconnection) before the run fails. */
const WAIT_MS = 20_000;

const sleep = (ms: number): Promise<void> => new Promise(resolve => setTimeout(resolve, ms));

/** The script clock that stamps every read (see the module comment). */
export class ScriptClock {
  t = 0;
  readonly now = (): number => this.t;
}

/**
 * A scheduler that tells the script time but waits in real time: the emulator runner's clock
 * messages then carry script times, while its timers (clock ticks, reopening) stay real.
 */
export const scriptScheduler = (clock: ScriptClock): SchedulerLike => ({
  now: clock.now,
  schedule: <T>(
    work: (this: SchedulerAction<T>, state?: T) => void,
    delay?: number,
    state?: T,
  ): Subscription => asyncScheduler.schedule(work, delay, state),
});

/** Promises resolved by `poke()` once their condition holds, each with its own deadline. */
export class Waiter {
  private readonly pending = new Set<() => boolean>();

  /** Re-checks every pending condition (call it whenever something arrives). */
  poke(): void {
    for (const check of [...this.pending]) check();
  }

  until(condition: () => boolean, what: string, timeoutMs = WAIT_MS): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      // A slow poll as well, for conditions that change without a poke (emulator statistics).
      const poll = setInterval(() => check(), 20);
      const deadline = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const done = (): void => {
        clearInterval(poll);
        clearTimeout(deadline);
        this.pending.delete(check);
      };
      const check = (): boolean => {
        if (!condition()) return false;
        done();
        resolve();
        return true;
      };
      this.pending.add(check);
    });
  }
}

/** Keeps script time at most `speed` times faster than real time. */
export class Pace {
  private realStart = performance.now();
  private scriptStart = 0;

  constructor(private readonly speed: number) {}

  /** From now on, script time `at` corresponds to this real moment. */
  anchor(at: number): void {
    this.realStart = performance.now();
    this.scriptStart = at;
  }

  async until(at: number): Promise<void> {
    const wait = this.realStart + (at - this.scriptStart) / this.speed - performance.now();
    if (wait >= 1) await sleep(wait);
  }
}

export const letter = (c: SensedContent): ReturnType<typeof letterOf> | 'empty' =>
  typeof c === 'string' ? 'empty' : letterOf(c);

/** The recogniser's input: board events in arrival order, spoken events and ticks merged in by time. */
export const recognise = (
  game: Game,
  fromBoard: readonly BoardEvent[],
  spoken: readonly BoardEvent[],
  endMs: number,
): { readonly problems: string[]; readonly recognised: readonly string[] } => {
  const ticks: BoardEvent[] = [];
  for (let t = 0; t <= endMs; t += 100) ticks.push({ kind: 'tick', at: t });
  // Board events keep their arrival order (their times never decrease); at equal times they come
  // before a spoken adjustment, which comes before a tick. The sort is stable.
  const rank = (e: BoardEvent, fromTheBoard: boolean): number =>
    fromTheBoard ? 0 : e.kind === 'tick' ? 2 : 1;
  const events = [
    ...fromBoard.map(e => ({ e, r: rank(e, true) })),
    ...spoken.map(e => ({ e, r: rank(e, false) })),
    ...ticks.map(e => ({ e, r: 2 })),
  ]
    .sort((a, b) => a.e.at - b.e.at || a.r - b.r)
    .map(x => x.e);
  const { state, outputs } = runRecognition(startRecognition(game.truncate(0).unwrap()), events);
  return { problems: verifyOutputs(game, outputs, state.game), recognised: state.game.moves.map(m => m.san) };
};

/** Board events from session observations, through the daemon's own mapping (presses from the lever). */
export const boardEventsOf = (observations: readonly Observation[], clock: boolean): BoardEvent[] => {
  let map = startInputMap({ clock, whiteSide: 'left' });
  const out: BoardEvent[] = [];
  for (const o of observations) {
    const r = mapObservation(map, o);
    map = r.state;
    for (const i of r.inputs)
      if (i.kind === 'square' || i.kind === 'snapshot' || i.kind === 'press') out.push(i);
  }
  return out;
};
