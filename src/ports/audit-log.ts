/**
 * AuditLog: the record of who did what to which cluster, kept for a configurable period
 * (default 400 days), trimmed by time, never by count alone. Appends are idempotent by entry key.
 */
import type { AuditEntry } from '../core/audit.js';

export interface AuditQuery {
  cluster: string;
  node?: string;
  /** Entries recorded at or after this time (epoch ms). */
  sinceMs: number;
  /** Newest first, at most this many. */
  limit: number;
}

export interface AuditLog {
  /** Records the entries not recorded before (by key); resolves to how many were new. */
  append(entries: readonly AuditEntry[]): Promise<number>;
  query(query: AuditQuery): Promise<AuditEntry[]>;
}
