/**
 * Where a migration stands, and whether its invariants hold: every node runs exactly one
 * kube-proxy; while a migration is in progress the original DaemonSet keeps its NotIn term on
 * every nodeSelectorTerm and its OnDelete strategy (a `kubeadm upgrade` or an EKS add-on update
 * rewrites both and puts two kube-proxies on migrated nodes); labels, pods and runs agree.
 * A broken invariant comes with its repair. This is the drift guard's core.
 */
import type { KubeDaemonSet, KubeNode, KubePod } from './kube.js';
import { requiredAffinity } from './node-affinity.js';
import {
  LABEL_NFTABLES,
  LABEL_SWITCHING,
  kubeProxiesOn,
  otherKubeProxies,
  podReady,
} from './node-migration.js';
import type { RunState } from './run-state.js';

export interface NodeStatus {
  node: string;
  pool: string;
  /** What kube-proxy on the node says it runs (/proxyMode); `unknown` when it could not be read. */
  mode: string;
  /** The migration label's value, if any. */
  label: string | undefined;
  /** Which DaemonSet's pods run kube-proxy here: original, canary, or another's name. */
  owners: string[];
  ready: boolean;
  /** The node's last-result annotation. */
  lastResult: string | undefined;
}

export interface Violation {
  /** Stable id: `two-kube-proxies`, `original-affinity`, … */
  invariant: string;
  subject: string;
  message: string;
  repair: string;
}

export interface ClusterStatus {
  cluster: string;
  inProgress: boolean;
  nodes: NodeStatus[];
  byMode: Record<string, number>;
  activeRuns: { id: string; kind: string; node?: string; phase: string }[];
  lock: { holder: string; expiresAt: string } | undefined;
  violations: Violation[];
}

export interface StatusInput {
  cluster: string;
  nodes: readonly KubeNode[];
  poolOf: (node: string) => string;
  /** kube-proxy pods in kube-system, with their owners. */
  pods: readonly KubePod[];
  original: KubeDaemonSet | undefined;
  canary: KubeDaemonSet | undefined;
  /** Whether the canary ConfigMap exists (a cutover that stopped after creating it). */
  canaryConfigMap?: boolean;
  label: string;
  /** /proxyMode per node; absent entries were not read. */
  modes: ReadonlyMap<string, string>;
  runs: readonly RunState[];
  lock: { holder: string; expiresAt: string } | undefined;
  resultAnnotation: string;
}

function originalViolations(input: StatusInput, inProgress: boolean): Violation[] {
  const ds = input.original;
  if (!inProgress || ds === undefined) return [];
  const name = `DaemonSet kube-system/${ds.metadata.name}`;
  const found: Violation[] = [];
  const terms = requiredAffinity(ds)?.nodeSelectorTerms ?? [];
  const excluding = (t: (typeof terms)[number]): boolean =>
    (t.matchExpressions ?? []).some(
      (e) =>
        e.key === input.label &&
        e.operator === 'NotIn' &&
        [LABEL_SWITCHING, LABEL_NFTABLES].every((v) => e.values?.includes(v)),
    );
  if (terms.length === 0 || !terms.every(excluding)) {
    found.push({
      invariant: 'original-affinity',
      subject: name,
      message: `${name} no longer keeps its pods off migrated nodes (its NotIn ${input.label} term is missing from ${terms.length === 0 ? 'its node affinity' : 'a nodeSelectorTerm'}): it will start a second kube-proxy on every migrated node`,
      repair: `Run \`proxy-migrate cutover ${input.cluster} <a migrated node> --yes\` again (its canary step puts the term back), or add \`${input.label} NotIn [switching, nftables]\` to every nodeSelectorTerm by hand; pause add-on updates (EKS) and kubeadm upgrades until the migration ends.`,
    });
  }
  if (ds.spec?.updateStrategy?.type !== 'OnDelete') {
    found.push({
      invariant: 'original-strategy',
      subject: name,
      message: `${name} is ${ds.spec?.updateStrategy?.type ?? 'RollingUpdate'} again, not OnDelete: its next template change restarts kube-proxy on every node`,
      repair: `Set it back to OnDelete (\`kubectl -n kube-system patch ds ${ds.metadata.name} -p '{"spec":{"updateStrategy":{"type":"OnDelete"}}}'\`) or let the next cutover do it.`,
    });
  }
  return found;
}

