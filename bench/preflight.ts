// Pre-flight at scale on the twin's generated 5,000-node / 20,000-Service cluster, through the
// product's real Kubernetes adapter: wall time, API requests made (counted by the twin), peak
// RSS. Cluster-wide reads must grow with pages, not nodes; node probes are per node by nature,
// so they are measured separately on a sample. Prints figures; asserts nothing.
//   npx tsx bench/preflight.ts [--probe-nodes N] [--concurrency N]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KubeClusterDirectory } from '../src/adapters/kubernetes/directory.js';
import { clusterConfig } from '../src/config.js';
import { preflightRun } from '../src/engine/preflight-run.js';
import { probeNodes } from '../src/engine/probe-nodes.js';
import { createLogger } from '../src/log.js';
import { systemClock } from '../src/ports/clock.js';
import { startTwin } from '@proxy-migrate/twin';

const arg = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i < 0 ? fallback : Number(process.argv[i + 1]);
};
const probeSample = arg('--probe-nodes', 200);
const concurrency = arg('--concurrency', 20);

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);
const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

const twin = await startTwin({ scenario: 'large-generated' });
const dir = await mkdtemp(join(tmpdir(), 'pm-bench-'));
const kubeconfig = join(dir, 'kubeconfig.yaml');
await twin.writeKubeconfig(kubeconfig);
const cluster = clusterConfig({ name: 'large', kubeconfig, context: twin.name });
const directory = new KubeClusterDirectory(
  { clusters: [cluster], defaultKubeconfigs: [] },
  createLogger({ level: 'error' }),
);

// 1. Cluster-wide gathering and every check, API only.
twin.stats.reset();
let started = performance.now();
const { report, snapshot } = await preflightRun({
  cluster: directory.get('large'),
  clock: systemClock,
});
const apiMs = performance.now() - started;
const stats = twin.stats.snapshot() as {
  total: number;
  requests: { verb: string; resource: string; count: number }[];
};
console.log(
  `cluster            ${snapshot.nodes.length} nodes, ${snapshot.services.length} Services, ${snapshot.configMaps.length} ConfigMaps`,
);
console.log(
  `pre-flight (API)   ${apiMs.toFixed(0)} ms wall, ${stats.total} API requests (${stats.requests.map((r) => `${r.verb} ${r.resource} ${r.count}`).join(', ')})`,
);
console.log(
  `report             ${report.summary.block} block, ${report.summary.warn} warn, ${report.summary.info} info, ${report.summary.pass} pass; ${report.pools.length} pools`,
);

// 2. Node probes on a sample: one probe pod and six commands per node, bounded concurrency.
const sample = snapshot.nodes.slice(0, probeSample);
twin.stats.reset();
started = performance.now();
const shell = directory.nodeShell('large', 'pf-bench');
const facts = await probeNodes(shell, sample, { concurrency });
await shell.close();
const probeMs = performance.now() - started;
const probeStats = twin.stats.snapshot() as { total: number };
const failed = facts.filter((f) => f.errors.length > 0).length;
console.log(
  `node probes        ${sample.length} nodes at concurrency ${concurrency}: ${probeMs.toFixed(0)} ms wall (${(probeMs / sample.length).toFixed(1)} ms/node), ${probeStats.total} API requests, ${failed} with errors`,
);
console.log(
  `  projected        ${(((probeMs / sample.length) * snapshot.nodes.length) / 1000).toFixed(0)} s for all ${snapshot.nodes.length} nodes`,
);

clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
console.log(`peak RSS           ${mib(peakRss)} (twin and bot in one process)`);
await twin.close();
await rm(dir, { recursive: true, force: true });
