/**
 * The safety invariants of a migration, asserted on the twin after every test that mutates:
 * exactly one kube-proxy pod per node, Ready; no kube-proxy on an untouched node restarted or
 * replaced; nothing written that is not an action in a run's journal (or the run's own
 * housekeeping: probe pods, the cluster Lease, node annotations); every run ended.
 */
import { expect } from 'vitest';
import { resourceFor, type Twin, type WriteRecord } from '@proxy-migrate/twin';
import type { ClusterAction } from '../../src/core/actions.js';
import type { RunState } from '../../src/core/run-state.js';

export interface KubeProxyPod {
  node: string;
  name: string;
  uid: string;
  owner: string;
  restarts: number;
  ready: boolean;
  terminating: boolean;
}

/** Every kube-proxy pod (of either DaemonSet) the twin holds, by node. */
export function kubeProxyPods(twin: Twin): KubeProxyPod[] {
  const pods = twin.store.list(resourceFor('pods'), { namespace: 'kube-system' }).items;
  return pods.flatMap((p) => {
    const meta = p.metadata as {
      name?: string;
      uid?: string;
      deletionTimestamp?: string;
      ownerReferences?: { kind: string; name: string }[];
    };
    const owner = meta.ownerReferences?.find((o) => o.kind === 'DaemonSet')?.name;
    // Every kube-proxy DaemonSet counts: traps.yaml has a second one for its storage pool.
    if (owner === undefined || !owner.startsWith('kube-proxy')) return [];
    const spec = p['spec'] as { nodeName?: string };
    const status = p['status'] as {
      conditions?: { type: string; status: string }[];
      containerStatuses?: { restartCount?: number }[];
    };
    return [
      {
        node: spec.nodeName ?? '',
        name: meta.name ?? '',
        uid: meta.uid ?? '',
        owner,
        restarts: status.containerStatuses?.[0]?.restartCount ?? 0,
        ready: status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
        terminating: meta.deletionTimestamp !== undefined,
      },
    ];
  });
}

/** The `resource/name` a journaled action writes, as the twin's write log names it. */
export function targetOf(action: ClusterAction): string {
  switch (action.kind) {
    case 'label-node':
    case 'unlabel-node':
    case 'annotate-node':
      return `nodes/${action.node}`;
    case 'ensure-configmap':
    case 'delete-configmap':
      return `configmaps/${action.ref.name}`;
    case 'ensure-daemonset':
    case 'delete-daemonset':
    case 'set-update-strategy':
    case 'set-node-affinity':
      return `daemonsets/${action.ref.name}`;
    default:
      return `${action.kind}/${'ref' in action ? action.ref.name : ''}`;
  }
}

/** Writes that are a run's housekeeping, not migration actions. */
export function housekeeping(w: WriteRecord): boolean {
  return (
    (w.resource === 'pods' && (w.name ?? '').startsWith('proxy-migrate-probe-')) ||
    // The fleet probe's DaemonSet (in the probe namespace), created and deleted by the same run.
    (w.resource === 'daemonsets' && (w.name ?? '').startsWith('proxy-migrate-probe-')) ||
    (w.resource === 'pods' && w.verb === 'create' && w.name === undefined) ||
    w.resource === 'pods/exec' ||
    w.resource === 'leases'
  );
}

export interface InvariantOptions {
  /** kube-proxy pods before the test; pods of nodes not in `touched` must be the same after. */
  before: readonly KubeProxyPod[];
  touched: readonly string[];
  runs: readonly RunState[];
}

export function assertInvariants(twin: Twin, options: InvariantOptions): void {
  const after = kubeProxyPods(twin).filter((p) => !p.terminating);
  // Every node that ran a kube-proxy runs exactly one (nodes no DaemonSet targets run none).
  const served = new Set(options.before.filter((p) => !p.terminating).map((p) => p.node));
  const nodes = twin.store.list(resourceFor('nodes')).items.map((n) => n.metadata.name ?? '');
  for (const node of nodes) {
    const here = after.filter((p) => p.node === node);
    expect(
      here.map((p) => p.owner),
      `kube-proxy pods on ${node}`,
    ).toHaveLength(served.has(node) ? 1 : 0);
  }
  for (const pod of options.before.filter(
    (p) => !options.touched.includes(p.node) && !p.terminating,
  )) {
    const now = after.find((p) => p.node === pod.node);
    // A kube-proxy that was already failing (traps: batch-1 crash-loops) keeps restarting on its own.
    const restarts = pod.ready ? pod.restarts : now?.restarts;
    expect(
      { node: pod.node, uid: now?.uid, restarts: now?.restarts },
      `untouched ${pod.node}`,
    ).toEqual({
      node: pod.node,
      uid: pod.uid,
      restarts,
    });
  }
  const journaled = new Set(options.runs.flatMap((r) => r.journal.map((e) => targetOf(e.action))));
  // A create names its object in the body, not the URL: it must match a journaled object of its kind.
  const inJournal = (w: WriteRecord): boolean =>
    w.name === undefined
      ? [...journaled].some((t) => t.startsWith(`${w.resource}/`))
      : journaled.has(`${w.resource}/${w.name}`);
  const stray = twin.stats
    .writes()
    .filter((w) => !w.dryRun && w.code !== undefined && w.code < 400 && !housekeeping(w))
    .filter((w) => !inJournal(w));
  expect(stray, 'writes that are not in a run journal').toEqual([]);
  for (const run of options.runs) {
    expect(['verified', 'refused', 'rolled-back', 'needs-attention', 'failed']).toContain(
      run.outcome,
    );
  }
}

/**
 * Label changes (the only writes that move a node) that no approval stands behind: every
 * `label-node`/`unlabel-node` in a journal must name who approved it. Empty when all are.
 */
export function unapprovedLabelChanges(runs: readonly RunState[]): string[] {
  return runs.flatMap((run) =>
    run.journal
      .filter((e) => e.action.kind === 'label-node' || e.action.kind === 'unlabel-node')
      .filter((e) => e.approvedBy === undefined)
      .map((e) => `${run.id} #${e.seq} ${e.action.kind} without an approval`),
  );
}

/**
 * Watches, every `everyMs`, each node that ran a kube-proxy for a spell without a Ready,
 * non-terminating kube-proxy pod; `stop()` gives the longest spell per node (ms).
 */
export function watchKubeProxyGaps(twin: Twin, everyMs = 50): { stop(): Map<string, number> } {
  const served = new Set(
    kubeProxyPods(twin)
      .filter((p) => !p.terminating)
      .map((p) => p.node),
  );
  const since = new Map<string, number>();
  const longest = new Map<string, number>();
  const sample = () => {
    const now = Date.now();
    const ready = new Set(
      kubeProxyPods(twin)
        .filter((p) => p.ready && !p.terminating)
        .map((p) => p.node),
    );
    for (const node of served) {
      const start = since.get(node);
      if (ready.has(node)) {
        since.delete(node);
      } else if (start === undefined) {
        since.set(node, now);
      } else {
        longest.set(node, Math.max(longest.get(node) ?? 0, now - start));
      }
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return longest;
    },
  };
}
