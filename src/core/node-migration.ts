/**
 * How one node moves between the original kube-proxy DaemonSet and the canary: the values of the
 * migration label, what each value makes the DaemonSets do, which kube-proxy pods a node has,
 * and what to wait for after each label change. `switching` is excluded by the original's NotIn
 * term and not selected by the canary, so a node passes through "no kube-proxy" and never runs
 * two (the old pod is gone before the new one is created).
 */
import type { ClusterAction } from './actions.js';
import type { KubePod } from './kube.js';
import { MIGRATION_VALUES } from './node-affinity.js';

export const LABEL_SWITCHING = MIGRATION_VALUES.switching;
export const LABEL_NFTABLES = MIGRATION_VALUES.nftables;

/** kured-style node annotations: anyone with kubectl sees which run is on the node and where. */
export const ANNOTATION_RUN = 'proxy-migrate.io/run';
export const ANNOTATION_STEP = 'proxy-migrate.io/step';
export const ANNOTATION_RESULT = 'proxy-migrate.io/last-result';

/** What the cluster must show after a label change before the next one. */
export type Settle = 'kube-proxy-gone' | 'canary-ready' | 'original-ready';

/** The wait a label value calls for: none of either kube-proxy, the canary's, or the original's. */
export function settleFor(value: string | null): Settle {
  if (value === LABEL_SWITCHING) return 'kube-proxy-gone';
  if (value === LABEL_NFTABLES) return 'canary-ready';
  return 'original-ready';
}

/** The migration label's value after an action on it; undefined for other actions. */
export function labelAfter(action: ClusterAction, key: string): string | null | undefined {
  if (action.kind === 'label-node' && action.key === key) return action.value;
  if (action.kind === 'unlabel-node' && action.key === key) return null;
  return undefined;
}

export interface NodeKubeProxies {
  original: KubePod[];
  canary: KubePod[];
}

function ownedBy(pod: KubePod, daemonSet: string): boolean {
  return (pod.metadata.ownerReferences ?? []).some(
    (o) => o.kind === 'DaemonSet' && o.name === daemonSet && o.controller === true,
  );
}

/** The kube-proxy pods on a node, by the DaemonSet that owns them (Terminating ones included). */
export function kubeProxiesOn(
  pods: readonly KubePod[],
  names: { original: string; canary: string },
): NodeKubeProxies {
  return {
    original: pods.filter((p) => ownedBy(p, names.original)),
    canary: pods.filter((p) => ownedBy(p, names.canary)),
  };
}

/** A pod that runs kube-proxy: a container named kube-proxy or whose command is kube-proxy. */
export function runsKubeProxy(pod: KubePod): boolean {
  return (pod.spec?.containers ?? []).some(
    (c) => c.name === 'kube-proxy' || /(^|\/)kube-proxy$/.test(c.command?.[0] ?? ''),
  );
}

/**
 * kube-proxy pods on a node owned by neither DaemonSet the migration knows: a second kube-proxy
 * DaemonSet for one pool (traps.yaml has one for its storage nodes). The canary clones only the
 * original, so such a node cannot be moved without putting two kube-proxies on it.
 */
export function otherKubeProxies(
  pods: readonly KubePod[],
  names: { original: string; canary: string },
): { pod: string; daemonSet: string }[] {
  return pods.filter(runsKubeProxy).flatMap((p) => {
    const owner = (p.metadata.ownerReferences ?? []).find((o) => o.kind === 'DaemonSet');
    if (owner === undefined || owner.name === names.original || owner.name === names.canary)
      return [];
    return [{ pod: p.metadata.name, daemonSet: owner.name }];
  });
}

export function podReady(pod: KubePod): boolean {
  return (
    pod.metadata.deletionTimestamp === undefined &&
    pod.status?.phase === 'Running' &&
    (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True')
  );
}

/** Whether a node shows what `settle` waits for, and if not, one line saying what it shows. */
export function settled(settle: Settle, seen: NodeKubeProxies): { done: boolean; showing: string } {
  const describe = (pods: KubePod[], who: string): string =>
    pods.length === 0
      ? `no ${who} pod`
      : pods
          .map(
            (p) =>
              `${who} pod ${p.metadata.name} ${p.metadata.deletionTimestamp === undefined ? (podReady(p) ? 'Ready' : (p.status?.phase ?? 'Pending')) : 'Terminating'}`,
          )
          .join(', ');
  const showing = `${describe(seen.original, 'original')}; ${describe(seen.canary, 'canary')}`;
  switch (settle) {
    case 'kube-proxy-gone':
      return { done: seen.original.length === 0 && seen.canary.length === 0, showing };
    case 'canary-ready':
      return {
        done: seen.original.length === 0 && seen.canary.length === 1 && seen.canary.every(podReady),
        showing,
      };
    case 'original-ready':
      return {
        done:
          seen.canary.length === 0 && seen.original.length === 1 && seen.original.every(podReady),
        showing,
      };
  }
}
