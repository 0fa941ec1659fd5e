/**
 * kube-proxy's /healthz and /livez bodies (pkg/proxy/healthcheck/proxy_health.go; facts §7). Older
 * releases print `{"lastUpdated": "…","currentTime": "…", "nodeEligible": true}` (Go time
 * strings); newer ones add `healthy` and a per-family `status`. /healthz answers 503 when a queued
 * update is older than 2 × syncPeriod, or when the node is being deleted (`nodeEligible: false`),
 * which is not a kube-proxy fault.
 */
import { isRecord, parseJson, parsed, unparsable, type Parsed } from './parsed.js';

export interface ProxyHealth {
  /** The HTTP status the server answered with. */
  statusCode: number;
  /** Absent on /livez and in bodies too old to carry it. */
  nodeEligible?: boolean;
  /** The proxier's own health, ignoring the node (newer releases only). */
  healthy?: boolean;
  lastUpdated?: string;
  currentTime?: string;
  /** Per IP family (newer releases): `IPv4`, `IPv6`. */
  families: Record<string, { healthy?: boolean; lastUpdated?: string }>;
}

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Drops undefined fields, so optional ones are absent rather than present-but-undefined. */
function defined<T extends object>(o: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

type FamilyHealth = ProxyHealth['families'][string];

export function parseHealthz(body: string, statusCode: number): Parsed<ProxyHealth> {
  const json = parseJson(body, 'kube-proxy health');
  if (!json.ok) return json;
  const o = json.value;
  if (!isRecord(o) || (!('lastUpdated' in o) && !('healthy' in o)))
    return unparsable('kube-proxy health: not a kube-proxy health body');
  const families: ProxyHealth['families'] = {};
  if (isRecord(o['status']))
    for (const [family, s] of Object.entries(o['status']))
      if (isRecord(s))
        families[family] = defined<FamilyHealth>({
          healthy: bool(s['healthy']),
          lastUpdated: str(s['lastUpdated']),
        });
  return parsed(
    defined<ProxyHealth>({
      statusCode,
      nodeEligible: bool(o['nodeEligible']),
      healthy: bool(o['healthy']),
      lastUpdated: str(o['lastUpdated']),
      currentTime: str(o['currentTime']),
      families,
    }),
  );
}
