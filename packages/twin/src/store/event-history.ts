// The bounded change log behind watch resume: like the apiserver's watch cache, it keeps the most
// recent events and answers 410 Expired for a resourceVersion older than what it still holds.

import type { ResourceDef } from '../registry/resources.js';
import type { KubeObject } from '../apimachinery/types.js';

export type ChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

export interface ChangeEvent {
  type: ChangeType;
  resource: ResourceDef;
  /** The object after the change; for DELETED, the last state stamped with the deletion's RV. */
  object: KubeObject;
  /** The object before the change (MODIFIED and DELETED), for selector transitions in watches. */
  oldObject: KubeObject | undefined;
  rv: number;
}

export class EventHistory {
  private events: ChangeEvent[] = [];
  /** Every event with rv greater than this is retained; anything at or below may be gone. */
  private floor: number;

  constructor(
    private readonly limit: number,
    startRv: number,
  ) {
    this.floor = startRv;
  }

  get compactedRv(): number {
    return this.floor;
  }

  append(event: ChangeEvent): void {
    this.events.push(event);
    // Trim in batches so appends stay amortised O(1).
    if (this.events.length > this.limit * 2) this.dropOldest(this.events.length - this.limit);
  }

  /** Events newer than `rv`, or undefined when some of them were already discarded. */
  since(rv: number): ChangeEvent[] | undefined {
    if (rv < this.floor) return undefined;
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.events[mid]?.rv ?? 0) <= rv) lo = mid + 1;
      else hi = mid;
    }
    return this.events.slice(lo);
  }

  /** Forgets everything up to `rv`, as an etcd compaction does. */
  compact(rv: number): void {
    const keep = this.events.findIndex((e) => e.rv > rv);
    this.dropOldest(keep === -1 ? this.events.length : keep);
    this.floor = Math.max(this.floor, rv);
  }

  private dropOldest(count: number): void {
    const dropped = this.events.splice(0, count);
    const last = dropped[dropped.length - 1];
    if (last) this.floor = Math.max(this.floor, last.rv);
  }
}
