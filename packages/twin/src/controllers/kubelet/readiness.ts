// When a started container turns ready (pkg/kubelet/prober): with no readiness probe at once (the
// prober manager reports a container without a readiness worker as ready); with one, at the
// first probe at or after initialDelaySeconds. The worker probes when it starts and then every
// periodSeconds (default 10), skipping probes before the initial delay. Probes always pass in the
// twin; startup probes are not modelled.

import type { KubeObject } from '../../apimachinery/types.js';
import { asArray, asRecord, isJsonObject } from '../../apimachinery/types.js';

function containerDelayMs(probe: Record<string, unknown>): number {
  const initial =
    typeof probe['initialDelaySeconds'] === 'number' ? probe['initialDelaySeconds'] : 0;
  const period =
    typeof probe['periodSeconds'] === 'number' && probe['periodSeconds'] > 0
      ? probe['periodSeconds']
      : 10;
  if (initial <= 0) return 0;
  return Math.ceil(initial / period) * period * 1000;
}

/** How long after the start every container of the pod is ready. */
export function readinessDelayMs(pod: KubeObject): number {
  let delay = 0;
  for (const c of asArray(asRecord(pod['spec'])['containers']).filter(isJsonObject)) {
    const probe = c['readinessProbe'];
    if (isJsonObject(probe)) delay = Math.max(delay, containerDelayMs(probe));
  }
  return delay;
}
