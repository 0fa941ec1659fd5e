/** Clock: the one source of "now", so runs, expiries and reports are testable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