/**
 * Whether a migration is in progress: a node carries the migration label, a canary object
 * exists, or the original DaemonSet carries the migration's NotIn term. OnDelete alone is no
 * sign: some installers ship it.
 */
export function migrationInProgress(input: StatusInput): boolean {
  const terms = input.original === undefined ? null : requiredAffinity(input.original);
  const notIn = (terms?.nodeSelectorTerms ?? []).some((t) =>
    (t.matchExpressions ?? []).some((e) => e.key === input.label && e.operator === 'NotIn'),
  );
  return (
    input.canary !== undefined ||
    input.canaryConfigMap === true ||
    notIn ||
    input.nodes.some((n) => n.metadata.labels?.[input.label] !== undefined)
  );
}

export function clusterStatus(input: StatusInput): ClusterStatus {
  const names = {
    original: input.original?.metadata.name ?? 'kube-proxy',
    canary: input.canary?.metadata.name ?? 'kube-proxy-nftables',
  };
  const active = input.runs.filter((r) => r.phase !== 'done');
  const inProgress = migrationInProgress(input);
  const violations: Violation[] = [];
  const nodes = input.nodes.map((node): NodeStatus => {
    const name = node.metadata.name;
    const podsHere = input.pods.filter(
      (p) => p.spec?.nodeName === name && p.metadata.deletionTimestamp === undefined,
    );
    const seen = kubeProxiesOn(podsHere, names);
    const owners = [
      ...seen.original.map(() => 'original'),
      ...seen.canary.map(() => 'canary'),
      ...otherKubeProxies(podsHere, names).map((o) => o.daemonSet),
    ];
    const label = node.metadata.labels?.[input.label];
    const running = active.some((r) => r.node === name);
    if (owners.length > 1) {
      violations.push({
        invariant: 'two-kube-proxies',
        subject: name,
        message: `${name} runs ${owners.length} kube-proxy pods (${owners.join(' and ')}): they fight over the node's rules`,
        repair: `Fix the original DaemonSet's NotIn term (see below) and delete the original's pod on ${name}, or roll the node back: \`proxy-migrate rollback ${input.cluster} ${name}\`.`,
      });
    }
    if (owners.length === 0 && !running && input.pods.length > 0) {
      violations.push({
        invariant: 'no-kube-proxy',
        subject: name,
        message: `${name} runs no kube-proxy and no run is moving it${label === LABEL_SWITCHING ? ` (label ${input.label}=switching left behind)` : ''}`,
        repair: `\`proxy-migrate rollback ${input.cluster} ${name}\` brings the original back; \`proxy-migrate cutover ${input.cluster} ${name}\` moves it on.`,
      });
    }
    if (!running && label === LABEL_NFTABLES && owners.length === 1 && owners[0] !== 'canary') {
      violations.push({
        invariant: 'label-pod-mismatch',
        subject: name,
        message: `${name} is labelled ${input.label}=nftables but its kube-proxy is the original's`,
        repair: `Check the canary DaemonSet's nodeSelector, then \`proxy-migrate cutover ${input.cluster} ${name}\` again.`,
      });
    }
    return {
      node: name,
      pool: input.poolOf(name),
      mode: input.modes.get(name) ?? 'unknown',
      label,
      owners,
      ready: [...seen.original, ...seen.canary].some(podReady),
      lastResult: node.metadata.annotations?.[input.resultAnnotation],
    };
  });
  violations.push(...originalViolations(input, inProgress));
  const byMode: Record<string, number> = {};
  for (const n of nodes) byMode[n.mode] = (byMode[n.mode] ?? 0) + 1;
  return {
    cluster: input.cluster,
    inProgress,
    nodes,
    byMode,
    activeRuns: active.map((r) => ({
      id: r.id,
      kind: r.kind,
      ...(r.node === undefined ? {} : { node: r.node }),
      phase: r.phase,
    })),
    lock: input.lock,
    violations,
  };
}
