/**
 * The hostNetwork pods a pre-flight keeps: one per controller and template revision, without
 * status. On a big fleet almost all of them are DaemonSet pods (kube-proxy, the CNI, node
 * exporters), 5,000 copies of a handful of specs; the checks read only the specs (commands,
 * args, env, probes) and the owner, so the copies added nothing but memory.
 */
import type { KubePod } from './kube.js';

/** The labels controllers put on a pod for its template revision (DaemonSet, ReplicaSet). */
const REVISION_LABELS = ['controller-revision-hash', 'pod-template-hash'] as const;

function specKey(pod: KubePod): string | undefined {
  const owner = (pod.metadata.ownerReferences ?? []).find((r) => r.controller === true);
  // Bare and mirror (static) pods have specs of their own: every one is kept.
  if (owner === undefined || owner.kind === 'Node') return undefined;
  const labels = pod.metadata.labels ?? {};
  const revision = REVISION_LABELS.map((key) => labels[key]).find((v) => v !== undefined);
  if (revision === undefined) return undefined;
  return `${pod.metadata.namespace ?? ''}/${owner.kind}/${owner.name}/${revision}`;
}

/**
 * Decides pod by pod, as list pages arrive, which to keep (the first of each controller and
 * revision, without status): a stateful filter for ClusterPort.listPods' `keep`.
 */
export function hostNetworkPodKeeper(): (pod: KubePod) => KubePod | undefined {
  const seen = new Set<string>();
  return (pod) => {
    const key = specKey(pod);
    if (key !== undefined) {
      if (seen.has(key)) return undefined;
      seen.add(key);
    }
    return { metadata: pod.metadata, ...(pod.spec === undefined ? {} : { spec: pod.spec }) };
  };
}
