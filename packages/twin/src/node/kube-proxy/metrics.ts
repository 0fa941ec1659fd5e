// kube-proxy's /metrics on metricsBindAddress: the families its registry gathers, sorted by name
// as client_golang does — the component-base ones (`metrics-runtime.ts`) and kube-proxy's own per
// release and mode (`metrics-proxy.ts`).

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { HostFacts } from '../host/host.js';
import type { KubeProxyRuntime } from './kube-proxy.js';
import { writeProxyMetrics } from './metrics-proxy.js';
import { writeRuntimeMetrics } from './metrics-runtime.js';
import { PromWriter } from './prom-text.js';

export { syncBuckets } from './metrics-proxy.js';

/** The text a scrape of /metrics returns at `now`; `catalog` is what kube-proxy last programmed. */
export function metricsText(
  rt: KubeProxyRuntime,
  catalog: ServiceCatalog,
  facts: HostFacts,
  now: number,
): string {
  const p = new PromWriter();
  writeRuntimeMetrics(p, rt, catalog, now);
  writeProxyMetrics(p, rt, catalog, facts, now);
  return p.text();
}
