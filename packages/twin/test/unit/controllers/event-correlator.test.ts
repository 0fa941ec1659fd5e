import { describe, expect, it } from 'vitest';
import { toTimestamp } from '../../../src/clock.js';
import type { CoreEvent } from '../../../src/controllers/event-correlator.js';
import { EventCorrelator } from '../../../src/controllers/event-correlator.js';

const t0 = Date.parse('2025-08-20T10:00:00Z');
let n = 0;
const correlator = (): EventCorrelator =>
  new EventCorrelator(toTimestamp, (object, ms) => `${object}.${ms}-${(n += 1)}`);

const event = (message: string, at: number): CoreEvent => ({
  metadata: { name: `n1.${at}`, namespace: 'default' },
  involvedObject: { kind: 'Node', name: 'n1', uid: 'u1', apiVersion: 'v1' },
  reason: 'NodeNotReady',
  message,
  source: { component: 'node-controller' },
  firstTimestamp: toTimestamp(at),
  lastTimestamp: toTimestamp(at),
  count: 1,
  type: 'Normal',
});

describe('EventCorrelator (client-go events_cache.go)', () => {
  it('turns a repeat into a patch of the first event with count + 1', () => {
    const c = correlator();
    const first = c.correlate(event('down', t0), t0);
    expect(first).toMatchObject({ skip: false, patch: false });
    if (first.skip) throw new Error('skipped');
    c.stored(first.event);
    const again = c.correlate(event('down', t0 + 5000), t0 + 5000);
    expect(again).toMatchObject({
      skip: false,
      patch: true,
      event: {
        metadata: { name: `n1.${t0}` },
        count: 2,
        firstTimestamp: '2025-08-20T10:00:00Z',
        lastTimestamp: '2025-08-20T10:00:05Z',
      },
    });
  });

  it('combines the tenth distinct message within ten minutes', () => {
    const c = correlator();
    for (let i = 0; i < 9; i += 1) {
      const r = c.correlate(event(`m${i}`, t0 + i), t0 + i);
      expect(r).toMatchObject({ skip: false, patch: false, event: { message: `m${i}` } });
    }
    const tenth = c.correlate(event('m9', t0 + 9), t0 + 9);
    expect(tenth).toMatchObject({
      skip: false,
      patch: false,
      event: { message: '(combined from similar events): m9', count: 1 },
    });
    const eleventh = c.correlate(event('m10', t0 + 10), t0 + 10);
    expect(eleventh).toMatchObject({
      patch: true,
      event: { message: '(combined from similar events): m10', count: 2 },
    });
  });

  it('drops an object’s events past a burst of 25, refilling one per 5 minutes', () => {
    const c = correlator();
    const seen = Array.from({ length: 26 }, () => c.correlate(event('same', t0), t0).skip);
    expect(seen.filter((skip) => !skip)).toHaveLength(25);
    expect(seen[25]).toBe(true);
    expect(c.correlate(event('same', t0 + 300_000), t0 + 300_000).skip).toBe(false);
  });
});
