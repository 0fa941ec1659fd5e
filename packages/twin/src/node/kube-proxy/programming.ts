// kubeproxy_network_programming_duration_seconds: the proxier of a slice's family observes, at the
// sync that programs it, now − the slice's `endpoints.kubernetes.io/last-change-trigger-time`,
// once per change, and only for trigger times after kube-proxy started (the tracker's
// trackerStartTime, pkg/proxy/endpointschangetracker.go). Slices without the annotation (the twin
// has no EndpointSlice controller to set it) are never observed, as in kube-proxy.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { IPFamily } from '../host/ip.js';

/** NetworkProgrammingLatency's buckets (pkg/proxy/metrics/metrics.go): MergeBuckets adds a 0. */
export const programmingBuckets: readonly number[] = [
  0,
  0.25,
  0.5,
  ...Array.from({ length: 59 }, (_, i) => i + 1),
  ...Array.from({ length: 12 }, (_, i) => 60 + i * 5),
  ...Array.from({ length: 7 }, (_, i) => 120 + i * 30),
];

export interface LatencySeries {
  readonly counts: readonly number[];
  readonly overflow: number;
  readonly sum: number;
}

export interface ProgrammingStats {
  /** Slice key → the trigger time already observed (a change is observed once). */
  readonly seen: ReadonlyMap<string, number>;
  readonly byFamily: Readonly<Partial<Record<IPFamily, LatencySeries>>>;
}

export const noProgramming: ProgrammingStats = { seen: new Map(), byFamily: {} };

function observe(series: LatencySeries | undefined, seconds: number): LatencySeries {
  const counts = [...(series?.counts ?? programmingBuckets.map(() => 0))];
  const i = programmingBuckets.findIndex((le) => seconds <= le);
  if (i >= 0) counts[i] = (counts[i] ?? 0) + 1;
  return {
    counts,
    overflow: (series?.overflow ?? 0) + (i >= 0 ? 0 : 1),
    sum: (series?.sum ?? 0) + seconds,
  };
}

/** The stats after a successful sync at `now` of `catalog` by a kube-proxy started at `startedAt`. */
export function observeProgramming(
  stats: ProgrammingStats,
  catalog: ServiceCatalog,
  startedAt: number,
  now: number,
): ProgrammingStats {
  const seen = new Map(stats.seen);
  const byFamily = { ...stats.byFamily };
  for (const [key, trigger] of catalog.changeTriggers) {
    if (trigger.at <= startedAt || seen.get(key) === trigger.at) continue;
    seen.set(key, trigger.at);
    byFamily[trigger.family] = observe(byFamily[trigger.family], (now - trigger.at) / 1000);
  }
  return { seen, byFamily };
}
