/** The audit log in this process (the in-process executor and tests): gone with the process. */
import type { AuditEntry } from '../../core/audit.js';
import type { AuditLog, AuditQuery } from '../../ports/audit-log.js';

export class MemoryAuditLog implements AuditLog {
  private readonly entries: { addedAt: number; entry: AuditEntry }[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly retentionMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  append(entries: readonly AuditEntry[]): Promise<number> {
    let added = 0;
    const cutoff = this.now() - this.retentionMs;
    while (this.entries[0] !== undefined && this.entries[0].addedAt < cutoff) this.entries.shift();
    for (const entry of entries) {
      if (this.seen.has(entry.key)) continue;
      this.seen.add(entry.key);
      this.entries.push({ addedAt: this.now(), entry });
      added += 1;
    }
    return Promise.resolve(added);
  }

  query(q: AuditQuery): Promise<AuditEntry[]> {
    return Promise.resolve(
      this.entries
        .filter(
          ({ addedAt, entry }) =>
            addedAt >= q.sinceMs &&
            entry.cluster === q.cluster &&
            (q.node === undefined || entry.node === q.node),
        )
        .map(({ entry }) => entry)
        .reverse()
        .slice(0, q.limit),
    );
  }
}
