// Chess clock arithmetic for the pages: the time left on a side's clock at a given moment
// (counting the running side down from the reading's `at`), its text, and an estimate of the
// daemon's clock from the browser's, so a projector PC whose clock is off still ticks right.
//
//   const skew = new ClockSkew();
//   skew.sample(event.at, Date.now());                  // for every live (not retained) message
//   formatClock(remainingMs(state.clocks, 'white', skew.daemonNow(Date.now())));   // "14:46"

/** Milliseconds left on `color`'s clock at daemon time `now` (never below 0). */
export const remainingMs = (clocks, color, now) => {
  if (!clocks) return null;
  const base = color === 'white' ? clocks.white_ms : clocks.black_ms;
  const elapsed = clocks.running === color ? Math.max(0, now - clocks.at) : 0;
  return Math.max(0, base - elapsed);
};

const pad = n => String(n).padStart(2, '0');

/**
 * A clock reading as players read it: `1:23:45` from an hour, `23:45` below, and tenths in the
 * last ten seconds (`0:09.4`). Null (no clock) is an empty string.
 */
export const formatClock = ms => {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) {
    const tenths = Math.floor(clamped / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(clamped / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return hours > 0 ? `${hours}:${pad(minutes)}:${pad(seconds)}` : `${minutes}:${pad(seconds)}`;
};

/** How the clock text should be spoken/labelled: "14 minutes 46 seconds". */
export const describeClock = ms => {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return 'no clock';
  const total = Math.floor(Math.max(0, ms) / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return [h ? `${h} h` : '', h || m ? `${m} min` : '', `${s} s`].filter(Boolean).join(' ');
};

/** Samples kept for the skew estimate. */
const WINDOW = 64;

/**
 * Estimates `browser clock - daemon clock` as the smallest `received - at` among recent live
 * messages (network delay only ever adds to it). Until a live message arrives, the clocks are
 * taken to agree.
 */
export class ClockSkew {
  constructor() {
    this.samples = [];
  }

  /** Records one live message: its `at` (daemon ms) and when the browser received it. */
  sample(at, receivedAt) {
    if (typeof at !== 'number' || !Number.isFinite(at)) return;
    this.samples.push(receivedAt - at);
    if (this.samples.length > WINDOW) this.samples.shift();
  }

  /** Browser minus daemon, in ms. */
  get offsetMs() {
    return this.samples.length === 0 ? 0 : Math.min(...this.samples);
  }

  /** The daemon's time now, from the browser's. */
  daemonNow(browserNow) {
    return browserNow - this.offsetMs;
  }
}
