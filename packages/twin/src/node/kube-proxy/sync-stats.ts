// How many syncs a kube-proxy has run, and what each cost, derived at the moment of the question
// (periodic syncs are not simulated one by one). Both proxiers of the dual-stack MetaProxier sync
// together, so the counts are per family; the costs differ per family by the rules each writes.

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { IPFamily } from '../host/ip.js';
import {
  lastSuccessfulSync,
  resyncIntervalMs,
  syncFailures,
  type KubeProxyRuntime,
} from './kube-proxy.js';
import type { ProxyMode } from './config.js';

/** proxyutil.FullSyncPeriod: iptables and nftables force a full sync once an hour. */
export const fullSyncPeriodMs = 3_600_000;

export interface SyncCounts {
  /** Successful syncs per family: the start, each Service/EndpointSlice event, the periodic ones. */
  readonly successes: number;
  /** Of those, full syncs (iptables and nftables: the first, then hourly); the rest are partial. */
  readonly full: number;
  readonly failures: number;
  readonly lastSuccess: number;
  /** SyncProxyRulesLastQueuedTimestamp: SyncLoop's start, then the last change that queued a sync. */
  readonly lastQueued: number;
}

export function syncCounts(rt: KubeProxyRuntime, now: number): SyncCounts {
  const last = rt.lastSyncAt ?? rt.startedAt;
  const lastSuccess = lastSuccessfulSync(rt, now);
  const successes = rt.syncs + Math.round((lastSuccess - last) / resyncIntervalMs(rt));
  const hourly = 1 + Math.floor((lastSuccess - rt.startedAt) / fullSyncPeriodMs);
  const queued = Math.max(last, rt.failingSince !== undefined ? rt.failingSince : 0);
  return {
    successes,
    full: Math.min(successes, hourly),
    failures: syncFailures(rt, now),
    lastSuccess,
    lastQueued: Math.min(queued, now),
  };
}

export interface FamilyLoad {
  readonly ports: number;
  readonly endpoints: number;
}

/** The Service ports and endpoints one family's proxier programs. */
export function familyLoad(catalog: ServiceCatalog, family: IPFamily): FamilyLoad {
  let ports = 0;
  let endpoints = 0;
  for (const sp of catalog.ports) {
    if (sp.family !== family) continue;
    ports += 1;
    endpoints += sp.endpoints.length;
  }
  return { ports, endpoints };
}

/**
 * A deterministic cost in seconds for one sync. IPVS rewrites every virtual server and its
 * iptables/ipset rules each time; nftables and iptables pay a full rewrite only on full syncs and
 * a small constant plus the changes on partial ones. So a cutover shows nftables syncs several
 * times cheaper than IPVS at the same Service count (`docs/twin.md`, "Syncs and health").
 */
export function syncSeconds(mode: ProxyMode, load: FamilyLoad, full: boolean): number {
  const { ports, endpoints } = load;
  if (mode === 'ipvs') return 0.006 + ports * 3e-5 + endpoints * 5e-6;
  if (mode === 'iptables')
    return full ? 0.004 + ports * 2e-5 + endpoints * 1e-5 : 0.002 + ports * 2e-6;
  return full ? 0.003 + ports * 1e-5 + endpoints * 4e-6 : 0.0015 + ports * 1e-6;
}
