// Request counters for benchmarks ("API requests made"): resource requests by verb and resource,
// plus the non-resource ones (version, discovery, OpenAPI). /twin/ admin calls are not counted.

import type { JsonObject } from '../../apimachinery/types.js';
import type { RequestInfo } from '../request-info.js';

export class RequestStats {
  private readonly byKey = new Map<string, { verb: string; resource: string; count: number }>();
  private nonResource = 0;
  private since = new Date().toISOString();

  record(info: RequestInfo): void {
    const key = `${info.verb} ${info.resource}`;
    const entry = this.byKey.get(key);
    if (entry) entry.count += 1;
    else this.byKey.set(key, { ...info, count: 1 });
  }

  recordNonResource(): void {
    this.nonResource += 1;
  }

  count(verb: string, resource: string): number {
    return this.byKey.get(`${verb} ${resource}`)?.count ?? 0;
  }

  reset(): void {
    this.byKey.clear();
    this.nonResource = 0;
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
      requests: requests.map((r) => ({ ...r })),
    };
  }
}
