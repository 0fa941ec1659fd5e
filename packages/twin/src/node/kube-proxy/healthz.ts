// kube-proxy's health server on healthzBindAddress (default 0.0.0.0:10256),
// pkg/proxy/healthcheck/proxy_health.go: /healthz and /livez answer JSON with lastUpdated,
// currentTime, nodeEligible (healthz only), healthy and per-family status (v1.32+); /healthz is 503
// when a sync is overdue or the node is being deleted, /livez only when a sync is overdue.

import { asArray, asRecord, type KubeObject } from '../../apimachinery/types.js';
import { lastSuccessfulSync, proxyHealthy, type KubeProxyRuntime } from './kube-proxy.js';
import { atLeast } from '../versions.js';

export interface HttpAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/** Go's RFC3339Nano: nanosecond precision (synthesised below a millisecond), zeros trimmed. */
export function goTime(ms: number): string {
  const whole = Math.floor(ms);
  const iso = new Date(whole).toISOString();
  const nanos = (whole % 1000) * 1_000_000 + ((whole * 7919) % 1_000_000);
  const frac = String(nanos).padStart(9, '0').replace(/0+$/, '');
  return `${iso.slice(0, 19)}${frac === '' ? '' : `.${frac}`}Z`;
}

/** Eligible unless the Node is being deleted or the cluster autoscaler is removing it. */
export function nodeEligible(node: KubeObject | undefined): boolean {
  if (!node) return true;
  if (node.metadata.deletionTimestamp !== undefined) return false;
  return !asArray(asRecord(node['spec'])['taints']).some(
    (t) => asRecord(t)['key'] === 'ToBeDeletedByClusterAutoscaler',
  );
}

export function healthAnswer(
  rt: KubeProxyRuntime,
  node: KubeObject | undefined,
  now: number,
  path: '/healthz' | '/livez',
): HttpAnswer {
  const healthy = proxyHealthy(rt, now);
  const eligible = nodeEligible(node);
  const lastUpdated = goTime(lastSuccessfulSync(rt, now));
  const body: Record<string, unknown> = { lastUpdated, currentTime: goTime(now) };
  if (path === '/healthz') body['nodeEligible'] = eligible;
  if (atLeast(rt.version, 32)) {
    body['healthy'] = healthy;
    const family = { lastUpdated, healthy };
    body['status'] = { IPv4: family, IPv6: family };
  }
  const ok = healthy && (path === '/livez' || eligible);
  return { status: ok ? 200 : 503, contentType: 'application/json', body: JSON.stringify(body) };
}
