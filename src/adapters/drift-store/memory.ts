/** The drift guard's state in this process (the in-process executor): lost at exit. */
import type { DriftRecord } from '../../core/drift.js';
import type { DriftStore, StoredDrift } from '../../ports/drift-store.js';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

export class MemoryDriftStore implements DriftStore {
  private readonly records = new Map<string, Entry<DriftRecord>>();
  private readonly drifts = new Map<string, Entry<StoredDrift>>();
  private readonly locks = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  private live<T>(map: Map<string, Entry<T>>, key: string): T | undefined {
    const entry = map.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      map.delete(key);
      return undefined;
    }
    return entry.value;
  }

  record(cluster: string): Promise<DriftRecord | undefined> {
    return Promise.resolve(this.live(this.records, cluster));
  }

  saveRecord(cluster: string, record: DriftRecord | undefined, ttlMs: number): Promise<void> {
    if (record === undefined) this.records.delete(cluster);
    else this.records.set(cluster, { value: record, expiresAt: this.now() + ttlMs });
    return Promise.resolve();
  }

  saveDrifts(drifts: readonly StoredDrift[], ttlMs: number): Promise<void> {
    for (const d of drifts) this.drifts.set(d.id, { value: d, expiresAt: this.now() + ttlMs });
    return Promise.resolve();
  }

  drift(id: string): Promise<StoredDrift | undefined> {
    return Promise.resolve(this.live(this.drifts, id));
  }

  touchDrifts(ids: readonly string[], ttlMs: number): Promise<void> {
    for (const id of ids) {
      const value = this.live(this.drifts, id);
      if (value !== undefined) this.drifts.set(id, { value, expiresAt: this.now() + ttlMs });
    }
    return Promise.resolve();
  }

  deleteDrifts(ids: readonly string[]): Promise<void> {
    for (const id of ids) this.drifts.delete(id);
    return Promise.resolve();
  }

  tryLock(cluster: string, ttlMs: number): Promise<boolean> {
    const until = this.locks.get(cluster);
    if (until !== undefined && until > this.now()) return Promise.resolve(false);
    this.locks.set(cluster, this.now() + ttlMs);
    return Promise.resolve(true);
  }

  unlock(cluster: string): Promise<void> {
    this.locks.delete(cluster);
    return Promise.resolve();
  }
}
