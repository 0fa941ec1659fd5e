// The families every component-base binary serves next to its own: kubernetes_build_info, the
// client_golang Go (`metrics-go.ts`) and process collectors (component-base legacyregistry), and
// client-go's rest_client_* (component-base/metrics/prometheus/restclient). Values are plausible
// and deterministic (uptime, Service count), not measured. The runtime/metrics families that
// `WithGoCollectorRuntimeMetrics(MetricsAll)` adds (go_gc_heap_*, go_sched_*, …) are left out;
// process_network_* exist from client_golang v1.20 (Kubernetes 1.33).

import type { ServiceCatalog } from '../dataplane/catalog.js';
import type { KubeProxyRuntime } from './kube-proxy.js';
import { goVersion, writeGo } from './metrics-go.js';
import type { PromWriter } from './prom-text.js';
import { alpha, observedAs, type Sample } from './prom-text.js';
import { atLeast, formatVersion, type Version } from '../versions.js';

const one = (value: number): Sample[] => [{ labels: {}, value }];

function writeProcess(
  p: PromWriter,
  v: Version,
  rt: KubeProxyRuntime,
  uptime: number,
  services: number,
): void {
  p.counter(
    'process_cpu_seconds_total',
    'Total user and system CPU time spent in seconds.',
    one(Math.round((0.35 + uptime * 0.0021 + rt.syncs * 0.004) * 100) / 100),
  );
  p.gauge('process_max_fds', 'Maximum number of open file descriptors.', one(1_048_576));
  p.gauge('process_open_fds', 'Number of open file descriptors.', one(17));
  p.gauge(
    'process_resident_memory_bytes',
    'Resident memory size in bytes.',
    one(43_417_600 + services * 4_096),
  );
  p.gauge(
    'process_start_time_seconds',
    'Start time of the process since unix epoch in seconds.',
    one(Math.floor(rt.startedAt / 10) / 100),
  );
  p.gauge('process_virtual_memory_bytes', 'Virtual memory size in bytes.', one(1_318_473_728));
  p.gauge(
    'process_virtual_memory_max_bytes',
    'Maximum amount of virtual memory available in bytes.',
    one(18446744073709552000),
  );
  if (!atLeast(v, 33)) return;
  p.counter(
    'process_network_receive_bytes_total',
    'Number of bytes received by the process over the network.',
    one(Math.round(180_000 + uptime * 310 + services * 2_200)),
  );
  p.counter(
    'process_network_transmit_bytes_total',
    'Number of bytes sent by the process over the network.',
    one(Math.round(42_000 + uptime * 95)),
  );
}

/** The API server kube-proxy talks to: the `kubernetes` Service's endpoint, as kubeadm's kubeconfig names it. */
function apiHost(catalog: ServiceCatalog): string {
  const svc = catalog.ports.find((sp) => sp.namespace === 'default' && sp.name === 'kubernetes');
  const ep = svc?.endpoints[0];
  return ep ? `${ep.ip}:${ep.port}` : '10.96.0.1:443';
}

const latencyBuckets = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60];
const sizeBuckets = [64, 256, 512, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216];
const rotationBuckets = [
  600, 1800, 3600, 14400, 86400, 604800, 2592000, 7776000, 15552000, 31104000, 124416000,
];

function writeRestClient(p: PromWriter, catalog: ServiceCatalog, uptime: number): void {
  const host = apiHost(catalog);
  // Lists and watches of Services, EndpointSlices, the Node (and ServiceCIDRs), rewatched ~5 min.
  const gets = 8 + 4 * Math.floor(uptime / 300);
  const get = { host, verb: 'GET' };
  p.histogram(
    'rest_client_request_duration_seconds',
    alpha('Request latency in seconds. Broken down by verb, and host.'),
    latencyBuckets,
    [observedAs(get, latencyBuckets, gets, 0.004)],
  );
  p.histogram(
    'rest_client_request_size_bytes',
    alpha('Request size in bytes. Broken down by verb and host.'),
    sizeBuckets,
    [observedAs(get, sizeBuckets, gets, 0)],
  );
  p.histogram(
    'rest_client_response_size_bytes',
    alpha('Response size in bytes. Broken down by verb and host.'),
    sizeBuckets,
    [observedAs(get, sizeBuckets, gets, 2_048)],
  );
  p.histogram(
    'rest_client_rate_limiter_duration_seconds',
    alpha('Client side rate limiter latency in seconds. Broken down by verb, and host.'),
    latencyBuckets,
    [observedAs(get, latencyBuckets, gets, 2e-6)],
  );
  p.counter(
    'rest_client_requests_total',
    alpha('Number of HTTP requests, partitioned by status code, method, and host.'),
    [{ labels: { code: '200', host, method: 'GET' }, value: gets }],
  );
  p.gauge(
    'rest_client_exec_plugin_ttl_seconds',
    alpha(
      'Gauge of the shortest TTL (time-to-live) of the client certificate(s) managed by the auth exec plugin. The value is in seconds until certificate expiry (negative if already expired). If auth exec plugins are unused or manage no TLS certificates, the value will be +INF.',
    ),
    one(Infinity),
  );
  p.histogram(
    'rest_client_exec_plugin_certificate_rotation_age',
    alpha(
      'Histogram of the number of seconds the last auth exec plugin client certificate lived before being rotated. If auth exec plugin client certificates are unused, histogram will contain no data.',
    ),
    rotationBuckets,
    [observedAs({}, rotationBuckets, 0, 0)],
  );
  p.gauge(
    'rest_client_transport_cache_entries',
    alpha('Number of transport entries in the internal cache.'),
    one(1),
  );
  p.counter(
    'rest_client_transport_create_calls_total',
    alpha(
      'Number of calls to get a new transport, partitioned by the result of the operation hit: obtained from the cache, miss: created and added to the cache, uncacheable: created and not cached',
    ),
    [
      { labels: { result: 'hit' }, value: 1 },
      { labels: { result: 'miss' }, value: 1 },
    ],
  );
}

export function writeRuntimeMetrics(
  p: PromWriter,
  rt: KubeProxyRuntime,
  catalog: ServiceCatalog,
  now: number,
): void {
  const v = rt.version;
  const uptime = Math.max(0, (now - rt.startedAt) / 1000);
  const services = catalog.ports.length;
  p.gauge(
    'kubernetes_build_info',
    alpha(
      "A metric with a constant '1' value labeled by major, minor, git version, git commit, git tree state, build date, Go version, and compiler from which Kubernetes was built, and platform on which it is running.",
    ),
    [
      {
        labels: {
          build_date: '2025-07-15T18:36:19Z',
          compiler: 'gc',
          git_commit: '0f3c0c1e7a6d3c4b5a69b8a7f1f2e3d4c5b6a798',
          git_tree_state: 'clean',
          git_version: formatVersion(v),
          go_version: goVersion(v),
          major: String(v.major),
          minor: String(v.minor),
          platform: 'linux/amd64',
        },
        value: 1,
      },
    ],
  );
  writeGo(p, v, uptime, services, now);
  writeProcess(p, v, rt, uptime, services);
  writeRestClient(p, catalog, uptime);
}
