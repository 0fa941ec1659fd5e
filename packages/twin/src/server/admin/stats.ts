// Request counters for benchmarks ("API requests made"): resource requests by verb and resource,
// plus the non-resource ones (version, discovery, OpenAPI). /twin/ admin calls are not counted.
// Writes are also logged one by one (the last MAX_WRITES), with their object and dry-run flag,
// so a test can show what a client wrote, and that a dry run wrote nothing. TCP connections
// accepted are counted too: a client that reuses its connections opens a handful for thousands
// of requests, one that does not opens one per request.

import type { JsonObject } from '../../apimachinery/types.js';
import type { RequestInfo } from '../request-info.js';

export interface WriteRecord {
  verb: string;
  resource: string;
  namespace?: string;
  name?: string;
  dryRun: boolean;
  /** The HTTP status the twin answered with. */
  code?: number;
  at: string;
}

const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);
const MAX_WRITES = 10_000;

export class RequestStats {
  private readonly byKey = new Map<string, { verb: string; resource: string; count: number }>();
  private writeLog: WriteRecord[] = [];
  private nonResource = 0;
  private connectionCount = 0;
  private since = new Date().toISOString();

  record(info: RequestInfo): void {
    const key = `${info.verb} ${info.resource}`;
    const entry = this.byKey.get(key);
    if (entry) entry.count += 1;
    else this.byKey.set(key, { ...info, count: 1 });
  }

  /** Logs a write request (create/update/patch/delete); reads are only counted. */
  recordWrite(record: Omit<WriteRecord, 'at'>): WriteRecord | undefined {
    if (!WRITE_VERBS.has(record.verb)) return undefined;
    const entry = { ...record, at: new Date().toISOString() };
    this.writeLog.push(entry);
    if (this.writeLog.length > MAX_WRITES) this.writeLog = this.writeLog.slice(-MAX_WRITES);
    return entry;
  }

  /** Write requests since the last reset, oldest first. */
  writes(): readonly WriteRecord[] {
    return this.writeLog;
  }

  recordConnection(): void {
    this.connectionCount += 1;
  }

  /** TCP connections accepted since the last reset. */
  connections(): number {
    return this.connectionCount;
  }

  recordNonResource(): void {
    this.nonResource += 1;
  }

  count(verb: string, resource: string): number {
    return this.byKey.get(`${verb} ${resource}`)?.count ?? 0;
  }

  reset(): void {
    this.byKey.clear();
    this.writeLog = [];
    this.nonResource = 0;
    this.connectionCount = 0;
    this.since = new Date().toISOString();
  }

  snapshot(): JsonObject {
    const requests = [...this.byKey.values()].sort(
      (a, b) => a.resource.localeCompare(b.resource) || a.verb.localeCompare(b.verb),
    );
    const total = requests.reduce((sum, r) => sum + r.count, 0);
    return {
      since: this.since,
      total,
      nonResource: this.nonResource,
      connections: this.connectionCount,
      requests: requests.map((r) => ({ ...r })),
      writes: this.writeLog.map((w) => ({ ...w })),
    };
  }
}
