/**
 * A daemon that stalls, in virtual time: a scheduler over a test scheduler whose clock runs ahead
 * of its timers by the stalls so far, as a process's clock does while it is not run (its timers
 * then fire late by that much).
 *
 *   const daemon = stallingScheduler(ts);
 *   daemon.stall(150);                       // from now on, daemon.now() is 150 ms ahead of ts.now()
 */
import type { SchedulerLike } from 'rxjs';

export interface StallingScheduler extends SchedulerLike {
  /** The daemon was not run for `ms`: its clock jumps ahead of its timers. */
  stall(ms: number): void;
}

export const stallingScheduler = (ts: SchedulerLike): StallingScheduler => {
  let stalled = 0;
  return {
    now: () => ts.now() + stalled,
    schedule: (...args: Parameters<SchedulerLike['schedule']>) => ts.schedule(...args),
    stall: ms => {
      stalled += ms;
    },
  };
};
