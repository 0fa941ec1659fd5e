import { describe, expect, it } from 'vitest';
import { cachedQueueMetrics } from '../../../src/adapters/queue-metrics.js';

/** A read whose answers the test releases by hand, counting how often Redis was asked. */
function controlledRead() {
  const pending: ((text: string) => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  let calls = 0;
  return {
    read: () => {
      calls += 1;
      return new Promise<string>((resolve, reject) => {
        pending.push(resolve);
        failures.push(reject);
      });
    },
    answer: (text: string) => pending.shift()?.(text),
    fail: () => failures.shift()?.(new Error('redis down')),
    calls: () => calls,
  };
}

describe('queue metrics for /metrics', () => {
  it('reads Redis once per TTL however often it is scraped, and shares a read in flight', async () => {
    let now = 0;
    const r = controlledRead();
    const scrape = cachedQueueMetrics(r.read, { ttlMs: 5_000, deadlineMs: 1_000, now: () => now });
    const first = scrape();
    const second = scrape();
    r.answer('bullmq_job_count 3');
    expect(await first).toBe('bullmq_job_count 3');
    expect(await second).toBe('bullmq_job_count 3');
    now = 4_999;
    expect(await scrape()).toBe('bullmq_job_count 3');
    expect(r.calls()).toBe(1);
    now = 5_000;
    const third = scrape();
    r.answer('bullmq_job_count 4');
    expect(await third).toBe('bullmq_job_count 4');
    expect(r.calls()).toBe(2);
  });

  it('answers with the last text read when Redis is late or failing, and does not ask again within the TTL', async () => {
    let now = 0;
    const r = controlledRead();
    const scrape = cachedQueueMetrics(r.read, { ttlMs: 5_000, deadlineMs: 20, now: () => now });
    const first = scrape();
    r.answer('counts 1');
    expect(await first).toBe('counts 1');
    now = 10_000;
    // Redis does not answer: the scrape gets the old counts at the deadline.
    expect(await scrape()).toBe('counts 1');
    r.fail();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await scrape()).toBe('counts 1');
    expect(r.calls()).toBe(2);
  });

  it('answers empty before anything was ever read', async () => {
    const r = controlledRead();
    const scrape = cachedQueueMetrics(r.read, { ttlMs: 5_000, deadlineMs: 10 });
    expect(await scrape()).toBe('');
    r.fail();
  });
});
