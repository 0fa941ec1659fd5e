import { describe, expect, it } from 'vitest';
import { createClock, createManualClock, createScheduler } from '../../../src/clock.js';

describe('manual clock', () => {
  it('fires due timers in time order, then creation order, as time advances', () => {
    const clock = createManualClock(0);
    const timers = clock.scheduler();
    const fired: string[] = [];
    timers.after(2000, () => fired.push('b'));
    timers.after(1000, () => {
      fired.push('a');
      timers.after(0, () => fired.push('a+0'));
    });
    timers.after(2000, () => fired.push('c'));
    clock.advance(999);
    expect(fired).toEqual([]);
    clock.advance(1);
    expect(fired).toEqual(['a', 'a+0']);
    clock.advance(5000);
    expect(fired).toEqual(['a', 'a+0', 'b', 'c']);
    expect(clock.now()).toBe(6000);
  });

  it('runs each timer at its own time', () => {
    const clock = createManualClock(0);
    const seen: number[] = [];
    clock.scheduler().after(1500, () => seen.push(clock.now()));
    clock.advance(10_000);
    expect(seen).toEqual([1500]);
  });

  it('cancels one timer, and stop() clears only that scheduler', () => {
    const clock = createManualClock(0);
    const mine = clock.scheduler();
    const theirs = clock.scheduler();
    const fired: string[] = [];
    const cancel = mine.after(10, () => fired.push('cancelled'));
    mine.after(20, () => fired.push('stopped'));
    theirs.after(30, () => fired.push('theirs'));
    cancel();
    expect(mine.pending()).toBe(1);
    expect(mine.nextDue()).toBe(20);
    mine.stop();
    mine.after(1, () => fired.push('after stop'));
    clock.advance(100);
    expect(fired).toEqual(['theirs']);
    expect(clock.pendingTimers()).toBe(0);
  });
});

describe('real scheduler', () => {
  it('maps simulated delays to real time by speed and can be stopped', async () => {
    const clock = createClock(100);
    const timers = createScheduler(clock);
    const started = Date.now();
    await new Promise<void>((resolve) => timers.after(2000, resolve));
    // 2 simulated seconds at speed 100 take about 20 ms.
    expect(Date.now() - started).toBeLessThan(1000);
    let fired = false;
    timers.after(1000, () => (fired = true));
    expect(timers.pending()).toBe(1);
    timers.stop();
    expect(timers.pending()).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(fired).toBe(false);
  });
});
