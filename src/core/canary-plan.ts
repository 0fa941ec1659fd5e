/**
 * The canary plan: from the live objects, every write that cuts nodes over to nftables one at a
 * time (DESIGN "The migration mechanics"). The original goes to OnDelete first: the NotIn term is
 * a pod-template change, and under RollingUpdate it would restart kube-proxy on every node.
 */
import type { ClusterAction, ConfigMapContent, UpdateStrategy } from './actions.js';
import { canaryConfig, configMapContent } from './canary-config.js';
import {
  canaryDaemonSet,
  cleanDaemonSet,
  recordedStrategy,
  strategyOf,
} from './canary-daemonset.js';
import { nodeSteps, type NodeSteps } from './canary-node-steps.js';
import type { KubeConfigMap, KubeDaemonSet, KubeNode } from './kube.js';
import { kubeProxyContainer, parseFlags, resolveConfigSource } from './kube-proxy-config.js';
import { TCP_LIBERAL_KERNEL } from './nftables-config.js';
import { requiredAffinity, withExclusion } from './node-affinity.js';
import { compareVersions, parseVersion } from './parse/version.js';
import { CANARY_NAME } from './permissions.js';

export interface CanaryPlanInput {
  /** The original kube-proxy DaemonSet, as read. */
  original: KubeDaemonSet;
  /** The ConfigMap its --config file comes from (resolveConfigSource); none for flags only. */
  configMap?: KubeConfigMap;
  /** The canary objects already in the cluster, if any. */
  canaryConfigMap: KubeConfigMap | null;
  canaryDaemonSet: KubeDaemonSet | null;
  /** The clusters file's `migrationLabel`. */
  migrationLabel: string;
  /** The oldest `kernelVersion` among the nodes; unknown adds tcpBeLiberal, to be safe. */
  oldestKernel: string | undefined;
  /** The nodes to plan label changes for. */
  nodes: readonly KubeNode[];
}

export interface CanaryPlan {
  namespace: string;
  /** Where kube-proxy's configuration lives, and so what the canary rewrites. */
  source: { kind: 'configmap'; configMap: string; key: string } | { kind: 'flags' };
  /** The shared objects, in the order they are applied. */
  shared: ClusterAction[];
  nodes: NodeSteps[];
  /** The strategy to give the original back at the end (kept on the canary as an annotation). */
  originalStrategy: UpdateStrategy;
  /** What the rewrite changes and what it cannot carry, one line each, for people. */
  changes: string[];
  dropped: string[];
  /** The objects the canary is cloned from, for diffs against a canary not yet created. */
  from: { daemonSet: KubeDaemonSet; configMap?: { name: string; content: ConfigMapContent } };
}

export type PlanResult = { ok: true; plan: CanaryPlan } | { ok: false; problem: string };

function liberalNeeded(oldestKernel: string | undefined): boolean {
  const version = parseVersion(oldestKernel ?? '');
  return version === undefined || compareVersions(version, TCP_LIBERAL_KERNEL) < 0;
}

export function planCanary(input: CanaryPlanInput): PlanResult {
  const { original, migrationLabel: label } = input;
  const name = `DaemonSet ${original.metadata.namespace ?? 'kube-system'}/${original.metadata.name}`;
  if (original.metadata.name === CANARY_NAME)
    return { ok: false, problem: `${name} is the canary itself, not the original` };
  const container = kubeProxyContainer(original);
  if (container === undefined) return { ok: false, problem: `${name} has no containers` };
  const flags = parseFlags([...(container.command ?? []), ...(container.args ?? [])]);
  const source = resolveConfigSource(original, container, flags);
  if (source.kind === 'unresolved') return { ok: false, problem: `${name}: ${source.reason}` };
  const namespace = original.metadata.namespace ?? 'kube-system';

  const config = canaryConfig({
    name,
    container,
    flags,
    source,
    configMap: input.configMap,
    tcpBeLiberal: liberalNeeded(input.oldestKernel),
  });
  if (!config.ok) return config;
  const canaryRef = { namespace, name: CANARY_NAME };
  const existingCm = input.canaryConfigMap;
  const configAction: ClusterAction | undefined =
    config.kind === 'configmap'
      ? {
          kind: 'ensure-configmap',
          ref: canaryRef,
          desired: config.content,
          previous:
            existingCm === null
              ? null
              : {
                  ...configMapContent(existingCm),
                  resourceVersion: existingCm.metadata.resourceVersion ?? '',
                },
        }
      : undefined;
  const shared: ClusterAction[] = [];

  // The strategy to hand back: the original's, unless it is OnDelete because a plan made it so.
  const live = strategyOf(original);
  const originalStrategy =
    live.type === 'OnDelete' ? (recordedStrategy(input.canaryDaemonSet) ?? live) : live;
  const basedOn = original.metadata.resourceVersion ?? '';
  const ref = { namespace, name: original.metadata.name };
  shared.push({
    kind: 'set-update-strategy',
    ref,
    strategy: { type: 'OnDelete' },
    previous: live,
    basedOn,
  });
  const required = requiredAffinity(original);
  shared.push({
    kind: 'set-node-affinity',
    ref,
    required: withExclusion(required, label),
    previous: required,
    basedOn,
    purpose: `keep the original kube-proxy off nodes labelled ${label}=switching or ${label}=nftables`,
  });
  if (configAction !== undefined) shared.push(configAction);
  const desired = canaryDaemonSet({
    original,
    label,
    originalStrategy,
    ...(config.kind === 'configmap'
      ? { configMap: config.from.name }
      : { container: config.container }),
  });
  const existingDs = input.canaryDaemonSet;
  shared.push({
    kind: 'ensure-daemonset',
    ref: canaryRef,
    desired,
    previous:
      existingDs === null
        ? null
        : {
            manifest: cleanDaemonSet(existingDs),
            resourceVersion: existingDs.metadata.resourceVersion ?? '',
          },
  });
  const nodes = input.nodes.map((n) => nodeSteps(n, label));
  return {
    ok: true,
    plan: {
      namespace,
      source,
      shared,
      nodes,
      originalStrategy,
      changes: config.changes,
      dropped: config.dropped,
      from: {
        daemonSet: cleanDaemonSet(original),
        ...(config.kind === 'configmap' ? { configMap: config.from } : {}),
      },
    },
  };
}
