/**
 * Reads what `status` (and the drift guard) judge: nodes, kube-proxy pods and DaemonSets, each
 * node's /proxyMode through the probe shell (bounded concurrency), the runs in the store and the
 * lock's holder. The judgement itself is core/cluster-status.ts.
 */
import { KUBE_SYSTEM } from '../core/cluster-overview.js';
import { clusterStatus, type ClusterStatus } from '../core/cluster-status.js';
import { findKubeProxyDaemonSet } from '../core/kube-proxy-config.js';
import { decideLease } from '../core/lease.js';
import { ANNOTATION_RESULT } from '../core/node-migration.js';
import { CANARY_NAME, LOCK_LEASE_NAME } from '../core/permissions.js';
import { groupByPool } from '../core/pools.js';
import { isReady } from '../core/nodes.js';
import type { ClusterConfig } from '../config.js';
import { proxyModeProbe } from '../probes/proxy-mode.js';
import { probeContext } from '../probes/context.js';
import { isProbeError } from '../probes/types.js';
import type { ClusterDirectory, ClusterPort } from '../ports/cluster.js';
import type { NodeShell } from '../ports/node-shell.js';
import type { RunStore } from '../ports/run-store.js';
import { mapLimit } from './concurrency.js';
import { newRunId } from './run-id.js';

export interface StatusSources {
  cluster: ClusterPort;
  config: ClusterConfig;
  /** Absent: modes are not probed (they show as unknown). */
  shell?: NodeShell;
  store: RunStore;
  now: Date;
}

export async function readStatus(src: StatusSources): Promise<ClusterStatus> {
  const { cluster, config } = src;
  const [nodes, daemonSets, pods, lease, runs, canaryConfigMap] = await Promise.all([
    cluster.listNodes(),
    cluster.listDaemonSets(KUBE_SYSTEM),
    cluster.listPods('metadata.namespace=kube-system'),
    cluster.getLease(KUBE_SYSTEM, LOCK_LEASE_NAME),
    src.store.list({ cluster: config.name, limit: 200 }),
    cluster.getConfigMap(KUBE_SYSTEM, CANARY_NAME),
  ]);
  const original = findKubeProxyDaemonSet(daemonSets);
  const canary = daemonSets.find((d) => d.metadata.name === CANARY_NAME);
  const modes = new Map<string, string>();
  const shell = src.shell;
  if (shell !== undefined) {
    const ctx = probeContext({});
    await mapLimit(nodes.filter(isReady), config.probe.concurrency, async (node) => {
      const argv = proxyModeProbe.argv(ctx);
      try {
        const value = proxyModeProbe.parse(
          await shell.run(node.metadata.name, argv, { timeoutMs: 10_000 }),
        );
        if (!isProbeError(value)) modes.set(node.metadata.name, value);
      } catch {
        // Unread stays unknown: the status says so, it never guesses from the label.
      }
    });
  }
  const pools = groupByPool(nodes, config.poolLabel);
  const poolByNode = new Map(
    pools.flatMap((p) => p.nodes.map((n) => [n.metadata.name, p.name] as const)),
  );
  const decision = decideLease(lease, '', src.now.getTime());
  return clusterStatus({
    cluster: config.name,
    nodes,
    poolOf: (n) => poolByNode.get(n) ?? 'unknown',
    pods,
    original,
    canary,
    canaryConfigMap: canaryConfigMap !== undefined,
    label: config.migrationLabel,
    modes,
    runs,
    lock:
      decision.kind === 'held'
        ? { holder: decision.holder, expiresAt: new Date(decision.expiresAt).toISOString() }
        : undefined,
    resultAnnotation: ANNOTATION_RESULT,
  });
}

export interface StatusRequest {
  directory: ClusterDirectory;
  config: ClusterConfig;
  store: RunStore;
  /** Read /proxyMode on every Ready node through short-lived probe pods (default on). */
  probe: boolean;
  now: Date;
}

/**
 * `status` whoever asks (the terminal, the Slack verb): the probe shell for the modes, opened
 * and closed around one {@link readStatus}.
 */
export async function statusOf(req: StatusRequest): Promise<ClusterStatus> {
  const shell = req.probe
    ? req.directory.nodeShell(req.config.name, newRunId('st', req.now))
    : undefined;
  try {
    return await readStatus({
      cluster: req.directory.get(req.config.name),
      config: req.config,
      ...(shell === undefined ? {} : { shell }),
      store: req.store,
      now: req.now,
    });
  } finally {
    await shell?.close();
  }
}
