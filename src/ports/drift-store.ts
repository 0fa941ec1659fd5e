/**
 * DriftStore: what the drift guard keeps between checks. Per cluster, the record of the drift
 * set people were last told about (so the same drift is posted once, not every interval); per
 * drift, what its repair button needs (the button's value is the drift id only). Everything has
 * a TTL, refreshed while the drift lasts, and is deleted when the drift clears.
 */
import type { DriftRecord } from '../core/drift.js';

/** What a repair button's handler reads back by the drift id in the button's value. */
export interface StoredDrift {
  id: string;
  cluster: string;
  /** The invariant that broke (`original-strategy`, `two-kube-proxies`, …) and on what. */
  invariant: string;
  subject: string;
  message: string;
  /** The repair the invariant proposes, as shown on the alert. */
  repair: string;
  /** The drift set's fingerprint when the alert was posted. */
  fingerprint: string;
  /** The alert carrying the button. */
  channel: string;
  ts: string;
  postedAt: string;
}

export interface DriftStore {
  record(cluster: string): Promise<DriftRecord | undefined>;
  /** Saves the record (with its TTL); undefined deletes it. */
  saveRecord(cluster: string, record: DriftRecord | undefined, ttlMs: number): Promise<void>;
  saveDrifts(drifts: readonly StoredDrift[], ttlMs: number): Promise<void>;
  /** The drift a button names, or undefined when it cleared or its TTL passed. */
  drift(id: string): Promise<StoredDrift | undefined>;
  /** Extends the TTL of drifts that still hold. */
  touchDrifts(ids: readonly string[], ttlMs: number): Promise<void>;
  deleteDrifts(ids: readonly string[]): Promise<void>;
  /** One check per cluster at a time (a scheduled one and one asked for by hand). */
  tryLock(cluster: string, ttlMs: number): Promise<boolean>;
  unlock(cluster: string): Promise<void>;
}
