// client-go's EventCorrelator (tools/record/events_cache.go, v0.33): a repeat of an identical
// event becomes a PATCH of the first one (count + 1, lastTimestamp, message); the 10th distinct
// message for one object, reason and source within 10 minutes starts a
// "(combined from similar events): …" event; and a per-object token bucket (burst 25, one per
// 5 minutes) drops event storms. Pure: time comes from the caller.

import type { JsonObject } from '../apimachinery/types.js';
import { asRecord, asString } from '../apimachinery/types.js';

/** The core/v1 Event fields the correlator reads and writes. */
export interface CoreEvent extends JsonObject {
  metadata: JsonObject & { name: string; namespace: string };
  involvedObject: JsonObject;
  reason: string;
  message: string;
  source: JsonObject;
  firstTimestamp: string;
  lastTimestamp: string;
  count: number;
  type: string;
}

export type Correlation = { skip: true } | { skip: false; event: CoreEvent; patch: boolean };

const lruSize = 4096;
const aggregateMaxEvents = 10;
const aggregateIntervalMs = 600_000;
const spamBurst = 25;
const spamQps = 1 / 300;

/** A string-keyed LRU of at most lruSize entries, like k8s.io/utils/lru. */
class Lru<V> {
  private readonly map = new Map<string, V>();
  get(key: string): V | undefined {
    const v = this.map.get(key);
    if (v !== undefined) {
      this.map.delete(key);
      this.map.set(key, v);
    }
    return v;
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > lruSize) this.map.delete(this.map.keys().next().value ?? '');
  }
}

const ref = (e: CoreEvent, key: string): string => asString(e.involvedObject[key]);
const src = (e: CoreEvent, key: string): string => asString(asRecord(e.source)[key]);

/** getEventKey: everything that makes two events "the same". */
export function eventKey(e: CoreEvent): string {
  return [
    src(e, 'component'),
    src(e, 'host'),
    ref(e, 'kind'),
    ref(e, 'namespace'),
    ref(e, 'name'),
    ref(e, 'fieldPath'),
    ref(e, 'uid'),
    ref(e, 'apiVersion'),
    e.type,
    e.reason,
    e.message,
  ].join('');
}

function spamKey(e: CoreEvent): string {
  return [
    src(e, 'component'),
    src(e, 'host'),
    ref(e, 'kind'),
    ref(e, 'namespace'),
    ref(e, 'name'),
    ref(e, 'uid'),
    ref(e, 'apiVersion'),
    e.type,
  ].join('');
}

/** EventAggregatorByReasonFunc: the aggregate key, and the message as the local key. */
function aggregateKey(e: CoreEvent): string {
  return [
    src(e, 'component'),
    src(e, 'host'),
    ref(e, 'kind'),
    ref(e, 'namespace'),
    ref(e, 'name'),
    ref(e, 'uid'),
    ref(e, 'apiVersion'),
    e.type,
    e.reason,
    asString(e['reportingComponent']),
    asString(e['reportingInstance']),
  ].join('');
}

interface Observation {
  count: number;
  firstTimestamp: string;
  name: string;
}

export class EventCorrelator {
  private readonly aggregates = new Lru<{ localKeys: Set<string>; lastMs: number }>();
  private readonly observations = new Lru<Observation>();
  private readonly buckets = new Lru<{ tokens: number; lastMs: number }>();

  /**
   * `stamp` formats a time as metav1.Time; `name` makes a fresh event name for an aggregate,
   * as `<object>.<unix nanoseconds in hex>`.
   */
  constructor(
    private readonly stamp: (ms: number) => string,
    private readonly name: (object: string, ms: number) => string,
  ) {}

  correlate(incoming: CoreEvent, nowMs: number): Correlation {
    const [event, key] = this.aggregate(incoming, nowMs);
    const observed = { ...event };
    const last = this.observations.get(key);
    if (last && last.count > 0) {
      observed.metadata = { ...event.metadata, name: last.name };
      observed.firstTimestamp = last.firstTimestamp;
      observed.count = last.count + 1;
    }
    // Recorded before the spam filter runs, as eventObserve does.
    this.observations.set(key, {
      count: observed.count,
      firstTimestamp: observed.firstTimestamp,
      name: observed.metadata.name,
    });
    if (!this.accept(spamKey(observed), nowMs)) return { skip: true };
    return { skip: false, event: observed, patch: observed.count > 1 };
  }

  /** UpdateState: remember what the server returned (its name and count). */
  stored(event: CoreEvent): void {
    this.observations.set(eventKey(event), {
      count: event.count,
      firstTimestamp: event.firstTimestamp,
      name: event.metadata.name,
    });
  }

  private aggregate(e: CoreEvent, nowMs: number): [CoreEvent, string] {
    const key = aggregateKey(e);
    let record = this.aggregates.get(key);
    if (!record || nowMs - record.lastMs > aggregateIntervalMs)
      record = { localKeys: new Set(), lastMs: nowMs };
    record.localKeys.add(e.message);
    record.lastMs = nowMs;
    this.aggregates.set(key, record);
    if (record.localKeys.size < aggregateMaxEvents) return [e, eventKey(e)];
    const first = record.localKeys.values().next().value;
    if (first !== undefined) record.localKeys.delete(first);
    const stamp = this.stamp(nowMs);
    const combined: CoreEvent = {
      metadata: { name: this.name(ref(e, 'name'), nowMs), namespace: e.metadata.namespace },
      involvedObject: e.involvedObject,
      reason: e.reason,
      message: `(combined from similar events): ${e.message}`,
      source: e.source,
      firstTimestamp: stamp,
      lastTimestamp: stamp,
      count: 1,
      type: e.type,
    };
    return [combined, key];
  }

  /** A passive token bucket per spam key (flowcontrol.NewTokenBucketPassiveRateLimiter). */
  private accept(key: string, nowMs: number): boolean {
    const bucket = this.buckets.get(key) ?? { tokens: spamBurst, lastMs: nowMs };
    bucket.tokens = Math.min(spamBurst, bucket.tokens + ((nowMs - bucket.lastMs) / 1000) * spamQps);
    bucket.lastMs = nowMs;
    const ok = bucket.tokens >= 1;
    if (ok) bucket.tokens -= 1;
    this.buckets.set(key, bucket);
    return ok;
  }
}
