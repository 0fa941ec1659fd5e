// kube-proxy's health server on healthzBindAddress (default 0.0.0.0:10256),
// pkg/proxy/healthcheck/proxy_health.go:
// - 503 when a proxier has had an update queued for longer than healthTimeout (2 × syncPeriod,
//   server.go); /healthz is also 503 while the Node is being deleted or carries the
//   ToBeDeletedByClusterAutoscaler taint (nodeEligible false); /livez ignores the Node.
// - When healthy, lastUpdated is "now": older releases reported the time of the last sync loop
//   run, and the handler keeps that meaning. When not, it is the last successful update.
// - v1.31/v1.32 print `{"lastUpdated": %q,"currentTime": %q, "nodeEligible": %v}` with Go's
//   time.Time String() (monotonic reading included); v1.33+ (#129271) json.Marshal a
//   ProxyHealth: lastUpdated, currentTime, nodeEligible (healthz only), healthy, and a per-family
//   `status` whose lastUpdated is that proxier's last successful update.

import { asArray, asRecord, type KubeObject } from '../../apimachinery/types.js';
import { lastSuccessfulSync, proxyHealthy, type KubeProxyRuntime } from './kube-proxy.js';
import { atLeast } from '../versions.js';

export interface HttpAnswer {
  readonly status: number;
  /** Headers the handler sets, in the order Go writes them (sorted); Date/Content-Length follow. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

export const plainText = 'text/plain; charset=utf-8';

export function textAnswer(status: number, body: string): HttpAnswer {
  return {
    status,
    headers: [
      ['Content-Type', plainText],
      ['X-Content-Type-Options', 'nosniff'],
    ],
    body,
  };
}

/** Nanoseconds since the epoch; the sub-millisecond part is synthesised, deterministically. */
export function nanos(ms: number): bigint {
  const whole = Math.floor(ms);
  const mixed = Math.imul(whole % 2_147_483_647, 0x9e3779b1) >>> 0;
  return BigInt(whole) * 1_000_000n + BigInt(mixed % 1_000_000);
}

const pad = (n: bigint | number, width: number): string => String(n).padStart(width, '0');

function fraction(ns: bigint): string {
  const frac = pad(ns % 1_000_000_000n, 9).replace(/0+$/, '');
  return frac === '' ? '' : `.${frac}`;
}

/** Go's RFC3339Nano in UTC, as json.Marshal writes a time.Time: trailing zeros trimmed. */
export function goJSONTime(ns: bigint): string {
  const iso = new Date(Number(ns / 1_000_000n)).toISOString();
  return `${iso.slice(0, 19)}${fraction(ns)}Z`;
}

/** time.Time.String() in UTC with its monotonic reading relative to the process start. */
export function goTimeString(ns: bigint, processStart: bigint): string {
  const iso = new Date(Number(ns / 1_000_000n)).toISOString();
  const mono = ns - processStart;
  const sign = mono < 0n ? '-' : '+';
  const abs = mono < 0n ? -mono : mono;
  const m = `${abs / 1_000_000_000n}.${pad(abs % 1_000_000_000n, 9)}`;
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${fraction(ns)} +0000 UTC m=${sign}${m}`;
}

/** Eligible unless the Node is being deleted or the cluster autoscaler is removing it. */
export function nodeEligible(node: KubeObject | undefined): boolean {
  if (!node) return true;
  if (node.metadata.deletionTimestamp !== undefined) return false;
  return !asArray(asRecord(node['spec'])['taints']).some(
    (t) => asRecord(t)['key'] === 'ToBeDeletedByClusterAutoscaler',
  );
}

/** The second clock.Now() of the v1.33 handler lands a little after currentTime. */
const secondNowNanos = 1_913n;

export function healthAnswer(
  rt: KubeProxyRuntime,
  node: KubeObject | undefined,
  now: number,
  path: '/healthz' | '/livez',
): HttpAnswer {
  const healthy = proxyHealthy(rt, now);
  const eligible = nodeEligible(node);
  const ok = healthy && (path === '/livez' || eligible);
  const current = nanos(now);
  const updated = nanos(lastSuccessfulSync(rt, now));
  let body: string;
  if (atLeast(rt.version, 33)) {
    const family = { lastUpdated: goJSONTime(updated), healthy };
    const health: Record<string, unknown> = {
      lastUpdated: goJSONTime(ok ? current + secondNowNanos : updated),
      currentTime: goJSONTime(current),
    };
    if (path === '/healthz') health['nodeEligible'] = eligible;
    health['healthy'] = healthy;
    health['status'] = { IPv4: family, IPv6: family };
    body = JSON.stringify(health);
  } else {
    const start = nanos(rt.startedAt);
    const current = goTimeString(nanos(now), start);
    const last = ok ? current : goTimeString(updated, start);
    body =
      path === '/healthz'
        ? `{"lastUpdated": ${JSON.stringify(last)},"currentTime": ${JSON.stringify(current)}, "nodeEligible": ${eligible}}`
        : `{"lastUpdated": ${JSON.stringify(last)},"currentTime": ${JSON.stringify(current)}}`;
  }
  return {
    status: ok ? 200 : 503,
    headers: [
      ['Content-Type', 'application/json'],
      ['X-Content-Type-Options', 'nosniff'],
    ],
    body,
  };
}
